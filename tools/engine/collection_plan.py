"""Plans a collection-wide read: the items of a search that meet the area, one grid for all of them, and one
read task per item. Item searches are cached for a few minutes (the same question asked twice, or per month
after per date, does not search again)."""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np
from osgeo import ogr, osr

from ..common import ToolInputError
from .cog_reader import open_many
from .gdal_env import MAX_EXACT_PIXELS, open_dataset
from .gdal_names import rules_for
from .grid_windows import Grid
from .gui_slices import in_slices
from .index_bands import ItemBands, PlanRead, needs_credentials, resolve_bands
from .stats_worker import ItemTask, gdal_config

SEARCH_TTL_S = 600
DENSIFY_DEGREES = 0.5  # lon/lat edges longer than this (~50 km) become curves in a projected grid: points follow them
_search_cache: dict[str, tuple[float, list[dict]]] = {}


def cached_items(key: dict) -> list[dict] | None:
    hit = _search_cache.get(json.dumps(key, sort_keys=True))
    return hit[1] if hit and time.monotonic() - hit[0] < SEARCH_TTL_S else None


def remember_items(key: dict, items: list[dict]) -> None:
    if len(_search_cache) > 32:
        _search_cache.clear()
    _search_cache[json.dumps(key, sort_keys=True)] = (time.monotonic(), items)


def forget_searches() -> None:
    """Drops the cached searches: a new session (the plugin reloaded, the settings saved) asks the catalogs again."""
    _search_cache.clear()


def area_polygon(bbox: list[float] | None, polygon: dict | None) -> dict:
    if polygon is not None:
        return polygon.get("geometry", polygon)
    if bbox is None:
        raise ToolInputError("Give the area: a bbox, a GeoJSON polygon, or use_selected_features=true.")
    w, s, e, n = bbox
    return {"type": "Polygon", "coordinates": [[[w, s], [e, s], [e, n], [w, n], [w, s]]]}


def _geometry(geojson: dict) -> ogr.Geometry:
    geom = ogr.CreateGeometryFromJson(json.dumps(geojson)) if geojson else None
    if geom is None or geom.IsEmpty():
        raise ToolInputError("The area must be a GeoJSON Polygon or MultiPolygon in lon/lat.")
    return geom


def items_meeting(items: list[dict], area: dict) -> list[dict]:
    """Early exit: items whose footprint misses the area are never opened."""
    geom = _geometry(area)
    kept = []
    for item in items:
        footprint = item.get("geometry")
        if footprint is None or _geometry(footprint).Intersects(geom):
            kept.append(item)
    return kept


def _item_box(item: dict) -> ogr.Geometry | None:
    """The item's lon/lat bbox (its footprint's envelope when it has none): a superset of its pixels."""
    box = item.get("bbox")
    if not (isinstance(box, (list, tuple)) and len(box) in (4, 6)):
        footprint = item.get("geometry")
        if not footprint:
            return None
        west, east, south, north = _geometry(footprint).GetEnvelope()
    elif len(box) == 6:
        west, south, _, east, north, _ = box
    else:
        west, south, east, north = box
    return ogr.CreateGeometryFromWkt(f"POLYGON(({west} {south},{east} {south},{east} {north},{west} {north},"
                                     f"{west} {south}))")


def _equal_area(geom: ogr.Geometry) -> float:
    """Area on the ground (m², World Cylindrical Equal Area), for comparing shares of one area."""
    projected = geom.Clone()
    projected.Segmentize(DENSIFY_DEGREES)
    projected.AssignSpatialReference(lonlat_srs())
    world = osr.SpatialReference()
    world.ImportFromEPSG(6933)
    world.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    projected.TransformTo(world)
    return projected.GetArea()


def clip_to_items(area: dict, items: list[dict]) -> tuple[dict, str]:
    """The part of the area any item can cover (the union of their bboxes), and a note when that drops a
    noticeable share. A whole-world bbox has no image in a UTM grid (it collapsed to a one-pixel-wide strip,
    answering '0 with valid pixels'); the items' part of it has, and no valid pixel lies outside it."""
    boxes = [_item_box(i) for i in items]
    if not boxes or any(b is None for b in boxes):
        return area, ""
    union = boxes[0]
    for box in boxes[1:]:
        union = union.Union(box)
    geom = _geometry(area)
    clipped = geom.Intersection(union)
    if clipped is None or clipped.IsEmpty() or clipped.GetArea() <= 0:
        return area, ""
    if clipped.GetArea() >= geom.GetArea() * (1 - 1e-9):
        return area, ""
    share = _equal_area(clipped) / (_equal_area(geom) or 1.0)
    result = json.loads(clipped.ExportToJson())
    if share > 0.99:
        return result, ""
    return result, (f"Only {100 * share:.3g} % of the area lies in the items' extent; the statistics cover that "
                    "part (valid_fraction and area_pixels are of it).")


def lonlat_srs() -> osr.SpatialReference:
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    return srs


def _crs_code(item: dict) -> str:
    props = item.get("properties") if isinstance(item.get("properties"), dict) else {}
    return str(props.get("proj:epsg") or props.get("proj:code") or "")


def probe_item(items: list[dict]) -> dict:
    """An item in the CRS most items are in: its file gives the grid's native resolution and alignment."""
    codes = Counter(_crs_code(i) for i in items)
    code, _ = codes.most_common(1)[0]
    return next(i for i in items if _crs_code(i) == code)


def grid_crs(items: list[dict], first_dataset_wkt: str) -> str:
    """The CRS most items are in (proj:epsg / proj:code), else the probed item's file's."""
    codes = Counter(_crs_code(i) for i in items)
    code, _ = codes.most_common(1)[0] if codes else ("", 0)
    if code:
        srs = osr.SpatialReference()
        try:
            if srs.SetFromUserInput(code if ":" in code else f"EPSG:{code}") == 0:
                return srs.ExportToWkt()
        except RuntimeError:
            pass
    return first_dataset_wkt


def plan_grid(area: dict, crs_wkt: str, native_resolution: float, *, exact: bool, max_pixels: int,
              origin: tuple[float, float] | None = None) -> tuple[Grid, np.ndarray, str]:
    """The grid over the area (north-up, in `crs_wkt`), the area mask on it, and how the resolution was chosen.
    With `origin` (a corner of the files' own pixel grid) the grid's pixels line up with the files' pixels."""
    geom = _geometry(area)
    dst = osr.SpatialReference(wkt=crs_wkt)
    dst.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    geom.AssignSpatialReference(lonlat_srs())
    if not dst.IsGeographic() or not dst.IsSame(lonlat_srs()):
        geom.Segmentize(DENSIFY_DEGREES)
        if geom.TransformTo(dst) != 0:
            raise ToolInputError("The area cannot be drawn in the items' CRS (it reaches too far from their zone); "
                                 "give a smaller area around the data.")
    minx, maxx, miny, maxy = geom.GetEnvelope()
    if not all(math.isfinite(v) for v in (minx, maxx, miny, maxy)):
        raise ToolInputError("The area cannot be drawn in the items' CRS (it reaches too far from their zone); "
                             "give a smaller area around the data.")
    width_m, height_m = maxx - minx, maxy - miny
    native_pixels = (width_m / native_resolution) * (height_m / native_resolution)
    if exact:
        if native_pixels > MAX_EXACT_PIXELS:
            raise ToolInputError(f"Exact mode would read {native_pixels:,.0f} pixels per date, more than this "
                                 f"machine can afford ({MAX_EXACT_PIXELS:,}); use a smaller area or exact=false.")
        factor = 1
    else:
        factor = 1
        while native_pixels / factor**2 > max_pixels:
            factor *= 2
    res = native_resolution * factor
    if origin is not None:  # snap outwards onto the files' pixel grid: the same pixels, not resampled ones
        minx = origin[0] + math.floor((minx - origin[0]) / res + 1e-9) * res
        maxy = origin[1] + math.ceil((maxy - origin[1]) / res - 1e-9) * res
        width_m, height_m = maxx - minx, maxy - miny
    cols, rows = max(1, math.ceil(width_m / res - 1e-9)), max(1, math.ceil(height_m / res - 1e-9))
    grid = Grid(crs_wkt, (minx, maxy - rows * res, minx + cols * res, maxy), cols, rows)
    unit = "°" if dst.IsGeographic() else " m"
    how = (f"full resolution ({res:g}{unit} pixels)" if factor == 1 else
           f"overviews at {res:g}{unit} pixels ({factor}× coarser than the {native_resolution:g}{unit} native "
           f"resolution, chosen so the area is at most {max_pixels:,} pixels); pass exact=true for full resolution")
    return grid, area_mask(geom, grid), how


def area_mask(geom: ogr.Geometry, grid: Grid) -> np.ndarray:
    """Grid pixels whose centre is inside the area."""
    from osgeo import gdal

    mem = gdal.GetDriverByName("MEM").Create("", grid.width, grid.height, 1, gdal.GDT_Byte)
    mem.SetGeoTransform(grid.geotransform)
    mem.SetProjection(grid.crs_wkt)
    vds = ogr.GetDriverByName("Memory").CreateDataSource("area")
    layer = vds.CreateLayer("area", srs=osr.SpatialReference(wkt=grid.crs_wkt), geom_type=ogr.wkbMultiPolygon)
    feature = ogr.Feature(layer.GetLayerDefn())
    feature.SetGeometry(geom.Clone())
    layer.CreateFeature(feature)
    gdal.RasterizeLayer(mem, [1], layer, burn_values=[1])
    return mem.GetRasterBand(1).ReadAsArray().astype(bool)


def probe(path: str, options: dict[str, str]) -> tuple[str, float, tuple[float, float], int]:
    """(CRS WKT, pixel size, origin, bytes fetched) of one file: the grid's fallback CRS, native resolution and
    alignment (the COG reader's header read, or GDAL's open)."""
    with gdal_config(options):
        ds = open_many([path], None, options).get(path) or open_dataset(path)
        gt = ds.GetGeoTransform()
        return ds.GetProjection(), abs(gt[1]), (gt[0], gt[3]), getattr(ds, "fetched", 0)


def native_resolution_in(grid_wkt: str, file_wkt: str, file_resolution: float, lonlat_centre: tuple) -> float:
    """The file's pixel size expressed in the grid CRS's units, near the area's centre."""
    src, dst = osr.SpatialReference(wkt=file_wkt), osr.SpatialReference(wkt=grid_wkt)
    if src.IsSame(dst):
        return file_resolution
    for s in (src, dst):
        s.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    to_src = osr.CoordinateTransformation(lonlat_srs(), src)
    to_dst = osr.CoordinateTransformation(src, dst)
    x, y = to_src.TransformPoint(*lonlat_centre)[:2]
    a, b = to_dst.TransformPoint(x, y)[:2], to_dst.TransformPoint(x + file_resolution, y)[:2]
    return math.hypot(b[0] - a[0], b[1] - a[1])



def item_date(item: dict) -> str:
    props = item.get("properties") or {}
    return str(props.get("datetime") or props.get("start_datetime") or "")[:10]


async def build_tasks(items: list[dict], item_assets: dict | None, grid: Grid, *, index: str | None,
                      asset: str | None, plan: PlanRead, mask_clouds: bool) -> tuple[list[ItemTask], ItemBands, list]:
    """One read task per item, the first item's bands (for the answer), and every read's options. On the GUI
    thread (a read's plan may consult QGIS's auth database), in slices: 1,000 items took ~0.4 s at once."""
    tasks, first, reads = [], None, []
    async for item in in_slices(items):
        bands = resolve_bands(item, item_assets, index=index, asset=asset, plan=plan, mask_clouds=mask_clouds)
        first = first or bands
        reads.extend(bands.reads)
        props = item.get("properties") or {}
        sort_key = f"{float(props.get('eo:cloud_cover', 0) or 0):08.3f}"  # clearest tile first in overlaps
        tasks.append(ItemTask(str(item.get("id")), item_date(item), grid, bands.bands, index, bands.mask,
                              bands.mask_classes, bands.options, sort_key, bands.mask_no_data, _crs_code(item)))
    return tasks, first, reads


def same_crs(a_wkt: str, b_wkt: str) -> bool:
    return bool(a_wkt and b_wkt) and osr.SpatialReference(wkt=a_wkt).IsSame(osr.SpatialReference(wkt=b_wkt))


def crs_name(wkt: str) -> str:
    srs = osr.SpatialReference(wkt=wkt)
    try:
        srs.AutoIdentifyEPSG()
    except RuntimeError:  # GDAL in exception mode: not identifiable is fine
        pass
    code = srs.GetAuthorityCode(None)
    return f"EPSG:{code}" if code else srs.GetName()


def area_centre(area: dict) -> tuple[float, float]:
    env = ogr.CreateGeometryFromJson(json.dumps(area)).GetEnvelope()
    return ((env[0] + env[1]) / 2, (env[2] + env[3]) / 2)


def catalog_reads(deps: Any, items: list[dict], catalog: str | None) -> PlanRead:
    """How each asset href is read: with its catalog's credentials, scoped to the asset (tools.stac.gdal_reads)."""
    collection = str(items[0].get("collection") or "") if items else ""
    rules = rules_for(deps)  # who reads: the guard of GDAL's dataset names bounds each href (gdal_names.py)

    def plan(href: str) -> tuple[str, dict]:
        return deps.catalogs.plan_read(href, deps.output_dir(), catalog, collection, rules)

    return plan


def prepare_reads(reads: list) -> None:
    """Writes header files and sets bucket options, once per distinct read; in a worker thread, before reading."""
    seen: set = set()
    for read in reads:
        key = (tuple(sorted(getattr(read, "files", {}).items())), getattr(read, "prefix", ""))
        if key in seen or not hasattr(read, "prepare"):
            continue
        seen.add(key)
        read.prepare()


def where_to_read(deps: Any, reads: list) -> tuple[str, str]:
    """(Dask scheduler or "" for this machine, a note for the answer). Credentials never leave this machine."""
    scheduler = deps.settings.dask_scheduler
    if scheduler and needs_credentials(reads):
        return "", ("These assets need the catalog's credentials, which are not sent to the Dask cluster; "
                    "they were read on this machine.")
    return scheduler, ""


@dataclass
class Job:
    """Everything a collection read needs: a task per item on one grid, the area on it, and where to run."""
    tasks: list[ItemTask]
    bands: ItemBands  # of the first item: for the answer and the legend
    grid: Grid
    area: np.ndarray
    resolution: str  # which resolution, and why
    scheduler: str  # Dask scheduler, or "" for this machine
    note: str = ""
    probe_bytes: int = 0  # what reading the probed file's header fetched (the COG reader's; GDAL's count later)


async def plan_job(deps: Any, items: list[dict], collection_doc: dict, area: dict, *, index: str | None,
                   asset: str | None, exact: bool, mask_clouds: bool, max_pixels: int,
                   catalog: str | None = None) -> Job:
    area, clip_note = await asyncio.to_thread(clip_to_items, area, items)  # OGR unions: off the GUI thread
    item_assets = collection_doc.get("item_assets") or {}
    reads_of = catalog_reads(deps, items, catalog)
    probe_task, _, probe_reads = await build_tasks([probe_item(items)], item_assets, None, index=index,
                                                   asset=asset, plan=reads_of, mask_clouds=mask_clouds)
    await asyncio.to_thread(prepare_reads, probe_reads)
    ref = next(iter(probe_task[0].bands.values()))
    file_wkt, file_res, origin, probe_bytes = await asyncio.to_thread(probe, ref.path, probe_task[0].options)
    crs_wkt = await asyncio.to_thread(grid_crs, items, file_wkt)
    native = native_resolution_in(crs_wkt, file_wkt, file_res, area_centre(area))
    aligned = origin if same_crs(crs_wkt, file_wkt) else None
    grid, mask, how = await asyncio.to_thread(plan_grid, area, crs_wkt, native, exact=exact, max_pixels=max_pixels,
                                              origin=aligned)
    tasks, bands, reads = await build_tasks(items, item_assets, grid, index=index, asset=asset, plan=reads_of,
                                      mask_clouds=mask_clouds)
    await asyncio.to_thread(prepare_reads, reads)
    scheduler, note = where_to_read(deps, reads)
    return Job(tasks, bands, grid, mask, how, scheduler, " ".join(n for n in (clip_note, note) if n), probe_bytes)
