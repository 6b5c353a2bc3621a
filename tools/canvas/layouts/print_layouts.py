"""Print layouts made by chat, as real QGIS objects the analyst edits in the Layout Manager.

make_print_layout composes a page: title and subtitle, the map at a rounded scale with outlines over the
imagery, a legend of the layers shown (each named once, with its unit and rounded labels), a scale bar that
fits, a north arrow, an overview inset with context when the area is small, the CRS, and credits built from the
STAC metadata of what is shown. A raster still in QGIS's default grey gets a style for what it measures. Asking
again with the same name changes that layout, not a copy; a layout of that name the analyst made is replaced
only after asking, and undo brings it back. make_atlas makes one such page per feature, each with its own
scale, scale bar and outline. export_print_layout writes PDF, PNG or SVG into the plugin's output folder only,
never over an existing file (export.py).
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
    QgsMapLayer,
    QgsRectangle,
    QgsVectorLayer,
)

from ....agent.safety import Assessment
from ...analysis.expressions import template_text
from ...common import WRITE, ToolInputError, check_bbox, ok, policy
from ...declare import assesses, deps_of, tool
from ...deps import ToolDeps
from ..project_access import canvas_of, find_layer, history_of, project_of
from . import atlas as atlases
from .atlas_stats import page_geometries, page_statistics, statistics_expression
from .credits import add_collection_info, catalog_for, credits_text, stac_sources
from .export import export_assessment, export_layout
from .locator import context_layers
from .owned import fresh_layout, layout_name, replacement
from .page import compose
from .page_looks import outline_overrides, page_order, styled_for_page

log = logging.getLogger(__name__)

PAGE_SIZES = ("A4", "A3", "A5", "Letter", "Legal")


@tool(annotations=WRITE, meta=policy(requires=["qgis"], undoable=True))
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
    shown = page_order(_layers_to_show(deps, layers))
    extent = _extent_of(deps, bbox)
    credits = await _credits(deps, shown)
    units, restyled = await styled_for_page(deps, shown)
    layout, replaced = fresh_layout(project, layout_name({"name": name, "title": title}, "Map"), history_of(deps))
    try:
        report, page = compose(layout, title=title, subtitle=subtitle, layers=shown, extent=extent,
                               crs=project.crs(), page_size=page_size, orientation=orientation, credits=credits,
                               context_layers=_context(deps), legend_units=units, styles=outline_overrides(shown))
    finally:
        history_of(deps).layout_changed()
    what = "changed" if replaced else "created"
    return ok({"layout": layout.name(), "replaced": replaced, "restyled": restyled, **report},
              f"Layout '{layout.name()}' {what}: {page_size} {orientation}, map at 1:{report['scale']:,}, "
              f"{len(shown)} layer(s) in the legend; every item inside the page"
              + (f" ({report['fitted']})" if report["fitted"] else "")
              + (f"; styled for the page: {'; '.join(restyled)}" if restyled else "")
              + ". Open it in Project ▸ Layouts.")


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

    async def progress(done: int, total: int) -> None:
        await ctx.report_progress(done, total, f"page {done} of {total}")
    return await export_layout(deps, _layout_named(deps, name), format, dpi, file_name, progress)


@tool(annotations=WRITE, meta=policy(requires=["vector_layer"], undoable=True))
async def make_atlas(
    ctx: Context,
    layer: Annotated[str, Field(description="Polygon or point layer: one page per feature (e.g. parcels)")],
    title: Annotated[str, Field(description="Title printed on every page")],
    fields: Annotated[list[str] | None, Field(
        description="Fields printed under each page's title, e.g. statistics written to the layer; "
                    "default: its name and numeric fields that are not ids")] = None,
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
    shown = page_order([coverage, *[lyr for lyr in shown if lyr is not coverage]])
    extent = QgsCoordinateTransform(coverage.crs(), project.crs(), project).transformBoundingBox(coverage.extent())
    line = atlases.feature_line(coverage, fields)
    statistics: dict[int, dict] = {}
    if statistics_of:
        raster = find_layer(project, statistics_of)
        statistics = await page_statistics(deps, statistics_of, page_geometries(project, coverage, ids))
        line = f"{line}\n{template_text(raster.name().split(' — ')[0] + ': ')}{statistics_expression(statistics)}"
    credits = await _credits(deps, shown)
    units, restyled = await styled_for_page(deps, shown)
    layout, replaced = fresh_layout(project, layout_name({"name": name, "title": title}, "Atlas"), history_of(deps))
    try:
        pages = atlases.set_coverage(layout, coverage, ids)
        report, page = compose(layout, title=title, subtitle=None, layers=shown, extent=extent, crs=project.crs(),
                               page_size=page_size, orientation=orientation, credits=credits, feature_line=line,
                               page_texts=atlases.page_texts(layout), context_layers=_context(deps),
                               legend_units=units, styles=outline_overrides(shown, coverage))
        atlases.drive_map(layout, page.main)
    finally:
        history_of(deps).layout_changed()
    per_page = [{"feature_id": fid, **values} for fid, values in sorted(statistics.items())]
    return ok({"layout": layout.name(), "replaced": replaced, "pages": pages, "page_statistics": per_page,
               "restyled": restyled, **report},
              f"Atlas '{layout.name()}': {pages} page(s), one per feature of '{coverage.name()}'"
              f"{' (selected)' if ids else ''}" + (f", each with its mean of '{statistics_of}'" if statistics_of
                                                   else "") + ". Export it with export_print_layout.")


@assesses("make_print_layout", "make_atlas")
async def assess_layout(deps: ToolDeps, arguments: dict[str, Any]) -> Assessment:
    # on the plugin's loop, like the tools: the project's layouts are read on the GUI thread
    default = "Atlas" if "layer" in arguments else "Map"
    return replacement(project_of(deps), layout_name(arguments, default))


@assesses("export_print_layout")
async def assess_export(deps: ToolDeps, arguments: dict[str, Any]) -> Assessment:
    layout = project_of(deps).layoutManager().layoutByName(str(arguments.get("name") or ""))
    if layout is None:
        return Assessment(False)  # the tool answers with the layouts there are
    return export_assessment(layout, str(arguments.get("format") or "pdf"), int(arguments.get("dpi") or 300))

# -- what goes on the page ---------------------------------------------------------------------


def _layout_named(deps: ToolDeps, name: str) -> Any:
    layout = project_of(deps).layoutManager().layoutByName(name)
    if layout is None:
        names = ", ".join(lyt.name() for lyt in project_of(deps).layoutManager().printLayouts()) or "none"
        raise ToolInputError(f"No print layout named '{name}'. Layouts in the project: {names}.")
    return layout


def _layers_to_show(deps: ToolDeps, names: list[str] | None) -> list[QgsMapLayer]:
    project = project_of(deps)
    root = project.layerTreeRoot()
    if names:  # drawn in the project's order
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


def _context(deps: ToolDeps) -> list[QgsMapLayer]:
    """The overview inset's context layers (regions, countries), added once to the project and kept for undo."""
    history = history_of(deps)

    def added(group: Any, layers: list[QgsMapLayer]) -> None:
        if group is not None:
            history.group_added(group)
        for layer in layers:
            history.layer_added(layer)
    return context_layers(project_of(deps), added)


async def _credits(deps: ToolDeps, layers: list[QgsMapLayer]) -> str:
    """Credits from the layers' STAC metadata and their collections' providers and licence."""
    sources = stac_sources(layers)
    for credit in sources.values():
        catalog = catalog_for(deps, credit.href)
        if catalog is None:
            continue
        try:
            add_collection_info(credit, await catalog.collection(credit.collection))
        except Exception as exc:  # credits without providers rather than no layout
            log.info("no collection metadata for %s: %s", credit.collection, exc)
    others = [lyr for lyr in layers if not any(link.type == "STAC item" for link in lyr.metadata().links())]
    return credits_text(sources, others)
