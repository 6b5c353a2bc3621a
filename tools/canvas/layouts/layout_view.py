"""get_layout_view: the agent looks at a page of a print layout it made. The page is drawn by QGIS's layout
exporter (on the GUI thread: QGIS renders layouts only there, as its own export does; the picture is kept small);
a model that can see gets the picture, and every model gets what can be measured: the items cut by the page's
edge, a legend whose frame is smaller than its content, and how much of each map item each layer paints."""

from __future__ import annotations

import asyncio
import uuid
from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult, ImageContent
from pydantic import Field
from qgis.core import (
    QgsLayoutExporter,
    QgsLayoutItem,
    QgsLayoutItemLegend,
    QgsLayoutItemMap,
    QgsLayoutItemPage,
    QgsLayoutUtils,
    QgsLegendRenderer,
)
from qgis.PyQt.QtCore import QRectF, QSize, QSizeF

from ...common import READ, ToolInputError, ok, policy
from ...declare import deps_of, tool
from ..picture_checks import MEASURE_WIDTH, NO_PICTURE, encode_png, layer_shares
from ..project_access import project_of

EDGE_MM = 0.5  # an item reaching less than this past the page's edge is on the page (rounding, frames)
LOOK_AT_IT = ("The picture is attached: look at it and check the page as a reader will (the map shows the layers, "
              "the legend is whole, nothing is cut at the edges) before you answer.")


@tool(annotations=READ, meta=policy(requires=["qgis"]))
async def get_layout_view(
    ctx: Context,
    name: Annotated[str, Field(description="Layout name from make_print_layout")],
    page: Annotated[int, Field(description="Page number, from 1", ge=1)] = 1,
    width: Annotated[int, Field(description="Image width in pixels", ge=64, le=1600)] = 768,
) -> CallToolResult:
    """Look at a page of a print layout: render it to a picture (shown to models that can see) and measure it (items cut by the page edge, a legend cut by its frame, the layers each map draws). Use it to check a layout before answering. E.g. 'does the printable page look right?'"""
    deps = deps_of(ctx)
    project = project_of(deps)
    layout = project.layoutManager().layoutByName(name)
    if layout is None:
        names = ", ".join(lyt.name() for lyt in project.layoutManager().printLayouts()) or "none"
        raise ToolInputError(f"No print layout named '{name}'. Layouts in the project: {names}.")
    pages = layout.pageCollection()
    if page > pages.pageCount():
        raise ToolInputError(f"Layout '{name}' has {pages.pageCount()} page(s); ask for page 1 to {pages.pageCount()}.")
    index = page - 1
    size = layout.convertToLayoutUnits(pages.page(index).pageSize())
    on_page = QRectF(pages.page(index).pos(), size)  # convertToLayoutUnits gives a QSizeF
    height = max(1, round(width * size.height() / max(1e-6, size.width())))
    image = QgsLayoutExporter(layout).renderPageToImage(index, QSize(width, height))
    items = [item for item in layout.items() if isinstance(item, QgsLayoutItem)
             and not isinstance(item, QgsLayoutItemPage) and item.page() == index and item.isVisible()]
    rows = [await _item_row(layout, item, on_page) for item in items]
    path = deps.output_dir() / f"layout-{uuid.uuid4().hex[:8]}.png"
    png = await asyncio.to_thread(encode_png, image, str(path))
    sees = await deps.caller_sees()
    cut = [row for row in rows if row.get("cut_by_page") or row.get("legend_cut")]
    data = {"layout": name, "page": page, "pages": pages.pageCount(),
            "page_size_mm": [round(size.width(), 1), round(size.height(), 1)], "items": rows, "cut": len(cut),
            "png_file": str(path), "size": [image.width(), image.height()], "picture_for_model": sees,
            "how_measured": (f"item frames against the page's edges in mm (beyond {EDGE_MM} mm counts as cut); a "
                             "legend's content size as QGIS's legend renderer computes it against its frame; a map "
                             f"item's layers each rendered alone ({MEASURE_WIDTH} px across), 'paints' the share "
                             "of the map item they cover")}
    result = ok(data, _summary(name, page, rows, sees))
    if sees:
        result.content.append(ImageContent(type="image", data=png, mime_type="image/png"))
    return result


async def _item_row(layout: Any, item: Any, page: QRectF) -> dict[str, Any]:
    frame = item.sceneBoundingRect()
    row: dict[str, Any] = {"item": item.displayName(), "type": type(item).__name__.removeprefix("QgsLayoutItem").lower(),
                           "frame_mm": [round(v, 1) for v in (frame.left() - page.left(), frame.top() - page.top(),
                                                                frame.width(), frame.height())]}
    beyond = {side: round(mm, 1) for side, mm in (("left", page.left() - frame.left()), ("top", page.top() - frame.top()),
                                                  ("right", frame.right() - page.right()),
                                                  ("bottom", frame.bottom() - page.bottom())) if mm > EDGE_MM}
    if beyond:
        row["cut_by_page"] = beyond
    if isinstance(item, QgsLayoutItemLegend):
        needed = QgsLegendRenderer(item.model(), item.legendSettings()).minimumSize(
            QgsLayoutUtils.createRenderContextForLayout(layout, None))
        row["content_mm"] = [round(needed.width(), 1), round(needed.height(), 1)]
        if needed.width() > frame.width() + EDGE_MM or needed.height() > frame.height() + EDGE_MM:
            row["legend_cut"] = True
    if isinstance(item, QgsLayoutItemMap):
        tall = frame.height() / max(1e-6, frame.width())
        settings = item.mapSettings(item.extent(), QSizeF(MEASURE_WIDTH, max(1.0, round(MEASURE_WIDTH * tall))), 96, True)
        layers = list(settings.layers())
        shares = await layer_shares(settings, layers)
        row["layers"] = [{"name": layer.name(), "paints": round(shares[layer.id()], 3) if layer.id() in shares else None}
                         for layer in layers]
    return row


def _summary(name: str, page: int, rows: list[dict[str, Any]], sees: bool) -> str:
    lines = [f"Page {page} of layout '{name}': {len(rows)} item(s)."]
    for row in rows:
        if row.get("cut_by_page"):
            sides = ", ".join(f"{mm} mm past the {side}" for side, mm in row["cut_by_page"].items())
            lines.append(f"'{row['item']}' is cut by the page's edge ({sides}).")
        if row.get("legend_cut"):
            need, frame = row["content_mm"], row["frame_mm"]
            lines.append(f"'{row['item']}' needs {need[0]}×{need[1]} mm but its frame is {frame[2]}×{frame[3]} mm: "
                         "the legend is cut.")
        for layer in row.get("layers") or ():
            if layer["paints"] == 0:
                lines.append(f"Map '{row['item']}' draws nothing of '{layer['name']}'.")
    if len(lines) == 1:
        lines.append("Nothing is cut by the page or by its frame.")
    return " ".join([*lines, LOOK_AT_IT if sees else NO_PICTURE])
