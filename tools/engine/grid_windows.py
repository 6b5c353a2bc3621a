"""Where a file meets the grid of a collection read, in numpy and GDAL only (it runs on Dask workers too): the
grid, the part of it a file covers, whether a file's pixels are the grid's own, which overview to read, and
the bytes a read makes the server send (GDAL's 16 kB chunks, counted from the COG's block index)."""

from __future__ import annotations

import contextlib
import functools
import math
import threading
from dataclasses import dataclass
from typing import Any, Iterator

from osgeo import gdal

CHUNK_BYTES = 16_384  # GDAL fetches a remote file in 16 kB chunks (CPL_VSIL_CURL_CHUNK_SIZE), the first at open


@dataclass(frozen=True)
class Grid:
    """The one grid every item of a request is warped onto (north-up)."""
    crs_wkt: str
    bounds: tuple[float, float, float, float]  # minx, miny, maxx, maxy in the grid's CRS
    width: int
    height: int

    @property
    def resolution(self) -> float:
        return (self.bounds[2] - self.bounds[0]) / self.width

    @property
    def geotransform(self) -> tuple[float, ...]:
        minx, _miny, _maxx, maxy = self.bounds
        return (minx, self.resolution, 0.0, maxy, 0.0, -(self.bounds[3] - self.bounds[1]) / self.height)


def item_window(ds: Any, grid: Grid) -> tuple[tuple[int, int], Grid] | None:
    """((row, column), part): the part of `grid` the file covers, as a grid of its own (the same pixels), and
    where it lies in `grid`; a pixel wider on each side when the file is in another CRS. None when they do not
    meet. The whole grid when the file's corners cannot be drawn in the grid's CRS."""

    gt = ds.GetGeoTransform()
    points = [(gt[0] + gt[1] * c + gt[2] * r, gt[3] + gt[4] * c + gt[5] * r)
              for c in _five(0, ds.RasterXSize) for r in _five(0, ds.RasterYSize)]
    (left, bottom, right, top), reprojected = _envelope(points, ds.GetProjectionRef(), grid.crs_wkt)
    pad = 1 if reprojected else 0
    if not all(math.isfinite(v) for v in (left, bottom, right, top)):
        return (0, 0), grid
    minx, _miny, _maxx, maxy = grid.bounds
    res_x, res_y = grid.resolution, (grid.bounds[3] - grid.bounds[1]) / grid.height
    c0 = max(0, math.floor((left - minx) / res_x + 1e-9) - pad)
    c1 = min(grid.width, math.ceil((right - minx) / res_x - 1e-9) + pad)
    r0 = max(0, math.floor((maxy - top) / res_y + 1e-9) - pad)
    r1 = min(grid.height, math.ceil((maxy - bottom) / res_y - 1e-9) + pad)
    if c1 <= c0 or r1 <= r0:
        return None
    if (c0, r0, c1, r1) == (0, 0, grid.width, grid.height):
        return (0, 0), grid
    part = Grid(grid.crs_wkt, (minx + c0 * res_x, maxy - r1 * res_y, minx + c1 * res_x, maxy - r0 * res_y),
                c1 - c0, r1 - r0)
    return (r0, c0), part


def aligned_offset(ds: Any, band: Any, grid: Grid) -> tuple[int, int, int] | None:
    """(m, column, row) when the grid is `band`'s own pixel grid or one m × finer (a 20 m mask under 10 m bands):
    same CRS, the band's pixel m grid pixels wide, the grid's corner on a grid pixel of the band's lattice, at
    (column, row) grid pixels from the band's corner. None otherwise (the band is warped)."""

    gt = ds.GetGeoTransform()
    if gt[2] or gt[4] or gt[5] >= 0:
        return None
    px, py = gt[1] * ds.RasterXSize / band.XSize, -gt[5] * ds.RasterYSize / band.YSize
    res_x, res_y = grid.resolution, (grid.bounds[3] - grid.bounds[1]) / grid.height
    m = round(px / res_x)
    if m < 1 or abs(px - m * res_x) > 1e-9 * px or abs(py - m * res_y) > 1e-9 * py:
        return None
    col, row = (grid.bounds[0] - gt[0]) / res_x, (gt[3] - grid.bounds[3]) / res_y
    if abs(col - round(col)) > 1e-6 or abs(row - round(row)) > 1e-6:
        return None
    if not same_srs(ds.GetProjectionRef(), grid.crs_wkt):
        return None
    return m, round(col), round(row)


@functools.lru_cache(maxsize=64)
def same_srs(a_wkt: str, b_wkt: str) -> bool:
    """Whether two WKTs are one CRS (parsing and comparing them cost ~1 ms; a read asks several times)."""
    from osgeo import osr

    return bool(a_wkt and b_wkt) and bool(osr.SpatialReference(wkt=a_wkt).IsSame(osr.SpatialReference(wkt=b_wkt)))


def level_index(level: str) -> int:
    return int(level.split()[-1]) - 1


def overview_level(ds: Any, grid: Grid) -> tuple[str, int]:
    """The coarsest overview at least as fine as the grid (in the source's own pixel units)."""
    native = native_resolution_in_grid(ds, grid)
    band = ds.GetRasterBand(1)
    chosen, chosen_factor = "full resolution", 1
    for k in range(band.GetOverviewCount()):
        # the nominal factor: an overview of 1,830 pixels by 16 has 115 (1,830 / 115 = 15.9) or 114 (16.05), and
        # refusing the 16.05 one for being 0.3 % coarser than the grid read the 8× overview: twice the bytes
        factor = round(ds.RasterXSize / band.GetOverview(k).XSize)
        if native * factor <= grid.resolution * 1.001:
            chosen, chosen_factor = f"overview {k + 1}", factor
    return chosen, chosen_factor


def native_resolution_in_grid(ds: Any, grid: Grid) -> float:
    gt = ds.GetGeoTransform()
    cx, cy = gt[0] + gt[1] * ds.RasterXSize / 2, gt[3] + gt[5] * ds.RasterYSize / 2
    with transformation(ds.GetProjectionRef(), grid.crs_wkt) as tr:
        if tr is None:
            return abs(gt[1])
        a, b = tr.TransformPoint(cx, cy)[:2], tr.TransformPoint(cx + gt[1], cy)[:2]
    return math.hypot(b[0] - a[0], b[1] - a[1]) or abs(gt[1])


def source_window(ds: Any, grid: Grid) -> tuple[int, int, int, int] | None:
    """Full-resolution pixel window of the source covering the grid, or None when they do not meet."""
    minx, miny, maxx, maxy = grid.bounds
    points = [(x, y) for x in _five(minx, maxx) for y in _five(miny, maxy)]  # ends exact
    (minx, miny, maxx, maxy), _reprojected = _envelope(points, grid.crs_wkt, ds.GetProjectionRef())
    gt = ds.GetGeoTransform()
    c0 = max(0, math.floor((minx - gt[0]) / gt[1]))
    c1 = min(ds.RasterXSize, math.ceil((maxx - gt[0]) / gt[1]))
    r0 = max(0, math.floor((maxy - gt[3]) / gt[5]))
    r1 = min(ds.RasterYSize, math.ceil((miny - gt[3]) / gt[5]))
    if c1 <= c0 or r1 <= r0:
        return None
    return c0, r0, c1 - c0, r1 - r0


def _five(start: float, stop: float) -> list[float]:
    """np.linspace(start, stop, 5), the same floats, in a tenth of its time (two calls a band read, 64 threads)."""
    step = (stop - start) / 4
    return [i * step + start for i in range(4)] + [float(stop)]


def _envelope(points: list[tuple[float, float]], from_wkt: str, to_wkt: str
              ) -> tuple[tuple[float, float, float, float], bool]:
    """((minx, miny, maxx, maxy), reprojected): the box around `points` (in `from_wkt`) drawn in `to_wkt`, and
    whether the two CRSs differ (the box of a curved outline is then only as good as its samples)."""
    with transformation(from_wkt, to_wkt) as tr:
        if tr is not None:
            points = [p[:2] for p in tr.TransformPoints(points)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys)), tr is not None


_spare: dict[tuple[str, str], list] = {}  # PROJ transformations not in use, by (from, to)
_spare_lock = threading.Lock()


@contextlib.contextmanager
def transformation(from_wkt: str, to_wkt: str) -> Iterator[Any]:
    """The transformation between two CRSs (x/y order), None when they are one CRS: one thread uses it at a time
    (PROJ's objects are not to be shared between threads), then it waits for the next user. Building one costs
    milliseconds (PROJ's database); kept per thread, 64 reading threads built hundreds of them."""
    key = (from_wkt, to_wkt)
    if same_srs(from_wkt, to_wkt):
        yield None
        return
    with _spare_lock:
        spare = _spare.get(key)
        tr = spare.pop() if spare else None
    if tr is None:
        from osgeo import osr

        src, dst = osr.SpatialReference(wkt=from_wkt), osr.SpatialReference(wkt=to_wkt)
        for s in (src, dst):
            s.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
        tr = osr.CoordinateTransformation(src, dst)
    try:
        yield tr
    finally:
        with _spare_lock:
            if len(_spare) > 32 and key not in _spare:
                _spare.clear()
            _spare.setdefault(key, []).append(tr)


def file_size(path: str) -> int | None:
    """The file's size as GDAL learnt it when opening it (no request of its own for a remote file)."""
    stat = gdal.VSIStatL(path)
    return stat.size if stat is not None else None


def fetched_bytes(band: Any, window: tuple[int, int, int, int], factor: int, file_size: int | None = None) -> int:
    """The bytes the server sends for a read of `window` (full-resolution pixels) from a fresh open: GDAL's
    16 kB chunks holding the header and every COG block the read touches, each chunk once (neighbouring small
    blocks share one). Counted from the COG's block index, not from GDAL's network layer, whose counters are
    process-wide."""
    bx, by = band.GetBlockSize()
    c0, r0 = window[0] // factor, window[1] // factor
    cols, rows = max(1, math.ceil(window[2] / factor)), max(1, math.ceil(window[3] / factor))
    chunks, unindexed = {0}, 0
    raw = bx * by * gdal.GetDataTypeSize(band.DataType) // 8
    for y in range(r0 // by, min((r0 + rows - 1) // by, (band.YSize - 1) // by) + 1):
        for x in range(c0 // bx, min((c0 + cols - 1) // bx, (band.XSize - 1) // bx) + 1):
            offset, size = band.GetMetadataItem(f"BLOCK_OFFSET_{x}_{y}", "TIFF"), band.GetMetadataItem(
                f"BLOCK_SIZE_{x}_{y}", "TIFF")
            if not offset or not size:  # no GeoTIFF block index: the block's uncompressed size
                unindexed += raw
                continue
            if int(size):
                chunks.update(range(int(offset) // CHUNK_BYTES, (int(offset) + int(size) - 1) // CHUNK_BYTES + 1))
    fetched = len(chunks) * CHUNK_BYTES
    if file_size and max(chunks) == (file_size - 1) // CHUNK_BYTES:  # the last chunk ends at the end of the file
        fetched -= CHUNK_BYTES - (file_size - max(chunks) * CHUNK_BYTES)
    return fetched + unindexed
