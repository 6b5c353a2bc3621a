"""Reading rasters in place with GDAL: plain data in, plain data out (run in a worker thread, inside
`gdal_scope.gdal_exceptions()`: GDAL's exception mode is never switched for the whole process)."""

from __future__ import annotations

import contextlib
import logging
import math
from dataclasses import dataclass
from typing import Any, Iterator

import numpy as np
from osgeo import gdal, ogr, osr

from ..common import ToolInputError
from .gdal_env import MAX_EXACT_PIXELS, open_dataset, read_options
from .gdal_scope import gdal_exceptions

log = logging.getLogger(__name__)



@contextlib.contextmanager
def gdal_options(options: dict[str, str] | None = None) -> Iterator[None]:
    """The plugin's read environment (gdal_env.read_options: thread-local, so two reads on two threads do not
    see each other's options) in GDAL's exception mode. Credentials are not among the options: they are scoped
    to the asset's path, and `options.prepare()` puts them in place."""
    prepare = getattr(options, "prepare", None)
    if prepare is not None:
        prepare()  # writes a catalog's private header file, sets its bucket's options: here, in the worker
    try:
        with read_options(options), gdal_exceptions():  # GDAL's errors raise here, and only here
            yield
    except ToolInputError as exc:
        explain = getattr(options, "explain", None)
        explained = explain(str(exc)) if explain else ""
        if explained:  # a refused read names the catalog, its access method and what to do
            raise ToolInputError(explained) from None
        raise


def open_raster(path: str) -> gdal.Dataset:
    try:
        ds = open_dataset(path)
    except OSError as exc:
        raise ToolInputError(f"{exc}. Check that the href points at a raster (GeoTIFF/COG) that is reachable, and "
                             "that credentials are configured for protected catalogs.") from None
    if ds.RasterCount == 0:
        raise ToolInputError(f"'{path}' has no raster bands; pick a data asset (role 'data' or 'visual').")
    return ds


def _srs(text: str) -> osr.SpatialReference:
    srs = osr.SpatialReference()
    srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    try:
        srs.SetFromUserInput(text)
    except RuntimeError:
        raise ToolInputError(f"Unknown CRS '{text}'; give it like 'EPSG:4326' or 'EPSG:32631'.") from None
    return srs


def _dataset_srs(ds: gdal.Dataset) -> osr.SpatialReference | None:
    srs = ds.GetSpatialRef()
    if srs is not None:
        srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    return srs


def _crs_label(srs: osr.SpatialReference | None) -> str:
    if srs is None:
        return "unknown"
    name, code = srs.GetAuthorityName(None), srs.GetAuthorityCode(None)
    return f"{name}:{code}" if name and code else srs.GetName()


def raster_bounds_lonlat(ds: gdal.Dataset) -> list[float] | None:
    srs = _dataset_srs(ds)
    if srs is None:
        return None
    gt = ds.GetGeoTransform()
    xs = [gt[0], gt[0] + gt[1] * ds.RasterXSize]
    ys = [gt[3], gt[3] + gt[5] * ds.RasterYSize]
    to_ll = osr.CoordinateTransformation(srs, _srs("EPSG:4326"))
    pts = [to_ll.TransformPoint(x, y)[:2] for x in xs for y in ys]
    return [round(min(p[0] for p in pts), 6), round(min(p[1] for p in pts), 6),
            round(max(p[0] for p in pts), 6), round(max(p[1] for p in pts), 6)]


def raster_info(path: str) -> dict[str, Any]:
    ds = open_raster(path)
    gt = ds.GetGeoTransform()
    bands = []
    for i in range(1, ds.RasterCount + 1):
        b = ds.GetRasterBand(i)
        bands.append({"band": i, "name": b.GetDescription() or f"band {i}",
                      "dtype": gdal.GetDataTypeName(b.DataType), "nodata": b.GetNoDataValue(),
                      "scale": b.GetScale(), "offset": b.GetOffset(),
                      "color": gdal.GetColorInterpretationName(b.GetColorInterpretation())})
    first = ds.GetRasterBand(1)
    overviews = [[first.GetOverview(i).XSize, first.GetOverview(i).YSize] for i in range(first.GetOverviewCount())]
    return {"path": path, "width": ds.RasterXSize, "height": ds.RasterYSize, "crs": _crs_label(_dataset_srs(ds)),
            "resolution": [abs(gt[1]), abs(gt[5])], "bounds_lonlat": raster_bounds_lonlat(ds),
            "bands": bands, "overviews": overviews}


@dataclass
class Window:
    col0: int
    row0: int
    cols: int
    rows: int

    @property
    def pixels(self) -> int:
        return self.cols * self.rows


def area_geometry(ds: gdal.Dataset, bbox: list[float] | None, polygon: dict | None, crs: str) -> ogr.Geometry | None:
    """The bbox or GeoJSON polygon, checked for plausibility in `crs`, in the raster's CRS."""
    if bbox is None and polygon is None:
        return None
    src = _srs(crs or "EPSG:4326")
    if polygon is not None:
        import json

        try:
            geom = ogr.CreateGeometryFromJson(json.dumps(polygon.get("geometry", polygon)))
        except RuntimeError:
            geom = None
        if geom is None or geom.IsEmpty() or geom.GetDimension() != 2:
            raise ToolInputError("polygon must be a GeoJSON Polygon or MultiPolygon geometry.")
    else:
        w, s, e, n = bbox
        geom = ogr.CreateGeometryFromWkt(f"POLYGON(({w} {s},{e} {s},{e} {n},{w} {n},{w} {s}))")
    if src.IsGeographic():
        env = geom.GetEnvelope()
        if env[0] < -180 or env[1] > 180 or env[2] < -90 or env[3] > 90:
            raise ToolInputError(f"The area's coordinates ({env[0]:.0f}, {env[2]:.0f}, …) are out of range for "
                                 f"{crs}; they look projected: pass the CRS they are in, e.g. crs='EPSG:32631'.")
    dst = _dataset_srs(ds)
    if dst is not None and not dst.IsSame(src):
        geom.AssignSpatialReference(src)
        geom.TransformTo(dst)
    return geom


def window_for(ds: gdal.Dataset, geom: ogr.Geometry | None) -> Window:
    if geom is None:
        return Window(0, 0, ds.RasterXSize, ds.RasterYSize)
    gt = ds.GetGeoTransform()
    minx, maxx, miny, maxy = geom.GetEnvelope()
    eps = 1e-6  # an edge on a pixel boundary, give or take float noise, does not take the next pixel
    col0 = math.floor((minx - gt[0]) / gt[1] + eps)
    col1 = math.ceil((maxx - gt[0]) / gt[1] - eps)
    row0 = math.floor((maxy - gt[3]) / gt[5] + eps)
    row1 = math.ceil((miny - gt[3]) / gt[5] - eps)
    col0, row0 = max(col0, 0), max(row0, 0)
    col1, row1 = min(col1, ds.RasterXSize), min(row1, ds.RasterYSize)
    if col1 <= col0 or row1 <= row0:
        raise ToolInputError(f"The area does not overlap the raster, which covers {raster_bounds_lonlat(ds)} "
                             "(lon/lat). Check the area and its CRS.")
    return Window(col0, row0, col1 - col0, row1 - row0)


def pick_level(ds: gdal.Dataset, window: Window, exact: bool, max_pixels: int) -> int:
    """0 = full resolution; k = overview k-1: the finest level whose read stays under max_pixels."""
    if exact:
        return 0
    band = ds.GetRasterBand(1)
    if window.pixels <= max_pixels:
        return 0
    for k in range(band.GetOverviewCount()):
        factor = ds.RasterXSize / band.GetOverview(k).XSize
        if window.pixels / factor**2 <= max_pixels:
            return k + 1
    return band.GetOverviewCount()


@dataclass
class Read:
    values: np.ndarray  # physical values (scale/offset applied), NaN where invalid or outside the area
    level: int
    resolution: list[float]
    window: Window
    geotransform: tuple
    coverage: np.ndarray | None  # fraction of each pixel inside the area, when asked for


def read_band(ds: gdal.Dataset, band_index: int, geom: ogr.Geometry | None, *, exact: bool, max_pixels: int,
              coverage_supersample: int = 0, clip: bool = True) -> Read:
    """Reads the window around `geom`; with `clip`, pixels outside the polygon become NaN (a bbox needs
    no clipping: its window is the area, edge pixels included)."""
    if not 1 <= band_index <= ds.RasterCount:
        raise ToolInputError(f"band {band_index} does not exist; the raster has bands 1..{ds.RasterCount}.")
    window = window_for(ds, geom)
    if exact and window.pixels > MAX_EXACT_PIXELS:
        raise ToolInputError(f"The area is {window.pixels:,} pixels at full resolution, too many for exact mode; "
                             "use a smaller area or exact=false (overview mode).")
    level = pick_level(ds, window, exact, max_pixels)
    band = ds.GetRasterBand(band_index)
    src = band if level == 0 else band.GetOverview(level - 1)
    fx = ds.RasterXSize / src.XSize
    fy = ds.RasterYSize / src.YSize
    c0, r0 = int(window.col0 // fx), int(window.row0 // fy)
    c1 = min(src.XSize, max(c0 + 1, math.ceil((window.col0 + window.cols) / fx)))
    r1 = min(src.YSize, max(r0 + 1, math.ceil((window.row0 + window.rows) / fy)))
    raw = src.ReadAsArray(c0, r0, c1 - c0, r1 - r0)
    if raw is None:
        raise ToolInputError("GDAL could not read the raster block; the file may be damaged or unreachable.")
    values = raw.astype(np.float64)
    invalid = np.zeros(values.shape, bool)
    nodata = band.GetNoDataValue()
    if nodata is not None:
        invalid |= raw == nodata
    invalid |= ~np.isfinite(values)
    values = values * (band.GetScale() or 1.0) + (band.GetOffset() or 0.0)
    gt = ds.GetGeoTransform()
    win_gt = (gt[0] + c0 * fx * gt[1], gt[1] * fx, 0.0, gt[3] + r0 * fy * gt[5], 0.0, gt[5] * fy)
    coverage = None
    if geom is not None and clip:
        coverage = polygon_coverage(geom, win_gt, values.shape, coverage_supersample, ds.GetProjection())
        invalid |= coverage <= 0
    values[invalid] = np.nan
    return Read(values, level, [abs(win_gt[1]), abs(win_gt[5])], Window(c0, r0, c1 - c0, r1 - r0), win_gt,
                None if coverage is None else np.where(invalid, 0.0, coverage))


def polygon_coverage(geom: ogr.Geometry, gt: tuple, shape: tuple, supersample: int = 0,
                     projection: str = "") -> np.ndarray:
    """Fraction of each pixel inside the polygon: 0/1 by pixel centre, or area-weighted at the edges
    when `supersample` > 1 (each pixel split into supersample² cells)."""
    k = max(1, supersample)
    rows, cols = shape
    mem = gdal.GetDriverByName("MEM").Create("", cols * k, rows * k, 1, gdal.GDT_Byte)
    mem.SetGeoTransform((gt[0], gt[1] / k, 0.0, gt[3], 0.0, gt[5] / k))
    srs = None
    if projection:
        mem.SetProjection(projection)
        srs = osr.SpatialReference(wkt=projection)
    vds = ogr.GetDriverByName("Memory").CreateDataSource("area")
    layer = vds.CreateLayer("area", srs=srs, geom_type=ogr.wkbPolygon)
    feature = ogr.Feature(layer.GetLayerDefn())
    feature.SetGeometry(geom.Clone())
    layer.CreateFeature(feature)
    gdal.RasterizeLayer(mem, [1], layer, burn_values=[1])
    burned = mem.GetRasterBand(1).ReadAsArray().astype(np.float64)
    if k == 1:
        return burned
    return burned.reshape(rows, k, cols, k).mean(axis=(1, 3))


def describe(values: np.ndarray, percentiles: list[float]) -> dict[str, Any]:
    valid = values[np.isfinite(values)]
    if valid.size == 0:
        return {"valid_pixels": 0}
    return {"valid_pixels": int(valid.size), "min": float(valid.min()), "max": float(valid.max()),
            "mean": float(valid.mean()), "std": float(valid.std()),
            "percentiles": {f"p{p:g}": float(v) for p, v in zip(percentiles, np.percentile(valid, percentiles))}}


def statistics(path: str, band: int, bbox: list[float] | None, polygon: dict | None, crs: str, exact: bool,
               max_pixels: int, percentiles: list[float]) -> dict[str, Any]:
    ds = open_raster(path)
    geom = area_geometry(ds, bbox, polygon, crs)
    read = read_band(ds, band, geom, exact=exact, max_pixels=max_pixels, clip=polygon is not None)
    stats = describe(read.values, percentiles)
    stats.update({"band": band, "exact": read.level == 0, "level": "full resolution" if read.level == 0
                  else f"overview {read.level}", "resolution": read.resolution, "pixels_read": read.values.size,
                  "crs": _crs_label(_dataset_srs(ds))})
    return stats


def point_values(path: str, x: float, y: float, crs: str) -> dict[str, Any]:
    ds = open_raster(path)
    src = _srs(crs or "EPSG:4326")
    dst = _dataset_srs(ds)
    if src.IsGeographic() and not (-180 <= x <= 180 and -90 <= y <= 90):
        raise ToolInputError(f"({x}, {y}) is out of range for {crs}; pass the CRS of the point, e.g. crs='EPSG:3857'.")
    px, py = (x, y) if dst is None or dst.IsSame(src) else osr.CoordinateTransformation(src, dst).TransformPoint(x, y)[:2]
    gt = ds.GetGeoTransform()
    col = int(math.floor((px - gt[0]) / gt[1]))
    row = int(math.floor((py - gt[3]) / gt[5]))
    if not (0 <= col < ds.RasterXSize and 0 <= row < ds.RasterYSize):
        raise ToolInputError(f"The point is outside the raster, which covers {raster_bounds_lonlat(ds)} (lon/lat).")
    values = []
    for i in range(1, ds.RasterCount + 1):
        b = ds.GetRasterBand(i)
        raw = b.ReadAsArray(col, row, 1, 1)[0, 0]
        nodata = b.GetNoDataValue()
        is_nodata = (nodata is not None and raw == nodata) or not np.isfinite(raw)
        value = None if is_nodata else float(raw) * (b.GetScale() or 1.0) + (b.GetOffset() or 0.0)
        values.append({"band": i, "name": b.GetDescription() or f"band {i}", "value": value,
                       "nodata": bool(is_nodata)})
    return {"pixel": [col, row], "values": values}
