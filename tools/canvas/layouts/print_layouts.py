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
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsLayoutItemMap,
    QgsLayoutItemPage,
    QgsMapLayer,
    QgsPrintLayout,
    QgsRectangle,
    QgsVectorLayer,
)

from ...common import WRITE, ToolInputError, check_bbox, ok, policy
from ...declare import deps_of, tool
from ...deps import ToolDeps
from ..project_access import canvas_of, find_layer, project_of
from .atlas_stats import page_geometries, page_statistics, statistics_expression
from .credits import add_collection_info, credits_text, stac_sources
from .export import export, new_output_path, thumbnail_of
from .page import compose, plain

log = logging.getLogger(__name__)

PAGE_SIZES = ("A4", "A3", "A5", "Letter", "Legal")


@tool(annotations=WRITE, meta=policy(requires=["qgis"]))
async def make_print_layout(
    ctx: Context,
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
    deps = deps_of(ctx)
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


@tool(annotations=WRITE, meta=policy(requires=["qgis"]))
async def export_print_layout(
    ctx: Context,
    name: Annotated[str, Field(description="Layout name from make_print_layout")],
    format: Annotated[Literal["pdf", "png", "svg"], Field(description="File format")] = "pdf",
    dpi: Annotated[int, Field(ge=72, le=600, description="Resolution")] = 300,
    file_name: Annotated[str | None, Field(
        description="File name without folder; written into the plugin's output folder")] = None,
) -> CallToolResult:
    """Export a print layout to a PDF, PNG or SVG file in the plugin's output folder (never over an existing file). E.g. 'export the layout as PDF'."""
    deps = deps_of(ctx)
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


@tool(annotations=WRITE, meta=policy(requires=["vector_layer"]))
async def make_atlas(
    ctx: Context,
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
    deps = deps_of(ctx)
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
