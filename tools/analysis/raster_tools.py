"""Raster tools on project layers and STAC assets by href, read in place (never downloaded)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from ..common import READ, ToolInputError, check_bbox, ok, policy
from ..declare import deps_of, tool
from ..engine import raster_reads
from ..engine.gdal_env import OVERVIEW_PIXELS
from ..engine.gdal_scope import gdal_exceptions
from ..stac.search import ItemSearch
from ..stac.timeutil import normalise_interval
from .raster_inputs import resolve_raster

TIMESERIES_CONCURRENCY = 4
MAX_TIMESERIES_ITEMS = 100

Source = Annotated[str, Field(description="A raster layer name in the project, or an asset href (https://, s3://) from get_item")]
Crs = Annotated[str, Field(description="CRS of the coordinates given, e.g. 'EPSG:4326' (default) or 'EPSG:32631'")]
Band = Annotated[int, Field(ge=1, description="Band number, from 1")]


async def run_gdal(func: Any, options: dict[str, str], *args: Any) -> Any:
    def call() -> Any:
        with raster_reads.gdal_options(options), gdal_exceptions():
            return func(*args)

    return await asyncio.to_thread(call)


@tool(annotations=READ, meta=policy())
async def get_raster_info(ctx: Context, source: Source) -> CallToolResult:
    """Describe a raster layer or file without reading its pixels: size, CRS, resolution (pixel size), lon/lat extent, bands (name, dtype, nodata, scale/offset), overviews. E.g. 'what is the resolution of the DEM?'"""
    deps = deps_of(ctx)
    path, options = resolve_raster(deps, source)
    info = await run_gdal(raster_reads.raster_info, options, path)
    return ok(info, f"{info['width']}×{info['height']} raster in {info['crs']}, {len(info['bands'])} band(s), "
                    f"{len(info['overviews'])} overview(s)")


@tool(annotations=READ, meta=policy())
async def get_raster_statistics(
    ctx: Context,
    source: Source, band: Band = 1,
    bbox: Annotated[list[float] | None, Field(description="[minx, miny, maxx, maxy] in `crs`; default the whole raster")] = None,
    polygon: Annotated[dict | None, Field(description="A GeoJSON Polygon in `crs`, instead of bbox")] = None,
    crs: Crs = "EPSG:4326",
    exact: Annotated[bool, Field(description="Read full resolution (slow, exact). Default reads a small overview: mean within about 1% on smooth data, min/max pulled toward the mean")] = False,
    percentiles: Annotated[list[float] | None, Field(description="Percentiles to compute, default [2, 25, 50, 75, 98]")] = None,
) -> CallToolResult:
    """Min, max, mean (average), std, percentiles and valid-pixel count of one raster band (elevation, NDVI, reflectance) over a bbox or polygon, in physical units (scale/offset applied, nodata excluded); reports the resolution it read. E.g. 'highest elevation in view', 'mean NDVI of the map extent'."""
    deps = deps_of(ctx)
    if bbox is not None:
        bbox = check_bbox(bbox, geographic=False)
    pct = percentiles or [2, 25, 50, 75, 98]
    if any(not 0 <= p <= 100 for p in pct):
        raise ToolInputError("percentiles must be between 0 and 100.")
    path, options = resolve_raster(deps, source)
    stats = await run_gdal(raster_reads.statistics, options, path, band, bbox, polygon, crs, exact,
                           OVERVIEW_PIXELS, pct)
    if stats["valid_pixels"] == 0:
        return ok(stats, "No valid pixels in the area (all nodata or outside the raster).")
    return ok(stats, f"Band {band}: mean {stats['mean']:.4g}, min {stats['min']:.4g}, max {stats['max']:.4g} "
                     f"over {stats['valid_pixels']} pixels at {stats['level']}")


@tool(annotations=READ, meta=policy())
async def query_raster_point(ctx: Context, source: Source, x: Annotated[float, Field(description="Longitude or x in `crs`")],
                             y: Annotated[float, Field(description="Latitude or y in `crs`")],
                             crs: Crs = "EPSG:4326") -> CallToolResult:
    """Value of a raster at one point (lon/lat): elevation or height of a DEM, NDVI, every band (physical units; null where nodata). E.g. 'what is the elevation at this location?'"""
    deps = deps_of(ctx)
    path, options = resolve_raster(deps, source)
    data = await run_gdal(raster_reads.point_values, options, path, x, y, crs)
    shown = ", ".join(f"{v['name']}={v['value']}" for v in data["values"][:8])
    return ok(data, f"At ({x}, {y}): {shown}")


@tool(annotations=READ, meta=policy())
async def query_multiple_rasters_point(
    ctx: Context,
    sources: Annotated[list[str], Field(min_length=1, max_length=20, description="Layer names or asset hrefs")],
    x: float, y: float, crs: Crs = "EPSG:4326",
) -> CallToolResult:
    """Values of several rasters at the same point, one entry per raster (errors reported per raster). E.g. 'NDVI of both dates and the elevation at this spot'."""
    deps = deps_of(ctx)
    resolved = [(s, *resolve_raster(deps, s)) for s in sources]
    gate = asyncio.Semaphore(TIMESERIES_CONCURRENCY)

    async def one(source: str, path: str, options: dict) -> dict:
        async with gate:
            try:
                return {"source": source, **await run_gdal(raster_reads.point_values, options, path, x, y, crs)}
            except ToolInputError as exc:
                return {"source": source, "error": str(exc)}

    rows = await asyncio.gather(*(one(*r) for r in resolved))
    failed = sum("error" in r for r in rows)
    return ok({"results": rows}, f"{len(rows) - failed} of {len(rows)} raster(s) read at ({x}, {y})")


@tool(annotations=READ, meta=policy())
async def get_timeseries(
    ctx: Context,
    collection: Annotated[str, Field(description="Collection id")],
    asset: Annotated[str, Field(description="Asset key holding the band, e.g. 'B04' or 'data'")],
    lon: float, lat: float,
    datetime: Annotated[str, Field(description="Interval, e.g. '2024-01-01/2024-12-31'")],
    band: Band = 1, catalog: str | None = None,
    max_items: Annotated[int, Field(ge=1, le=MAX_TIMESERIES_ITEMS)] = 50,
) -> CallToolResult:
    """Time series at one point: a collection's values (NDVI, a band) at a lon/lat across its scenes in a date range, oldest first. E.g. 'how did NDVI evolve over the season here?'"""
    deps = deps_of(ctx)
    cat = deps.catalogs.get(catalog)
    check_bbox([lon, lat, lon, lat])
    eps = 1e-6
    search = ItemSearch(collections=[collection], bbox=[lon - eps, lat - eps, lon + eps, lat + eps],
                        datetime=normalise_interval(datetime), limit=max_items,
                        sortby=[{"field": "datetime", "direction": "asc"}] if cat.kind == "static" else [])
    if cat.kind == "api":
        await cat.collection(collection)
    outcome = await cat.search(search)
    gate = asyncio.Semaphore(TIMESERIES_CONCURRENCY)

    async def one(item: dict) -> dict:
        props = item.get("properties") or {}
        when = props.get("datetime") or props.get("start_datetime")
        href = ((item.get("assets") or {}).get(asset) or {}).get("href")
        if not href:
            return {"datetime": when, "item_id": item.get("id"), "value": None,
                    "error": f"no asset '{asset}'; available: {', '.join(item.get('assets') or {})}"}
        path, options = resolve_raster(deps, href)
        async with gate:
            try:
                data = await run_gdal(raster_reads.point_values, options, path, lon, lat, "EPSG:4326")
            except ToolInputError as exc:
                return {"datetime": when, "item_id": item.get("id"), "value": None, "error": str(exc)}
        if band > len(data["values"]):
            return {"datetime": when, "item_id": item.get("id"), "value": None, "error": f"no band {band}"}
        return {"datetime": when, "item_id": item.get("id"), "value": data["values"][band - 1]["value"]}

    series = sorted(await asyncio.gather(*(one(i) for i in outcome.items)), key=lambda r: str(r["datetime"]))
    values = [r["value"] for r in series if r["value"] is not None]
    summary = (f"{len(values)} value(s) from {len(series)} item(s)"
               + (f", from {values[0]:.4g} to {values[-1]:.4g}" if values else ""))
    return ok({"collection": collection, "asset": asset, "band": band, "point": [lon, lat], "series": series,
               "more_available": outcome.more_available}, summary)
