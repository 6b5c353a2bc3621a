"""get_map_view: the agent looks at its map. The canvas is rendered to a PNG by QGIS's render threads with the
canvas's own settings; a model that can see (Ollama lists "vision" for it) gets the picture with the result, and
every model gets what can be measured without looking: whether anything but the background was drawn, how much
of the view each layer paints, and how much of each layer's extent is on screen."""

from __future__ import annotations

import asyncio
import uuid
from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult, ImageContent
from pydantic import Field
from qgis.PyQt.QtCore import QSize

from ..common import READ, ok, policy
from ..declare import deps_of, tool
from .picture_checks import (
    MEASURE_WIDTH,
    MEASURED_LAYERS,
    NO_PICTURE,
    colour_tuple,
    encode_png,
    layer_shares,
    painted_share,
    render,
    rgba_pixels,
    share_in_view,
)
from .project_access import canvas_of, project_of
from .zoom import view_summary

LOOK_AT_IT = ("The picture is attached: look at it and check that what you made shows as intended (the layer "
              "drawn, the area on screen) before you answer.")
HOW_MEASURED = (f"'paints': share (0 to 1) of the view's pixels the layer covers, counted on a {MEASURE_WIDTH}-pixel-wide "
                f"render of that layer alone with the view's extent and CRS (the first {MEASURED_LAYERS} layers; "
                "null: not measured); 'extent_in_view': share of the layer's extent inside the view; 'empty': every "
                "pixel of the picture is the map's background colour")


@tool(annotations=READ, meta=policy(requires=["qgis"]))
async def get_map_view(
    ctx: Context,
    width: Annotated[int, Field(description="Image width in pixels", ge=64, le=2048)] = 768,
    include_image: Annotated[bool, Field(description="Attach the PNG (for vision-capable models)")] = True,
) -> CallToolResult:
    """Look at the map: render the current view to a picture (shown to models that can see) and measure it (which layers are drawn, how much of the view each paints, an empty map). Use it to check your work before answering. E.g. 'what does the map show?'"""
    deps = deps_of(ctx)
    canvas = canvas_of(deps)
    settings = view_settings(canvas, width)
    image = await render(settings)
    layers = list(canvas.layers())
    shares = await layer_shares(settings, layers)
    path = deps.output_dir() / f"map-{uuid.uuid4().hex[:8]}.png"
    background = colour_tuple(settings.backgroundColor())
    empty, png = await asyncio.to_thread(_save_and_measure, image, str(path), background)
    sees = include_image and await deps.caller_sees()
    rows = [_layer_row(layer, shares.get(layer.id()), settings, project_of(deps)) for layer in layers]
    data = {**view_summary(canvas), "visible_layers": [layer.name() for layer in layers], "png_file": str(path),
            "size": [image.width(), image.height()], "picture_for_model": sees, "empty": empty, "layers": rows,
            "how_measured": HOW_MEASURED}
    result = ok(data, _summary(canvas, rows, empty, sees))
    if sees:
        result.content.append(ImageContent(type="image", data=png, mime_type="image/png"))
    return result


def view_settings(canvas: Any, width: int) -> Any:
    """The canvas's own map settings (layers, CRS, styles, background) at `width` pixels across."""
    settings = canvas.mapSettings()
    size = settings.outputSize()
    settings.setOutputSize(QSize(width, max(1, round(width * size.height() / max(1, size.width())))))
    settings.setExtent(canvas.extent())
    return settings


async def render_canvas(canvas: Any, width: int) -> Any:
    """What the canvas shows, as a QImage `width` pixels across (rendered in QGIS's render threads)."""
    return await render(view_settings(canvas, width))


def _save_and_measure(image: Any, path: str, background: tuple[int, int, int, int]) -> tuple[bool, str]:
    """Worker thread: (whether every pixel is the background colour, the PNG as base64), the file written."""
    png = encode_png(image, path)
    return painted_share(rgba_pixels(image), background) == 0.0, png


def _layer_row(layer: Any, share: float | None, settings: Any, project: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"name": layer.name(), "paints": None if share is None else round(share, 3),
                           "extent_in_view": share_in_view(layer, settings, project)}
    if share is not None:
        row["drawn"] = share > 0
    return row


def _summary(canvas: Any, rows: list[dict[str, Any]], empty: bool, sees: bool) -> str:
    head = f"Map at 1:{canvas.scale():,.0f} showing {len(rows)} layer(s)."
    if not rows:
        lines = ["No layer is shown: the map is empty."]
    elif empty:
        lines = ["Nothing but the background is drawn: no layer paints anything in this view."]
    else:
        lines = [_row_words(row) for row in rows]
    return " ".join([head, *lines, LOOK_AT_IT if sees else NO_PICTURE])


def _row_words(row: dict[str, Any]) -> str:
    name, share, in_view = row["name"], row["paints"], row["extent_in_view"]
    where = "" if in_view is None else f" ({in_view:.0%} of its extent is in view)"
    if share is None:
        return f"'{name}' is shown (not measured){where}."
    if share == 0:
        return f"'{name}' draws nothing in this view{where}."
    return f"'{name}' paints {share:.0%} of the view{where}."
