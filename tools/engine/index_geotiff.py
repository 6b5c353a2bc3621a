"""A spectral index as a GeoTIFF: one item, or a mosaic (clearest item first) of the items over an area and
dates, read from the overviews that match the output size. No QGIS here; the canvas tool adds the layer."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from ..common import ToolInputError
from . import collection_plan as plan
from .date_stats import mosaic_of
from .index_bands import pick_index
from .provenance import mask_read
from .stats_runner import run_items
from .stats_worker import Cancelled

MAX_LAYER_PIXELS = 1_048_576  # about 1024 × 1024: sharp on a screen, a few MB to read


def item_area(items: list[dict]) -> dict:
    """The union of the items' footprints, in lon/lat."""
    from osgeo import ogr

    union = None
    for item in items:
        geom = ogr.CreateGeometryFromJson(json.dumps(item["geometry"]))
        union = geom if union is None else union.Union(geom)
    return json.loads(union.ExportToJson())


async def index_raster(deps: Any, items: list[dict], collection_doc: dict, area: dict | None, index: str,
                       out_path: Path, *, exact: bool = False, mask_clouds: bool = True, ctx: Any = None,
                       max_pixels: int = MAX_LAYER_PIXELS, catalog: str | None = None) -> dict[str, Any]:
    spec = pick_index(index)
    area = area or item_area(items)
    items = sorted(items, key=lambda i: float((i.get("properties") or {}).get("eo:cloud_cover", 0) or 0))
    job = await plan.plan_job(deps, items, collection_doc, area, index=spec.name, asset=None, exact=exact,
                              mask_clouds=mask_clouds, max_pixels=max_pixels, catalog=catalog)
    tasks, bands, grid, mask, how = job.tasks, job.bands, job.grid, job.area, job.resolution
    results = []
    try:
        async with contextlib.aclosing(run_items(tasks, progress=ctx.report_progress if ctx is not None else None,
                                                 scheduler=job.scheduler)) as reads:
            async for result in reads:
                results.append(result)
    except Cancelled:
        raise asyncio.CancelledError() from None
    except OSError as exc:
        raise ToolInputError(f"Reading the items failed: {exc}. Check that the catalog's assets are reachable.") \
            from None
    values, valid = await asyncio.to_thread(_masked_mosaic, results, mask)  # pixel work off the GUI thread
    if valid.size == 0:
        raise ToolInputError(f"No valid {spec.name} pixel over the area (nodata or clouds everywhere); try other "
                             "dates or mask_clouds=false.")
    legend = f"{spec.name} = {spec.formula}; {bands.described}"
    await asyncio.to_thread(_write_geotiff, out_path, values, grid, legend)
    low, high = (float(v) for v in await asyncio.to_thread(np.percentile, valid, [2, 98]))
    return {"file": str(out_path), "index": spec.name, "formula": spec.formula, "bands": bands.described,
            "legend": legend, "items": [t.item_id for t in tasks], "resolution": how, "cloud_mask": mask_read(bands),
            "grid_crs": plan.crs_name(grid.crs_wkt), "p2": low, "p98": high, "mean": float(valid.mean()),
            "valid_pixels": int(valid.size), "ramp": spec.ramp, "invert_ramp": spec.invert_ramp}


def _masked_mosaic(results: list, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    values, _observed = mosaic_of(results, mask.shape)
    values = np.where(mask, values, np.nan).astype(np.float32)
    return values, values[np.isfinite(values)]


def _write_geotiff(path: Path, values: np.ndarray, grid: Any, description: str) -> None:
    from osgeo import gdal

    path.parent.mkdir(parents=True, exist_ok=True)
    ds = gdal.GetDriverByName("GTiff").Create(str(path), grid.width, grid.height, 1, gdal.GDT_Float32,
                                              options=["COMPRESS=DEFLATE", "TILED=YES"])
    ds.SetGeoTransform(grid.geotransform)
    ds.SetProjection(grid.crs_wkt)
    band = ds.GetRasterBand(1)
    band.SetNoDataValue(float("nan"))
    band.SetDescription(description)
    band.WriteArray(values)
    ds.FlushCache()
    ds = None
