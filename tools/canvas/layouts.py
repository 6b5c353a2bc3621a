"""Print layouts made by chat, as real QGIS objects the analyst edits in the Layout Manager.

make_print_layout composes a page: title and subtitle, the map at a rounded scale, a legend of the
layers shown (band names as the layers give them, an index's formula), a scale bar in sensible
units, a north arrow, an overview inset when the area is small, the CRS, and credits built from the
STAC metadata of what is shown. Asking again with the same name changes that layout, not a copy.
Every item is kept inside the page: the legend gets more columns or a smaller font until it fits,
and the answer says so. export_print_layout writes PDF, PNG or SVG into the plugin's output
folder only, never over an existing file.
"""

from __future__ import annotations

import logging
import math
from pathlib import Path
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult
from pydantic import Field
from qgis.core import (
    QgsApplication,
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
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
    QgsVectorLayer,
)
from qgis.PyQt.QtGui import QFont

from ..common import WRITE, ToolInputError, check_bbox, ok, policy
from ..deps import ToolDeps
from .atlas_stats import page_geometries, page_statistics, statistics_expression
from .layout_credits import add_collection_info, credits_text, stac_sources
from .layout_export import export, new_output_path, thumbnail_of
from .project_access import canvas_of, find_layer, project_of

log = logging.getLogger(__name__)

MM = QgsUnitTypes.LayoutMillimeters
MARGIN = 10.0
PANEL = 72.0  # the side panel of a landscape page (legend, north arrow, overview)
GAP = 5.0  # between the map and the panel
SMALL_AREA_M = 50_000  # a map narrower than this gets an overview inset
NORTH_ARROW = "arrows/NorthArrow_02.svg"
PAGE_SIZES = ("A4", "A3", "A5", "Letter", "Legal")


def register(server: MCPServer, deps: ToolDeps) -> None:
    @server.tool(annotations=WRITE, meta=policy(requires=["qgis"]))
    async def make_print_layout(
        title: Annotated[str, Field(description="Title printed on the page")],
        subtitle: Annotated[str | None, Field(description="Second line under the title")] = None,
        layers: Annotated[list[str] | None, Field(
            description="Layer names to show; default: the layers visible on the map")] = None,
        bbox: Annotated[list[float] | None, Field(
            description="[west, south, east, north] in degrees; default: the current map view")] = None,
        page_size: Annotated[Literal[PAGE_SIZES], Field(description="Paper size")] = "A4",
        orientation: Annotated[Literal["landscape", "portrait"], Field(description="Page orientation")] = "landscape",
        name: Annotated[str | None, Field(
            description="Layout name in QGIS's Layout Manager; default: the title. The same name changes that layout")] = None,
    ) -> CallToolResult:
        """Compose a printable page (print layout) for a report or a client: title, legend, scale bar, north arrow, data credits; editable in QGIS's Layout Manager. E.g. 'make a printable page for the client'."""
        project = project_of(deps)
        shown = _layers_to_show(deps, layers)
        extent = _extent_of(deps, bbox)
        credits = await _credits(deps, shown)
        layout_name = " ".join((name or title).split())[:120] or "Map"
        layout, replaced = _fresh_layout(project, layout_name)
        report = compose(layout, title=title, subtitle=subtitle, layers=shown, extent=extent,
                         crs=project.crs(), page_size=page_size, orientation=orientation, credits=credits)
        what = "changed" if replaced else "created"
        return ok({"layout": layout_name, "replaced": replaced, **report},
                  f"Layout '{layout_name}' {what}: {page_size} {orientation}, map at 1:{report['scale']:,}, "
                  f"{len(shown)} layer(s) in the legend; every item inside the page"
                  + (f" ({report['fitted']})" if report["fitted"] else "") + ". Open it in Project ▸ Layouts.")

    @server.tool(annotations=WRITE, meta=policy(requires=["qgis"]))
    async def export_print_layout(
        name: Annotated[str, Field(description="Layout name from make_print_layout")],
        format: Annotated[Literal["pdf", "png", "svg"], Field(description="File format")] = "pdf",
        dpi: Annotated[int, Field(ge=72, le=600, description="Resolution")] = 300,
        file_name: Annotated[str | None, Field(
            description="File name without folder; written into the plugin's output folder")] = None,
    ) -> CallToolResult:
        """Export a print layout to a PDF, PNG or SVG file in the plugin's output folder (never over an existing file). E.g. 'export the layout as PDF'."""
        layout = project_of(deps).layoutManager().layoutByName(name)
        if layout is None:
            names = ", ".join(lyt.name() for lyt in project_of(deps).layoutManager().printLayouts()) or "none"
            raise ToolInputError(f"No print layout named '{name}'. Layouts in the project: {names}.")
        target = new_output_path(deps.output_dir(), file_name or name, "." + format)
        await export(layout, target, format, dpi)
        thumbnail = thumbnail_of(layout, new_output_path(deps.output_dir(), f"{target.stem} page 1", ".png"))
        return ok({"layout": name, "path": str(target), "format": format, "dpi": dpi,
                   "bytes": target.stat().st_size, "thumbnail_file": str(thumbnail)},
                  f"Exported '{name}' to {target} ({format.upper()}, {dpi} dpi).")


    @server.tool(annotations=WRITE, meta=policy(requires=["vector_layer"]))
    async def make_atlas(
        layer: Annotated[str, Field(description="Polygon or point layer: one page per feature (e.g. parcels)")],
        title: Annotated[str, Field(description="Title printed on every page")],
        fields: Annotated[list[str] | None, Field(
            description="Fields printed under each page's title, e.g. statistics written to the layer; "
                        "default: its numeric fields")] = None,
        selected_only: Annotated[bool, Field(description="Only the selected features")] = False,
        page_size: Annotated[Literal[PAGE_SIZES], Field(description="Paper size")] = "A4",
        orientation: Annotated[Literal["landscape", "portrait"], Field(description="Page orientation")] = "landscape",
        name: Annotated[str | None, Field(description="Layout name; default: the title")] = None,
        statistics_of: Annotated[str | None, Field(
            description="A raster layer (e.g. the NDVI just computed): each page prints its mean, min and max "
                        "inside that page's feature")] = None,
    ) -> CallToolResult:
        """Make an atlas: one map page per feature of a layer (e.g. per parcel), each zoomed to its feature with that feature's own numbers under the title; export it with export_print_layout. E.g. 'one page per selected parcel with its NDVI'."""
        project = project_of(deps)
        coverage = find_layer(project, layer, QgsVectorLayer)
        ids = sorted(coverage.selectedFeatureIds()) if selected_only else []
        if selected_only and not ids:
            raise ToolInputError(f"No feature of '{coverage.name()}' is selected; select some or set selected_only false.")
        shown = _layers_to_show(deps, None) if any(
            n.isVisible() for n in project.layerTreeRoot().findLayers()) else [coverage]
        if coverage not in shown:
            shown = [coverage, *shown]
        extent = QgsCoordinateTransform(coverage.crs(), project.crs(), project).transformBoundingBox(coverage.extent())
        line = feature_line(coverage, fields)
        statistics: dict[int, dict] = {}
        if statistics_of:
            raster = find_layer(project, statistics_of)
            statistics = await page_statistics(deps, statistics_of, page_geometries(project, coverage, ids))
            line = f"{line} — {plain(raster.name().split(' — ')[0])}: {statistics_expression(statistics)}"
        layout_name = " ".join((name or title).split())[:120] or "Atlas"
        layout, replaced = _fresh_layout(project, layout_name)
        report = compose(layout, title=title, subtitle=None, layers=shown, extent=extent, crs=project.crs(),
                         page_size=page_size, orientation=orientation, credits=await _credits(deps, shown),
                         feature_line=line)
        pages = _enable_atlas(layout, coverage, ids)
        per_page = [{"feature_id": fid, **values} for fid, values in sorted(statistics.items())]
        return ok({"layout": layout_name, "replaced": replaced, "pages": pages, "page_statistics": per_page,
                   **report},
                  f"Atlas '{layout_name}': {pages} page(s), one per feature of '{coverage.name()}'"
                  f"{' (selected)' if ids else ''}" + (f", each with its mean of '{statistics_of}'" if statistics_of
                                                       else "") + ". Export it with export_print_layout.")

# -- what goes on the page ---------------------------------------------------------------------

def _layers_to_show(deps: ToolDeps, names: list[str] | None) -> list[QgsMapLayer]:
    project = project_of(deps)
    root = project.layerTreeRoot()
    if names:  # drawn in the project's order (the parcels' outlines over the index as on the canvas)
        named = list(dict.fromkeys(find_layer(project, n) for n in names))
        order = [node.layer() for node in root.findLayers()]
        return sorted(named, key=lambda lyr: order.index(lyr) if lyr in order else len(order))
    shown = [node.layer() for node in root.findLayers() if node.isVisible() and node.layer() is not None]
    if not shown:
        raise ToolInputError("No layer is visible on the map; load or show a layer first, or name the layers.")
    return shown


def _extent_of(deps: ToolDeps, bbox: list[float] | None) -> QgsRectangle:
    project = project_of(deps)
    if bbox is None:
        return QgsRectangle(canvas_of(deps).extent())
    west, south, east, north = check_bbox(bbox)
    to_project = QgsCoordinateTransform(QgsCoordinateReferenceSystem("EPSG:4326"), project.crs(), project)
    return to_project.transformBoundingBox(QgsRectangle(west, south, east, north))


async def _credits(deps: ToolDeps, layers: list[QgsMapLayer]) -> str:
    """Credits from the layers' STAC metadata and their collections' providers and licence."""
    sources = stac_sources(layers)
    for credit in sources.values():
        catalog = next((c for c in deps.catalogs.all() if credit.catalog_url and
                        str(c.config.url).rstrip("/") in credit.catalog_url), None)
        if catalog is None:
            continue
        try:
            add_collection_info(credit, await catalog.collection(credit.collection))
        except Exception as exc:  # credits without providers rather than no layout
            log.info("no collection metadata for %s: %s", credit.collection, exc)
    others = [lyr for lyr in layers if not any(link.type == "STAC item" for link in lyr.metadata().links())]
    return credits_text(sources, others)


def _fresh_layout(project: Any, name: str) -> tuple[QgsPrintLayout, bool]:
    """The project's layout of that name emptied (the same object, so an open designer follows), or a new one."""
    manager = project.layoutManager()
    layout = manager.layoutByName(name)
    if layout is not None:
        layout.atlas().setEnabled(False)  # make_atlas turns it on again for an atlas
        for item in list(layout.items()):
            if isinstance(item, QgsLayoutItemPage) or not hasattr(item, "uuid"):
                continue
            layout.removeLayoutItem(item)
        return layout, True
    layout = QgsPrintLayout(project)
    layout.initializeDefaults()
    layout.setName(name)
    manager.addLayout(layout)
    return layout, False


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


def feature_line(layer: Any, fields: list[str] | None) -> str:
    """The atlas line "name — ndvi_mean: 0.412 · area_ha: 3.1" for the page's feature, as a label text
    whose expressions are built here from quoted field names (QgsExpression.quotedColumnRef): the
    layer's names and values are data, never code."""
    from qgis.core import QgsExpression

    names = [f.name() for f in layer.fields()]
    chosen = fields or [f.name() for f in layer.fields() if f.isNumeric()][:4]
    unknown = [f for f in chosen if f not in names]
    if unknown:
        raise ToolInputError(f"'{layer.name()}' has no field(s) {', '.join(unknown)}; its fields: {', '.join(names)}")
    label_field = next((f.name() for f in layer.fields() if f.name().lower() in ("name", "nom", "label", "id")), None)
    parts = [f"[% {QgsExpression.quotedColumnRef(label_field)} %]"] if label_field else []
    values = [f"{plain(f)}: [% format_number({QgsExpression.quotedColumnRef(f)}, 3) %]"
              if layer.fields().field(f).isNumeric() else f"{plain(f)}: [% {QgsExpression.quotedColumnRef(f)} %]"
              for f in chosen]
    if values:
        parts.append(" · ".join(values))
    return " — ".join(parts) or "Feature [% @atlas_featurenumber %] of [% @atlas_totalfeatures %]"


def _enable_atlas(layout: QgsPrintLayout, coverage: Any, ids: list[int]) -> int:
    atlas = layout.atlas()
    atlas.setCoverageLayer(coverage)
    atlas.setEnabled(True)
    atlas.setFilterFeatures(bool(ids))
    if ids:  # integers only: the filter is no text from anyone
        atlas.setFilterExpression(f"$id IN ({', '.join(str(int(i)) for i in ids)})")
    main = max((i for i in layout.items() if isinstance(i, QgsLayoutItemMap)), key=lambda m: m.rect().width())
    main.setAtlasDriven(True)
    main.setAtlasScalingMode(QgsLayoutItemMap.Auto)
    main.setAtlasMargin(0.15)
    atlas.updateFeatures()
    return atlas.count()


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
