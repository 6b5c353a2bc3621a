"""collection_statistics: how an asset or a spectral index evolved over an area through time, from every item
of a STAC search — per date (or week, month) mean, median, min, max, std, valid-pixel fraction and item
count, as a table, a chart PNG and a CSV. Progress goes out as MCP progress notifications."""

from __future__ import annotations

import asyncio
import contextlib
import csv
from pathlib import Path
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from ..common import WRITE, ToolInputError, check_bbox, ok, policy
from ..declare import deps_of, tool
from ..deps import ToolDeps
from ..engine import collection_plan as plan
from ..engine.date_stats import STAT_COLUMNS, PeriodAccumulator, period_of
from ..engine.gdal_env import OVERVIEW_PIXELS
from ..engine.provenance import analysis_record, mask_read
from ..engine.stats_runner import run_items
from ..engine.stats_worker import MASK_SAMPLES, Cancelled
from ..output_names import new_output_files
from ..stac.search import MAX_ITEMS, ItemSearch
from ..stac.timeutil import normalise_interval
from . import charts
from .selected_features import selected_geometry_lonlat, selected_sources


@tool(annotations=WRITE, meta=policy(heavy=True))
async def collection_statistics(
    collection: Annotated[str, Field(description="Collection id, e.g. 'sentinel-2-l2a'")],
    datetime: Annotated[str, Field(description="Date range, e.g. '2023-01-01/2023-12-31'")],
    index: Annotated[str | None, Field(
        description="Spectral index from band common names: NDVI, NDWI, NDMI, NBR, NDSI, NDBI, EVI, SAVI")] = None,
    asset: Annotated[str | None, Field(description="Asset key to summarise instead of an index")] = None,
    bbox: Annotated[list[float] | None, Field(description="[west, south, east, north] in degrees")] = None,
    polygon: Annotated[dict | None, Field(description="GeoJSON Polygon in lon/lat")] = None,
    use_selected_features: Annotated[bool, Field(description="The area is the features selected on the map")] = False,
    max_cloud_cover: Annotated[float | None, Field(ge=0, le=100, description="Skip items cloudier than this (%)")] = None,
    group_by: Annotated[Literal["date", "week", "month"], Field(description="One row per date, ISO week or month")] = "date",
    exact: Annotated[bool, Field(description="Full resolution instead of overviews (slower)")] = False,
    mask_clouds: Annotated[bool, Field(description="Exclude cloud/shadow classes of a classification asset (e.g. SCL)")] = True,
    catalog: Annotated[str | None, Field(description="Catalog name; default the first")] = None,
    ctx: Context = None,
) -> CallToolResult:
    """Statistics over time of an index (e.g. NDVI) or an asset over an area, from every item of a collection in a date range: per date/week/month mean, median, min, max, std, valid-pixel fraction, item count; returns a table, a chart and a CSV."""
    deps = deps_of(ctx)
    if bool(index) == bool(asset):
        raise ToolInputError("Give exactly one of index (e.g. 'NDVI') or asset (an asset key).")
    index = index.strip().upper() if index else index  # 'ndvi' is NDVI
    ctx = RisingProgress(ctx) if ctx is not None else None
    await _say(ctx, f"searching '{collection}' for items over the area…")  # the search may take seconds
    area = await area_of(deps, bbox, polygon, use_selected_features)
    cat = deps.catalogs.get(catalog)
    collection_doc = await cat.collection(collection)
    items, cloud_note = await _search(deps, cat, collection, area, datetime, max_cloud_cover, collection_doc)
    if not items:
        raise ToolInputError(f"No item of '{collection}' meets the area in {datetime}"
                             + (f" with at most {max_cloud_cover}% cloud" if max_cloud_cover is not None else "")
                             + "; widen the dates or the area, or raise max_cloud_cover.")
    result = await compute(deps, items, collection_doc, area, index=index, asset=asset, group_by=group_by,
                           exact=exact, mask_clouds=mask_clouds, ctx=ctx, catalog=cat.name)
    if cloud_note:
        result["notes"].insert(0, cloud_note)
    what = index.upper() if index else asset
    chart, csv_path = new_output_files(deps.output_dir(), [what, collection], [".png", ".csv"])
    await asyncio.to_thread(_write_outputs, result["rows"], what, collection, chart, csv_path, group_by)
    result.update(collection=collection, datetime=datetime, measure=what, chart_file=str(chart),
                  csv_file=str(csv_path))
    result["provenance"] = analysis_record(
        "collection_statistics", {"collection": collection, "index": index, "asset": asset, "bbox": bbox,
                                  "polygon": polygon, "max_cloud_cover": max_cloud_cover, "group_by": group_by,
                                  "exact": exact, "mask_clouds": mask_clouds},
        catalog=cat.name, catalog_url=str(cat.config.url), collection=collection,
        datetime=normalise_interval(datetime), items=result["item_ids"],
        bands=result["bands"], mask=result["cloud_mask"], area=area,
        selected=selected_sources(deps.project()) if use_selected_features and deps.project() else None,
        resolution=result["resolution"], grid_crs=result["grid_crs"])
    rows = [r for r in result["rows"] if r["mean"] is not None]
    summary = (f"{what} over the area from {len(items)} item(s) of '{collection}': {len(result['rows'])} "
               f"{group_by} row(s), {len(rows)} with valid pixels; read at {result['resolution']}. "
               + " ".join(result["notes"]))
    return ok(result, summary)


async def compute(deps: ToolDeps, items: list[dict], collection_doc: dict, area: dict, *, index: str | None,
                  asset: str | None, group_by: str, exact: bool, mask_clouds: bool, ctx: Any = None,
                  max_pixels: int = OVERVIEW_PIXELS, catalog: str | None = None) -> dict[str, Any]:
    await _say(ctx, f"planning the reads of {len(items)} item(s)…")
    job = await plan.plan_job(deps, items, collection_doc, area, index=index, asset=asset, exact=exact,
                              mask_clouds=mask_clouds, max_pixels=max_pixels, catalog=catalog)
    tasks, bands, grid, mask, how = job.tasks, job.bands, job.grid, job.area, job.resolution
    by_date: dict[str, int] = {}
    for task in tasks:
        by_date[task.date] = by_date.get(task.date, 0) + 1
    pending: dict[str, list] = {}
    periods: dict[str, PeriodAccumulator] = {}
    bytes_read = 0
    reads = run_items(tasks, progress=ctx.report_progress if ctx is not None else None, scheduler=job.scheduler)
    try:
        # aclosing: a Stop that lands in this loop's own awaits (a date's mosaic) closes the reads before the call
        # ends; a generator left to the garbage collector kept its queued items starting files for seconds after
        async with contextlib.aclosing(reads):
            async for result in reads:
                bytes_read += result.bytes_read
                pending.setdefault(result.date, []).append(result)
                if len(pending[result.date]) == by_date[result.date]:  # the date is complete: mosaic it, free it
                    key = period_of(result.date, group_by)
                    accumulator = periods.setdefault(key, PeriodAccumulator(mask))
                    await asyncio.to_thread(accumulator.add_date, pending.pop(result.date))  # off the GUI thread
    except Cancelled:
        raise asyncio.CancelledError() from None
    except OSError as exc:
        raise ToolInputError(f"Reading the items failed: {exc}. Check that the catalog's assets are reachable.") \
            from None
    rows = await asyncio.to_thread(lambda: [periods[k].row(k) for k in sorted(periods)])
    notes = [f"Excluded: pixels outside the area ({int(mask.sum())} grid pixels inside), nodata"]
    if bands.mask is not None:
        notes[0] += f", and classes {list(bands.mask_classes)} (cloud, shadow…) of the '{bands.mask_asset}' asset"
    notes[0] += "."
    removed = sum(r["cloud_excluded_pixels"] for r in rows)
    if bands.mask is not None:
        notes.append(f"Clouds removed {removed:,} cell(s) with data (the cloudy share of each cell, from up to "
                     f"{MASK_SAMPLES} × {MASK_SAMPLES} mask samples per cell, a sample cloudy when any tile of its "
                     "date flags it, so one tile's 'clear' never overrides another's 'cloud'). A cell a cloud "
                     "touches gives no value; valid_pixels counts each cell's clear share (a cell half past a "
                     "swath's end or under a cloud's edge is half a valid pixel), which also weighs the statistics.")
    if job.note:
        notes.append(job.note)
    if group_by != "date":
        notes.append(f"Each {group_by} pools the valid pixels of its dates; valid_fraction counts area pixels "
                     "valid at least once.")
    return {"rows": rows, "columns": list(STAT_COLUMNS), "items": len(items), "dates": len(by_date),
            "item_ids": [t.item_id for t in tasks], "cloud_mask": mask_read(bands),
            "resolution": how, "grid_crs": plan.crs_name(grid.crs_wkt), "area_pixels": int(mask.sum()), "bands": bands.described, "formula": _formula(index),
            "bytes_read": bytes_read, "cloud_excluded_pixels": removed, "notes": notes}


class RisingProgress:
    """The call's context with progress values that only rise, as MCP requires of every notification: the
    notes before the reads and the reads' first line would all say 0, so each repeat is nudged up by 0.01."""

    def __init__(self, ctx: Any) -> None:
        self._ctx = ctx
        self._last: float | None = None

    async def report_progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        if self._last is not None and progress <= self._last:
            progress = self._last + 0.01
        self._last = progress
        await self._ctx.report_progress(progress, total, message)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ctx, name)


async def _say(ctx: Any, message: str) -> None:
    """A progress note before the reads start, so the analyst sees the call working from its first second."""
    if ctx is not None:
        await ctx.report_progress(0, None, message)


def _formula(index: str | None) -> str:
    from ..engine.index_bands import pick_index

    return pick_index(index).formula if index else ""


async def area_of(deps: ToolDeps, bbox: list[float] | None, polygon: dict | None, selected: bool) -> dict:
    if selected:
        project = deps.project()
        geometry = selected_geometry_lonlat(project) if project is not None else None
        if geometry is None:
            raise ToolInputError("No feature is selected on the map; select the area's feature(s), or give a bbox.")
        return geometry
    return plan.area_polygon(check_bbox(bbox), polygon)


async def _search(deps: ToolDeps, cat: Any, collection: str, area: dict, datetime: str,
                  max_cloud: float | None, collection_doc: dict) -> tuple[list[dict], str]:
    interval = normalise_interval(datetime)
    key = {"catalog": cat.name, "collection": collection, "area": area, "datetime": interval}
    items = plan.cached_items(key)
    notes = []
    if items is None:
        outcome = await cat.search(ItemSearch(collections=[collection], intersects=area, datetime=interval,
                                              limit=MAX_ITEMS))
        items = await asyncio.to_thread(plan.items_meeting, outcome.items, area)  # 1,000 footprints: a worker
        if outcome.more_available or (outcome.number_matched or 0) > len(outcome.items):
            notes.append(f"The search matched {outcome.number_matched or 'more than'} items; only the first "
                         f"{len(outcome.items)} were used. Split the period into shorter requests.")
        else:  # a truncated search is not cached: its note must be given every time
            plan.remember_items(key, items)
    if max_cloud is not None:
        if any("eo:cloud_cover" in (i.get("properties") or {}) for i in items):
            items = [i for i in items if float((i.get("properties") or {}).get("eo:cloud_cover", 0)) <= max_cloud]
            notes.append(f"Items with more than {max_cloud:g}% cloud cover were skipped.")
        else:
            notes.append(f"'{collection}' has no eo:cloud_cover; max_cloud_cover was not applied.")
    return items, " ".join(notes)


def _write_outputs(rows: list[dict], what: str, collection: str, chart: Path, csv_path: Path,
                   group_by: str = "date") -> None:
    with csv_path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(STAT_COLUMNS))
        writer.writeheader()
        for row in rows:
            writer.writerow({k: row.get(k) for k in STAT_COLUMNS})
    figure = charts.time_series_figure(f"{what} over the area — {collection}", [r["period"] for r in rows],
                                       {"mean": [r["mean"] for r in rows], "median": [r["median"] for r in rows]},
                                       group_by, what)
    figure.savefig(str(chart), format="png")
