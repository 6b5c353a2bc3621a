"""Reading two periods of rasters onto one grid and differencing them (plain data, worker thread)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
from osgeo import gdal

from ..common import ToolInputError
from . import raster_reads

MAX_CHANGE_PIXELS = 4_000_000


def zonal(path: str, band: int, polygon: dict, crs: str, supersample: int = 8) -> dict[str, Any]:
    """Area-weighted statistics: each pixel counts by the fraction of it inside the polygon."""
    ds = raster_reads.open_raster(path)
    geom = raster_reads.area_geometry(ds, None, polygon, crs)
    read = raster_reads.read_band(ds, band, geom, exact=True, max_pixels=0, coverage_supersample=supersample)
    weights = np.where(np.isfinite(read.values), read.coverage, 0.0)
    total = float(weights.sum())
    if total == 0:
        return {"valid_pixels": 0, "band": band}
    values = np.where(weights > 0, read.values, 0.0)
    mean = float((values * weights).sum() / total)
    std = math.sqrt(float((weights * (values - mean) ** 2).sum() / total))
    touched = read.values[weights > 0]
    pixel_area = abs(read.geotransform[1] * read.geotransform[5])
    return {"band": band, "weighted_mean": mean, "weighted_std": std, "min": float(touched.min()),
            "max": float(touched.max()), "pixels_touched": int(touched.size), "pixel_weight_sum": total,
            "covered_area": total * pixel_area, "area_units": "CRS units²", "resolution": read.resolution}


def period_grid(paths: list[str], bbox: list[float], band: int) -> tuple[np.ndarray, gdal.Dataset]:
    """The period's rasters mosaicked onto the bbox (lon/lat) in the first raster's CRS and resolution."""
    first = raster_reads.open_raster(paths[0])
    gt = first.GetGeoTransform()
    srs = first.GetSpatialRef()
    b = first.GetRasterBand(band)
    scale, offset, nodata = b.GetScale() or 1.0, b.GetOffset() or 0.0, b.GetNoDataValue()
    options = gdal.WarpOptions(format="MEM", outputBounds=bbox, outputBoundsSRS="EPSG:4326",
                               dstSRS=srs.ExportToWkt() if srs else None, xRes=abs(gt[1]), yRes=abs(gt[5]),
                               outputType=gdal.GDT_Float64, srcNodata=nodata, dstNodata=float("nan"),
                               resampleAlg="near")
    estimate = (abs(bbox[2] - bbox[0]) / abs(gt[1])) * (abs(bbox[3] - bbox[1]) / abs(gt[5]))
    if srs is not None and srs.IsGeographic() and estimate > MAX_CHANGE_PIXELS:
        raise ToolInputError(f"The area is about {estimate:,.0f} pixels; use a smaller bbox (at most "
                             f"{MAX_CHANGE_PIXELS:,} pixels) for detect_change.")
    try:
        # one-band VRTs: GDAL 3.6's Warp cannot pick a source band itself
        sources = [gdal.Translate("", raster_reads.open_raster(p), format="VRT", bandList=[band]) for p in paths]
        out = gdal.Warp("", sources, options=options)
    except RuntimeError as exc:
        raise ToolInputError(f"GDAL could not read the period's rasters: {str(exc)[:200]}") from None
    if out.RasterXSize * out.RasterYSize > MAX_CHANGE_PIXELS:
        raise ToolInputError(f"The area is {out.RasterXSize * out.RasterYSize:,} pixels; use a smaller bbox.")
    return out.GetRasterBand(1).ReadAsArray() * scale + offset, out


def change(paths_a: list[str], paths_b: list[str], bbox: list[float], band: int, out_path: Path) -> dict[str, Any]:
    a, grid = period_grid(paths_a, bbox, band)
    b, _ = period_grid(paths_b, bbox, band)
    if a.shape != b.shape:
        raise ToolInputError("The two periods do not share a grid; pick items with the same resolution.")
    diff = b - a
    drv = gdal.GetDriverByName("GTiff")
    out = drv.Create(str(out_path), diff.shape[1], diff.shape[0], 1, gdal.GDT_Float32, ["COMPRESS=DEFLATE"])
    out.SetGeoTransform(grid.GetGeoTransform())
    out.SetProjection(grid.GetProjection())
    band_out = out.GetRasterBand(1)
    band_out.SetNoDataValue(float("nan"))
    band_out.SetDescription("difference (period B - period A)")
    band_out.WriteArray(diff.astype(np.float32))
    out.FlushCache()
    out = None
    pct = [2, 50, 98]
    return {"period_a": raster_reads.describe(a, pct), "period_b": raster_reads.describe(b, pct),
            "difference": raster_reads.describe(diff, pct), "grid": [int(diff.shape[1]), int(diff.shape[0])],
            "difference_file": str(out_path)}
