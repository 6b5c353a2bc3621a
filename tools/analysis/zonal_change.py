"""Analytics tools: area-weighted zonal statistics, change between two periods, charts."""

from __future__ import annotations

import asyncio
from typing import Annotated

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from ..common import READ, WRITE, ToolInputError, check_bbox, ok, policy
from ..declare import deps_of, tool
from ..engine import change_grid, raster_reads
from ..engine.gdal_scope import gdal_exceptions
from ..output_names import new_output_file
from ..stac.search import ItemSearch
from ..stac.timeutil import normalise_interval
from .raster_inputs import resolve_raster
from .raster_tools import Band, Source, run_gdal
from .selected_features import selected_geometry_lonlat

MAX_ITEMS_PER_PERIOD = 20


@tool(annotations=READ, meta=policy(requires=["raster_layer"]))
async def compute_zonal_stats(
    ctx: Context,
    source: Source, band: Band = 1,
    polygon: Annotated[dict | None, Field(description="GeoJSON Polygon in `crs`; omit to use the selected map feature")] = None,
    crs: Annotated[str, Field(description="CRS of the polygon, default EPSG:4326")] = "EPSG:4326",
) -> CallToolResult:
    """Zonal statistics: a raster band's statistics (mean NDVI, elevation, slope) inside a polygon such as the selected parcel or field, each pixel weighted by its share inside; full resolution. E.g. 'mean NDVI of the selected parcel'."""
    deps = deps_of(ctx)
    if polygon is None:
        project = deps.project()
        polygon = selected_geometry_lonlat(project) if project is not None else None
        crs = "EPSG:4326"
        if polygon is None:
            raise ToolInputError("Give a polygon, or select a feature on the map first.")
    path, options = resolve_raster(deps, source)
    stats = await run_gdal(change_grid.zonal, options, path, band, polygon, crs)
    if stats.get("pixels_touched", 0) == 0:
        return ok(stats, "The polygon covers no valid pixel.")
    return ok(stats, f"Area-weighted mean {stats['weighted_mean']:.4g} over {stats['pixels_touched']} pixel(s)")


@tool(annotations=WRITE, meta=policy(heavy=True))
async def detect_change(
    ctx: Context,
    collection: str, asset: Annotated[str, Field(description="Asset key to compare, e.g. 'B04' or 'data'")],
    bbox: Annotated[list[float], Field(description="[west, south, east, north] in degrees")],
    period_a: Annotated[str, Field(description="First period, e.g. '2024-06-01/2024-06-10'")],
    period_b: Annotated[str, Field(description="Second period, e.g. '2024-07-01/2024-07-10'")],
    band: Band = 1, catalog: str | None = None,
) -> CallToolResult:
    """Change detection: compare two periods of a collection over an area (statistics of each period and of the difference B − A) and save the difference raster as a GeoTIFF that can be added to the map. E.g. 'compare NDVI between June and September'."""
    deps = deps_of(ctx)
    cat = deps.catalogs.get(catalog)
    bbox = check_bbox(bbox)
    paths = []
    for label, period in (("period_a", period_a), ("period_b", period_b)):
        search = ItemSearch(collections=[collection], bbox=bbox, datetime=normalise_interval(period),
                            limit=MAX_ITEMS_PER_PERIOD)
        items = (await cat.search(search)).items
        hrefs = [((i.get("assets") or {}).get(asset) or {}).get("href") for i in items]
        hrefs = [h for h in hrefs if h]
        if not hrefs:
            raise ToolInputError(f"No item of '{collection}' with asset '{asset}' in {label} ({period}) over "
                                 "the bbox; widen the dates or check the asset key with get_collection_info.")
        paths.append([resolve_raster(deps, h) for h in hrefs])
    options = paths[0][0][1]
    out_path = new_output_file(deps.output_dir(), ["change", collection], ".tif")

    def work() -> dict:
        with raster_reads.gdal_options(options), gdal_exceptions():
            return change_grid.change([p for p, _ in paths[0]], [p for p, _ in paths[1]], bbox, band, out_path)

    result = await asyncio.to_thread(work)
    diff = result["difference"]
    summary = (f"Mean change {diff.get('mean', float('nan')):.4g} (B − A) over {diff.get('valid_pixels', 0)} pixels; "
               f"difference raster: {out_path.name}")
    return ok({"collection": collection, "asset": asset, "items_a": len(paths[0]), "items_b": len(paths[1]),
               **result}, summary)
