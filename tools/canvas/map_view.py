"""get_map_view: the current map rendered to a PNG (for vision models and the chat), plus extent, scale, layers."""

from __future__ import annotations

import base64
import uuid
from typing import Annotated

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult, ImageContent
from pydantic import Field
from qgis.core import QgsMapRendererParallelJob
from qgis.PyQt.QtCore import QBuffer, QByteArray, QIODevice, QSize

from ..common import READ, ok, policy
from ..declare import deps_of, tool
from .project_access import canvas_of, wait_for_qt
from .zoom import view_summary

RENDER_TIMEOUT_S = 60.0


@tool(annotations=READ, meta=policy(requires=["qgis"]))
async def get_map_view(
    ctx: Context,
    width: Annotated[int, Field(description="Image width in pixels", ge=64, le=2048)] = 768,
    include_image: Annotated[bool, Field(description="Attach the PNG (for vision-capable models)")] = True,
) -> CallToolResult:
    """Look at the map: render the current view to a picture and describe it (extent, CRS, scale, visible layers). E.g. 'what does the map show?'"""
    deps = deps_of(ctx)
    canvas = canvas_of(deps)
    image = await render_canvas(canvas, width)
    path = deps.output_dir() / f"map-{uuid.uuid4().hex[:8]}.png"
    image.save(str(path), "PNG")
    layers = [layer.name() for layer in canvas.layers()]
    data = {**view_summary(canvas), "visible_layers": layers, "png_file": str(path),
            "size": [image.width(), image.height()]}
    result = ok(data, f"Map at 1:{canvas.scale():,.0f} showing {len(layers)} layer(s): {', '.join(layers) or 'none'}")
    if include_image:
        result.content.append(ImageContent(type="image", data=_png_base64(image), mime_type="image/png"))
    return result


async def render_canvas(canvas, width: int):
    """Renders what the canvas shows in QGIS's render threads and awaits the image without blocking."""
    settings = canvas.mapSettings()
    size = settings.outputSize()
    height = max(1, round(width * size.height() / max(1, size.width())))
    settings.setOutputSize(QSize(width, height))
    settings.setExtent(canvas.extent())
    job = QgsMapRendererParallelJob(settings)
    finished = []
    job.finished.connect(lambda: finished.append(True))
    job.start()
    try:
        await wait_for_qt(lambda: bool(finished), RENDER_TIMEOUT_S, "Rendering the map")
    except BaseException:
        job.cancelWithoutBlocking()
        raise
    return job.renderedImage()


def _png_base64(image) -> str:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return base64.b64encode(bytes(data)).decode("ascii")



