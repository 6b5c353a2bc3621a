"""One page of a print layout, composed from QGIS layout items: title and subtitle, the map at a rounded
scale, a scale bar in sensible units, a north arrow, a legend that is made to fit the page (more columns,
then a smaller font), an overview inset for a small area, the CRS and the credits. `compose` is the only
entry; the tools in `layouts.py` decide what goes on the page."""

from __future__ import annotations

import logging
import math
from pathlib import Path
from typing import Any

from qgis.core import (
    QgsApplication,
    QgsCoordinateReferenceSystem,
    QgsLayoutExporter,
    QgsLayoutItemLabel,
    QgsLayoutItemLegend,
    QgsLayoutItemMap,
    QgsLayoutItemMapOverview,
    QgsLayoutItemPage,
    QgsLayoutItemPicture,
    QgsLayoutItemScaleBar,
    QgsLayoutPoint,
    QgsLayoutSize,
    QgsMapLayer,
    QgsPrintLayout,
    QgsRectangle,
    QgsUnitTypes,
)
from qgis.PyQt.QtGui import QFont

log = logging.getLogger(__name__)

MM = QgsUnitTypes.LayoutMillimeters
MARGIN = 10.0
PANEL = 72.0  # the side panel of a landscape page (legend, north arrow, overview)
GAP = 5.0  # between the map and the panel
SMALL_AREA_M = 50_000  # a map narrower than this gets an overview inset
NORTH_ARROW = "arrows/NorthArrow_02.svg"


def compose(layout: QgsPrintLayout, *, title: str, subtitle: str | None, layers: list[QgsMapLayer],
            extent: QgsRectangle, crs: QgsCoordinateReferenceSystem, page_size: str, orientation: str,
            credits: str, feature_line: str = "") -> dict[str, Any]:
    page = layout.pageCollection().page(0)
    page.setPageSize(page_size, QgsLayoutItemPage.Landscape if orientation == "landscape" else QgsLayoutItemPage.Portrait)
    width, height = page.pageSize().width(), page.pageSize().height()
    landscape = width > height
    top = MARGIN
    _label(layout, title, 18, True, MARGIN, top, width - 2 * MARGIN, 10)
    top += 11
    if subtitle:
        _label(layout, subtitle, 11, False, MARGIN, top, width - 2 * MARGIN, 6)
        top += 7
    if feature_line:  # an atlas: the feature's own values, evaluated per page from the expression built here
        line = _label(layout, "", 11, False, MARGIN, top, width - 2 * MARGIN, 6)
        line.setText(feature_line)
        top += 7
    top += 2
    credits_h = 12.0
    bottom = height - MARGIN - credits_h
    scalebar_h = 16.0
    if landscape:
        map_rect = (MARGIN, top, width - 2 * MARGIN - PANEL - GAP, bottom - scalebar_h - top)
        panel = (width - MARGIN - PANEL, top, PANEL, bottom - top)
    else:
        map_h = (bottom - top) * 0.66
        map_rect = (MARGIN, top, width - 2 * MARGIN, map_h - scalebar_h)
        panel = (MARGIN, top + map_h + 2, width - 2 * MARGIN, bottom - top - map_h - 2)
    main = _map(layout, layers, extent, crs, map_rect)
    scale = main.scale()
    bar = _scalebar(layout, main, map_rect[0], map_rect[1] + map_rect[3] + 1.5)
    arrow = _north_arrow(layout, main, panel)
    legend_top = panel[1] + (20 if arrow is not None else 0)
    small = _width_m(main) < SMALL_AREA_M and landscape
    inset_rect = (panel[0], panel[1] + panel[3] - 48, panel[2], 42)
    legend_space = (panel[0], legend_top, panel[2], (inset_rect[1] - 3 if small else panel[1] + panel[3])
                    - legend_top - 8)
    legend, fitted = _legend(layout, main, layers, legend_space)
    overview = _overview(layout, main, layers, inset_rect) if small else None
    crs_text = f"Coordinate reference system: {crs.authid()} ({crs.description()})"
    _label(layout, crs_text, 7, False, legend_space[0], legend_space[1] + legend_space[3] + 1, legend_space[2], 7)
    _label(layout, credits or "Credits: the data's sources are not recorded in the layers.", 7, False, MARGIN,
           height - MARGIN - credits_h + 1, width - 2 * MARGIN, credits_h - 1)
    return {"scale": int(round(scale)), "page": f"{page_size} {orientation}", "crs": crs.authid(),
            "legend_layers": [lyr.name() for lyr in layers], "credits": credits,
            "scale_bar": f"{bar.numberOfSegments()} × {bar.unitsPerSegment():g} {_unit_name(bar)}",
            "overview": overview is not None, "fitted": fitted}


def _place(item: Any, x: float, y: float, w: float, h: float) -> None:
    item.attemptMove(QgsLayoutPoint(x, y, MM))
    item.attemptResize(QgsLayoutSize(w, h, MM))


def _label(layout: QgsPrintLayout, text: str, size: float, bold: bool, x: float, y: float, w: float,
           h: float) -> QgsLayoutItemLabel:
    label = QgsLayoutItemLabel(layout)
    label.setText(plain(text))  # plain text: QGIS would evaluate [% … %] in a label as an expression
    label.setMode(QgsLayoutItemLabel.ModeFont)
    font = QFont()
    font.setPointSizeF(size)
    font.setBold(bold)
    _set_font(label, font)
    layout.addLayoutItem(label)
    _place(label, x, y, w, h)
    return label


def plain(text: str) -> str:
    """Text from a model, a catalog or a user, made inert for QGIS: a label, a legend entry or a title
    evaluates "[% … %]" as an expression (which can read files or environment variables). A zero-width
    space after "[" keeps what the reader sees and stops the evaluation."""
    return str(text).replace("[%", "[\u200b%")


def _set_font(item: Any, font: QFont) -> None:
    if hasattr(item, "setTextFormat"):  # QGIS >= 3.24
        from qgis.core import QgsTextFormat

        item.setTextFormat(QgsTextFormat.fromQFont(font))
    else:
        item.setFont(font)


def nice_scale(scale: float) -> int:
    """The next round scale at or above `scale` (1, 2, 2.5, 5 × 10^n), so the whole extent still fits."""
    if scale <= 1:
        return 1
    power = 10 ** math.floor(math.log10(scale))
    for step in (1, 2, 2.5, 5, 10):
        if step * power >= scale * 0.999:
            return int(step * power)
    return int(10 * power)


def _map(layout: QgsPrintLayout, layers: list[QgsMapLayer], extent: QgsRectangle,
         crs: QgsCoordinateReferenceSystem, rect: tuple[float, ...]) -> QgsLayoutItemMap:
    item = QgsLayoutItemMap(layout)
    layout.addLayoutItem(item)
    _place(item, *rect)
    item.setCrs(crs)
    item.setLayers(layers)
    item.setKeepLayerSet(True)
    item.setFrameEnabled(True)
    _zoom(item, extent)
    item.setScale(nice_scale(item.scale()))
    return item


def _zoom(item: QgsLayoutItemMap, extent: QgsRectangle) -> None:
    """The whole extent in the item, at the item's own size: setExtent gives a new item an extent but
    resizes it to the extent's shape, so the size is put back before zoomToExtent fits the extent in."""
    size = item.sizeWithUnits()
    item.setExtent(QgsRectangle(extent))
    item.attemptResize(size)
    item.zoomToExtent(QgsRectangle(extent))


def _width_m(item: QgsLayoutItemMap) -> float:
    extent = item.extent()
    crs = item.crs()
    if crs.isGeographic():
        return extent.width() * 111_320 * math.cos(math.radians(extent.center().y()))
    return extent.width() * QgsUnitTypes.fromUnitToUnitFactor(crs.mapUnits(), QgsUnitTypes.DistanceMeters)


def _scalebar(layout: QgsPrintLayout, main: QgsLayoutItemMap, x: float, y: float) -> QgsLayoutItemScaleBar:
    bar = QgsLayoutItemScaleBar(layout)
    bar.setStyle("Single Box")
    bar.setLinkedMap(main)
    units = QgsUnitTypes.DistanceKilometers if _width_m(main) > 5000 else QgsUnitTypes.DistanceMeters
    bar.applyDefaultSize(units)
    layout.addLayoutItem(bar)
    bar.attemptMove(QgsLayoutPoint(x, y, MM))
    bar.update()
    return bar


def _unit_name(bar: QgsLayoutItemScaleBar) -> str:
    return "km" if bar.units() == QgsUnitTypes.DistanceKilometers else "m"


def _north_arrow(layout: QgsPrintLayout, main: QgsLayoutItemMap, panel: tuple[float, ...]) -> Any:
    path = next((str(Path(folder) / NORTH_ARROW) for folder in QgsApplication.svgPaths()
                 if (Path(folder) / NORTH_ARROW).exists()), None)
    if path is None:
        return None
    arrow = QgsLayoutItemPicture(layout)
    arrow.setPicturePath(path)
    arrow.setLinkedMap(main)
    layout.addLayoutItem(arrow)
    _place(arrow, panel[0] + panel[2] - 16, panel[1], 14, 16)
    return arrow


def _overview(layout: QgsPrintLayout, main: QgsLayoutItemMap, layers: list[QgsMapLayer],
              rect: tuple[float, ...]) -> QgsLayoutItemMap:
    inset = QgsLayoutItemMap(layout)
    layout.addLayoutItem(inset)
    _place(inset, *rect)
    inset.setCrs(main.crs())
    inset.setLayers(layers)
    inset.setKeepLayerSet(True)
    inset.setFrameEnabled(True)
    wide = QgsRectangle(main.extent())
    wide.scale(8)
    _zoom(inset, wide)
    frame = QgsLayoutItemMapOverview("area", inset)
    frame.setLinkedMap(main)
    inset.overviews().addOverview(frame)
    return inset


def _legend(layout: QgsPrintLayout, main: QgsLayoutItemMap, layers: list[QgsMapLayer],
            space: tuple[float, ...]) -> tuple[QgsLayoutItemLegend, str]:
    """A legend of exactly these layers, made to fit its space: long names wrapped to its width, then more
    columns, then smaller text."""
    legend = QgsLayoutItemLegend(layout)
    legend.setTitle("Legend")
    legend.setLinkedMap(main)
    legend.setAutoUpdateModel(False)
    root = legend.model().rootGroup()
    root.clear()
    texts = []  # per layer: its node, its title and its entries' own texts, before any wrapping
    for layer in layers:
        node = root.addLayer(layer)
        formula = _formula(layer)
        title = f"{layer.name()} ({formula})" if formula and formula not in layer.name() else layer.name()
        entries = [str(entry.data(0) or "") for entry in legend.model().layerLegendNodes(node)]
        texts.append((node, title, entries))
    layout.addLayoutItem(legend)
    _place(legend, *space)
    legend.setResizeToContents(True)
    fitted, base = "", _text_sizes(legend)
    for scale, columns in ((s, c) for s in (1.0, 0.9, 0.8, 0.7, 0.6) for c in (1, 2, 3)):
        legend.setColumnCount(columns)  # more columns for a tall legend; smaller text for a wide one
        _set_text_sizes(legend, base, scale)
        width = (space[2] / columns - 12) / (0.19 * base["SymbolLabel"] * scale)  # characters a line holds
        for node, title, entries in texts:
            _set_texts(legend, node, title, entries, max(12, int(width)))
        legend.refresh()
        _paint_once(layout, space)  # a legend knows its size only once painted (QgsLayoutItemLegend::adjustBoxSize)
        legend.adjustBoxSize()
        size = legend.sizeWithUnits()
        if size.width() <= space[2] and size.height() <= space[3]:
            if (columns, scale) != (1, 1.0):
                fitted = f"legend in {columns} column(s)" + (f", text at {scale:.0%}" if scale != 1.0 else "")
            break
    size = legend.sizeWithUnits()
    if size.width() > space[2] or size.height() > space[3]:
        legend.setColumnCount(1)
        legend.setResizeToContents(False)  # the last resort: clipped inside its frame, never off the page
        _place(legend, space[0], space[1], min(size.width(), space[2]), min(size.height(), space[3]))
        fitted = "legend cut to its space: too many entries; name fewer layers"
    return legend, fitted


def _set_texts(legend: QgsLayoutItemLegend, node: Any, title: str, entries: list[str], width: int) -> None:
    """A layer's title and entries (class names, band names) wrapped at `width` characters and made inert."""
    from qgis.core import QgsMapLayerLegendUtils

    node.setCustomProperty("legend/title-label", _wrapped(plain(title), width))
    for index, text in enumerate(entries):
        wrapped = _wrapped(plain(text), width)
        if wrapped != text:
            QgsMapLayerLegendUtils.setLegendNodeUserLabel(node, index, wrapped)
    legend.model().refreshLayerLegend(node)


def _wrapped(text: str, width: int) -> str:
    """Lines of at most `width` characters, broken at spaces (a legend breaks a line at "\n")."""
    import textwrap

    return "\n".join(textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)) or text


def _paint_once(layout: QgsPrintLayout, region: tuple[float, ...]) -> None:
    """Paints one small image of `region` (no map item lies there yet), so the legend measures itself."""
    from qgis.PyQt.QtCore import QRectF, QSize

    QgsLayoutExporter(layout).renderRegionToImage(QRectF(*region), QSize(), 30)


_LEGEND_PARTS = ("Title", "Group", "Subgroup", "SymbolLabel")


def _text_sizes(legend: QgsLayoutItemLegend) -> dict[str, float]:
    from qgis.core import QgsLegendStyle

    sizes = {}
    for part in _LEGEND_PARTS:
        size = legend.style(getattr(QgsLegendStyle, part)).font().pointSizeF()
        sizes[part] = size if size > 0 else 10.0
    return sizes


def _set_text_sizes(legend: QgsLayoutItemLegend, base: dict[str, float], scale: float) -> None:
    from qgis.core import QgsLegendStyle

    for part in _LEGEND_PARTS:
        style = legend.style(getattr(QgsLegendStyle, part))
        font = style.font()
        font.setPointSizeF(max(5.0, base[part] * scale))
        style.setFont(font)
        legend.setStyle(getattr(QgsLegendStyle, part), style)


def _formula(layer: QgsMapLayer) -> str:
    """An index layer's formula, as compute_index wrote it into the layer's abstract ("NDVI = …. Items: …")."""
    abstract = layer.abstract() or ""
    head = abstract.split(". Items:", 1)[0]
    return head if "=" in head and len(head) < 80 else ""
