"""One page of a print layout, composed from QGIS layout items: title and subtitle (and an atlas page's own line,
grown to hold its longest text), the map at a rounded scale, a scale bar QGIS refits to each page's scale (with
the scale written beside it), a north arrow, a legend made to fit (legend.py), an overview inset with context
for a small area (locator.py), the CRS and the credits. `compose` is the only entry; the tools in
`print_layouts.py` decide what goes on the page."""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from qgis.core import (
    QgsApplication,
    QgsCoordinateReferenceSystem,
    QgsLayoutItemLabel,
    QgsLayoutItemMap,
    QgsLayoutItemPage,
    QgsLayoutItemPicture,
    QgsLayoutItemScaleBar,
    QgsLayoutPoint,
    QgsLayoutSize,
    QgsLayoutUtils,
    QgsMapLayer,
    QgsPrintLayout,
    QgsRectangle,
    QgsScaleBarSettings,
    QgsUnitTypes,
)
from qgis.PyQt.QtGui import QFont

from ...analysis.expressions import set_label_template, template_text
from .legend import add_legend
from .locator import add_locator
from .page_parts import MM, font, place, set_font, width_m, zoom

log = logging.getLogger(__name__)

MARGIN = 10.0
PANEL = 72.0  # the side panel of a landscape page (legend, north arrow, overview)
GAP = 5.0  # between the map and the panel
SMALL_AREA_M = 50_000  # a map narrower than this gets an overview inset
NORTH_ARROW = "arrows/NorthArrow_02.svg"
SEGMENT_MM = (12.0, 30.0)  # a scale bar segment's shortest and longest length: QGIS picks a round length between
SEGMENTS = 2
KM_FROM_M = 5000  # a map wider than this many metres has its scale bar in kilometres
LINE_PT = 11.0  # an atlas page's own line
INSET_H = 46.0
ROUND_SCALES = [step * 10 ** power for power in range(2, 9) for step in (1, 2, 2.5, 5)]


@dataclass
class Page:
    """What compose put on the page, for the tools' answers and for the atlas exporter."""
    main: QgsLayoutItemMap
    bar: QgsLayoutItemScaleBar
    numeric: QgsLayoutItemScaleBar
    line: QgsLayoutItemLabel | None
    overview: QgsLayoutItemMap | None
    fitted: str


def compose(layout: QgsPrintLayout, *, title: str, subtitle: str | None, layers: list[QgsMapLayer],
            extent: QgsRectangle, crs: QgsCoordinateReferenceSystem, page_size: str, orientation: str,
            credits: str, feature_line: str = "", page_texts: Callable[[QgsLayoutItemLabel], list[str]] | None = None,
            context_layers: list[QgsMapLayer] | None = None, legend_units: dict[str, str] | None = None,
            styles: dict[str, str] | None = None) -> tuple[dict[str, Any], Page]:
    """The page; `styles` are the map item's style overrides by layer id (page_looks.py), which the legend shows."""
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
    line = None
    if feature_line:  # an atlas: the feature's own values, evaluated per page from the expression built here
        line = _label(layout, "", LINE_PT, False, MARGIN, top, width - 2 * MARGIN, 6)
        set_label_template(line, feature_line)  # made of the expression guard's fragments (atlas.py)
        tall = _height_for(line, page_texts(line) if page_texts else [feature_line], width - 2 * MARGIN)
        line.attemptResize(QgsLayoutSize(width - 2 * MARGIN, tall, MM))
        top += tall + 1
    top += 2
    credits_h = 12.0
    bottom = height - MARGIN - credits_h
    scalebar_h = 14.0
    if landscape:
        map_rect = (MARGIN, top, width - 2 * MARGIN - PANEL - GAP, bottom - scalebar_h - top)
        panel = (width - MARGIN - PANEL, top, PANEL, bottom - top)
    else:
        map_h = (bottom - top) * 0.64
        map_rect = (MARGIN, top, width - 2 * MARGIN, map_h - scalebar_h)
        panel = (MARGIN, top + map_h + 2, width - 2 * MARGIN, bottom - top - map_h - 2)
    main = _map(layout, layers, extent, crs, map_rect, styles or {})
    scale = main.scale()
    bar, numeric = _scalebar(layout, main, map_rect[0], map_rect[1] + map_rect[3] + 2, map_rect[2])
    small = _width_m(main) < SMALL_AREA_M
    if landscape:  # the panel: north arrow, legend, CRS, inset at its foot
        arrow = _north_arrow(layout, main, (panel[0] + panel[2] - 16, panel[1]))
        inset_rect = (panel[0], panel[1] + panel[3] - INSET_H, panel[2], INSET_H)
        legend_top = panel[1] + (20 if arrow is not None else 0)
        legend_space = (panel[0], legend_top, panel[2],
                        (inset_rect[1] - 4 if small else panel[1] + panel[3]) - legend_top - 9)
    else:  # under the map: the legend on the left, the north arrow and the inset on the right
        side = 66.0
        arrow = _north_arrow(layout, main, (panel[0] + panel[2] - 14, panel[1]))
        inset_rect = (panel[0] + panel[2] - side, panel[1] + 18, side, min(INSET_H, panel[3] - 18))
        legend_space = (panel[0], panel[1], panel[2] - (side + GAP if small or arrow is not None else 0),
                        panel[3] - 9)
    legend, fitted = add_legend(layout, main, layers, legend_space, legend_units or {})
    overview = add_locator(layout, main, layers, context_layers or [], inset_rect) if small else None
    crs_text = f"Coordinate reference system: {crs.authid()} ({crs.description()})"
    _label(layout, crs_text, 7, False, legend_space[0], legend_space[1] + legend_space[3] + 1, legend_space[2], 8)
    _label(layout, credits or "Credits: the data's sources are not recorded in the layers.", 7, False, MARGIN,
           height - MARGIN - credits_h + 1, width - 2 * MARGIN, credits_h - 1)
    report = {"scale": int(round(scale)), "page": f"{page_size} {orientation}", "crs": crs.authid(),
              "legend_layers": [lyr.name() for lyr in layers], "credits": credits,
              "scale_bar": scale_bar_words(bar), "overview": overview is not None, "fitted": fitted}
    return report, Page(main, bar, numeric, line, overview, fitted)


def _label(layout: QgsPrintLayout, text: str, size: float, bold: bool, x: float, y: float, w: float,
           h: float) -> QgsLayoutItemLabel:
    label = QgsLayoutItemLabel(layout)
    set_label_template(label, template_text(text))  # text as written: "[% … %]" in it is never evaluated
    label.setMode(QgsLayoutItemLabel.ModeFont)
    label.setMargin(0)
    set_font(label, font(size, bold))
    layout.addLayoutItem(label)
    place(label, x, y, w, h)
    return label


def _height_for(label: QgsLayoutItemLabel, texts: list[str], width: float) -> float:
    """The label's height (mm) that holds the longest of `texts` wrapped at `width`, as QGIS wraps it at
    word boundaries: an atlas line is as tall as its longest page needs, never cut."""
    line_font = font(LINE_PT)
    lines = max((_wrapped_lines(text, line_font, width) for text in texts), default=1)
    return lines * QgsLayoutUtils.fontHeightMM(line_font) * 1.25 + 1.0


def _wrapped_lines(text: str, chosen: QFont, width: float) -> int:
    count = 0
    for paragraph in str(text).split("\n"):
        count += 1
        used = 0.0
        space = QgsLayoutUtils.textWidthMM(chosen, " ")
        for word in paragraph.split(" "):
            wide = QgsLayoutUtils.textWidthMM(chosen, word)
            if used and used + space + wide > width * 0.97:  # a little slack for the renderer's own rounding
                count += 1
                used = wide
            else:
                used += (space if used else 0.0) + wide
    return max(1, count)


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
         crs: QgsCoordinateReferenceSystem, rect: tuple[float, ...], styles: dict[str, str]) -> QgsLayoutItemMap:
    item = QgsLayoutItemMap(layout)
    layout.addLayoutItem(item)
    place(item, *rect)
    item.setCrs(crs)
    item.setLayers(layers)
    item.setKeepLayerSet(True)
    if styles:
        item.setLayerStyleOverrides(styles)
        item.setKeepLayerStyles(True)
    item.setFrameEnabled(True)
    zoom(item, extent)
    item.setScale(nice_scale(item.scale()))
    return item


def _width_m(item: QgsLayoutItemMap) -> float:
    return width_m(item.extent(), item.crs())


def _scalebar(layout: QgsPrintLayout, main: QgsLayoutItemMap, x: float, y: float,
              room: float) -> tuple[QgsLayoutItemScaleBar, QgsLayoutItemScaleBar]:
    """A scale bar whose segments QGIS sizes from the linked map's scale each time it changes (every atlas
    page), between SEGMENT_MM's bounds; and the scale as words ("1:2,500") beside it."""
    bar = QgsLayoutItemScaleBar(layout)
    bar.setStyle("Single Box")
    bar.setLinkedMap(main)
    bar.setNumberOfSegments(SEGMENTS)
    bar.setNumberOfSegmentsLeft(0)
    bar.setSegmentSizeMode(QgsScaleBarSettings.SegmentSizeFitWidth)
    bar.setMinimumBarWidth(SEGMENT_MM[0])
    bar.setMaximumBarWidth(SEGMENT_MM[1])
    bar.setHeight(3)
    set_font(bar, font(8))
    layout.addLayoutItem(bar)
    fit_units(bar)
    bar.attemptMove(QgsLayoutPoint(x, y, MM))
    numeric = QgsLayoutItemScaleBar(layout)
    numeric.setStyle("Numeric")
    numeric.setLinkedMap(main)
    set_font(numeric, font(9))
    layout.addLayoutItem(numeric)
    numeric.attemptMove(QgsLayoutPoint(x + SEGMENTS * SEGMENT_MM[1] + 16, y + 3.5, MM))
    numeric.update()
    return bar, numeric


def fit_units(bar: QgsLayoutItemScaleBar) -> None:
    """Kilometres for a wide map, metres for a narrow one, refitted to the linked map's scale now."""
    main = bar.linkedMap()
    km = main is not None and _width_m(main) > KM_FROM_M
    bar.setUnits(QgsUnitTypes.DistanceKilometers if km else QgsUnitTypes.DistanceMeters)
    bar.setUnitLabel("km" if km else "m")
    bar.setMapUnitsPerScaleBarUnit(1.0)  # QGIS converts the map's units to the bar's itself
    bar.setSegmentSizeMode(QgsScaleBarSettings.SegmentSizeFitWidth)  # QGIS recomputes the segment
    bar.refreshItemSize()
    bar.update()


def scale_bar_words(bar: QgsLayoutItemScaleBar) -> str:
    unit = "km" if bar.units() == QgsUnitTypes.DistanceKilometers else "m"
    return f"{bar.numberOfSegments()} × {bar.unitsPerSegment():g} {unit}"


def _north_arrow(layout: QgsPrintLayout, main: QgsLayoutItemMap, at: tuple[float, float]) -> Any:
    path = next((str(Path(folder) / NORTH_ARROW) for folder in QgsApplication.svgPaths()
                 if (Path(folder) / NORTH_ARROW).exists()), None)
    if path is None:
        return None
    arrow = QgsLayoutItemPicture(layout)
    arrow.setPicturePath(path)
    arrow.setLinkedMap(main)
    layout.addLayoutItem(arrow)
    place(arrow, at[0], at[1], 14, 16)
    return arrow
