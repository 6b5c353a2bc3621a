"""Reading a band onto a grid of its own pixel size and CRS whose lattice is shifted by a fraction of a pixel (a
neighbouring tile's overview under the grid of the first tile): one window read and numpy, no GDAL warp. The
values are those GDAL's warp gives for such a grid: the overlap-weighted average of the (up to) four pixels a
cell covers, nodata left out, or the pixel under the cell's centre for nearest. Warping each such tile cost
~5 ms of CPU a band at overviews (bench/bench_vs_odc_stac.py)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .grid_windows import Grid

MAX_CELLS = 4_000_000  # larger grids are warped in GDAL's chunks (Stop is checked between them)


def shifted_offset(ds: Any, band: Any, grid: Grid, same_crs: bool) -> tuple[float, float] | None:
    """(column, row) of the grid's corner in `band`'s pixels when the grid has the band's pixel size and CRS (but
    not necessarily its lattice); None otherwise, or when the grid is too large for one read."""
    gt = ds.GetGeoTransform()
    if not same_crs or gt[2] or gt[4] or gt[5] >= 0 or grid.width * grid.height > MAX_CELLS:
        return None
    px, py = gt[1] * ds.RasterXSize / band.XSize, -gt[5] * ds.RasterYSize / band.YSize
    res_x, res_y = grid.resolution, (grid.bounds[3] - grid.bounds[1]) / grid.height
    if abs(px - res_x) > 1e-9 * px or abs(py - res_y) > 1e-9 * py:
        return None
    return (grid.bounds[0] - gt[0]) / px, (gt[3] - grid.bounds[3]) / py


def read_shifted(band: Any, offset: tuple[float, float], grid: Grid, nodata: float | None, resampling: str
                 ) -> np.ndarray:
    """The grid's cells from `band` (float32, NaN outside it and at nodata)."""
    col, row = offset
    c0, r0 = math.floor(col), math.floor(row)
    fx, fy = col - c0, row - r0
    width, height = grid.width + 1, grid.height + 1  # a cell covers parts of two columns and two rows
    source = np.full((height, width), np.nan, np.float32)
    a0, b0 = max(0, c0), max(0, r0)
    a1, b1 = min(band.XSize, c0 + width), min(band.YSize, r0 + height)
    if a1 > a0 and b1 > b0:
        data = band.ReadAsArray(a0, b0, a1 - a0, b1 - b0)
        if data is None:
            raise OSError("reading a block failed")
        values = data.astype(np.float32, copy=False)
        if nodata is not None:
            values = np.where(data == nodata, np.float32(np.nan), values)
        source[b0 - r0:b1 - r0, a0 - c0:a1 - c0] = values
    if resampling == "nearest":  # the pixel under each cell's centre
        ox, oy = int(fx >= 0.5), int(fy >= 0.5)
        return np.ascontiguousarray(source[oy:oy + grid.height, ox:ox + grid.width])
    total = np.zeros((grid.height, grid.width), np.float32)
    weight = np.zeros((grid.height, grid.width), np.float32)
    for dy, wy in ((0, 1 - fy), (1, fy)):
        for dx, wx in ((0, 1 - fx), (1, fx)):
            w = np.float32(wx * wy)
            if w <= 0:
                continue
            part = source[dy:dy + grid.height, dx:dx + grid.width]
            seen = np.isfinite(part)
            total += np.where(seen, part, 0) * w
            weight += seen * w
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(weight > 0, total / weight, np.float32(np.nan)).astype(np.float32, copy=False)
