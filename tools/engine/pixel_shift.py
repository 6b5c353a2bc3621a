"""Reading a band onto a north-up grid in the band's own CRS whose cells are not the band's pixels (a neighbouring
tile's lattice, shifted by a fraction of a pixel; an overview whose pixel is 963.2 m under a 960 m grid, as
1,830-pixel Sentinel-2 60 m tiles have at 1/16): one window read and numpy, no GDAL warp. The cells are those
GDAL's warp gives: the overlap-weighted average of the pixels a cell covers, nodata left out (average), or the
pixel under the cell's centre (nearest). Averaging is separable on such grids: along x, then along y.
Warping cost ~5 ms of CPU a band at overviews, most of it building PROJ transformations for one CRS."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .grid_windows import Grid

MAX_SIDE = 4096  # cells along an axis; larger grids are warped in GDAL's chunks (Stop is checked between them)


def lattice_of(ds: Any, band: Any, grid: Grid, same_crs: bool) -> tuple[float, float, float, float] | None:
    """(column, row, cell width, cell height) of the grid in `band`'s pixels when both are north-up in one CRS;
    None otherwise, or when the grid is too large for one read."""
    gt = ds.GetGeoTransform()
    if not same_crs or gt[2] or gt[4] or gt[5] >= 0 or max(grid.width, grid.height) > MAX_SIDE:
        return None
    px, py = gt[1] * ds.RasterXSize / band.XSize, -gt[5] * ds.RasterYSize / band.YSize
    res_x, res_y = grid.resolution, (grid.bounds[3] - grid.bounds[1]) / grid.height
    return (grid.bounds[0] - gt[0]) / px, (gt[3] - grid.bounds[3]) / py, res_x / px, res_y / py


def read_window(band: Any, lattice: tuple[float, float, float, float], grid: Grid
                ) -> tuple[int, int, int, int] | None:
    """(column, row, width, height) of the band's pixels the grid covers; None when they do not meet."""
    col, row, sx, sy = lattice
    c0, r0 = max(0, math.floor(col)), max(0, math.floor(row))
    c1 = min(band.XSize, math.ceil(col + grid.width * sx))
    r1 = min(band.YSize, math.ceil(row + grid.height * sy))
    return (c0, r0, c1 - c0, r1 - r0) if c1 > c0 and r1 > r0 else None


def read_resampled(band: Any, lattice: tuple[float, float, float, float], grid: Grid, nodata: float | None,
                   resampling: str) -> np.ndarray:
    """The grid's cells from `band` (float32, NaN off the band and at nodata)."""
    col, row, sx, sy = lattice
    out = np.full((grid.height, grid.width), np.nan, np.float32)
    window = read_window(band, lattice, grid)
    if window is None:
        return out
    c0, r0, c1, r1 = window[0], window[1], window[0] + window[2], window[1] + window[3]
    data = band.ReadAsArray(c0, r0, c1 - c0, r1 - r0)
    if data is None:
        raise OSError("reading a block failed")
    valid = np.ones(data.shape, bool) if nodata is None else data != nodata
    if nodata is None and data.dtype.kind == "f":
        valid &= np.isfinite(data)
    if resampling == "nearest":  # the pixel under each cell's centre
        cols = np.floor(col + (np.arange(grid.width) + 0.5) * sx).astype(np.int64) - c0
        rows = np.floor(row + (np.arange(grid.height) + 0.5) * sy).astype(np.int64) - r0
        inside_c, inside_r = (cols >= 0) & (cols < c1 - c0), (rows >= 0) & (rows < r1 - r0)
        picked = np.ix_(rows[inside_r], cols[inside_c])
        values = np.where(valid[picked], data[picked].astype(np.float32), np.float32(np.nan))
        out[np.ix_(inside_r, inside_c)] = values
        return out
    values = np.where(valid, data, 0).astype(np.float64)
    weights = valid.astype(np.float64)
    cols, wx = _overlaps(col, sx, grid.width, c0, c1)  # per cell: the source columns it covers, and how much
    rows, wy = _overlaps(row, sy, grid.height, r0, r1)
    # separable: along x, then along y; a handful of source pixels per cell, elementwise (no BLAS threads, which
    # 64 reads side by side would multiply)
    along_x = [sum(wx[:, k] * a[:, cols[:, k]] for k in range(cols.shape[1])) for a in (values, weights)]
    total, weight = (sum(wy[:, k, None] * a[rows[:, k], :] for k in range(rows.shape[1])) for a in along_x)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(weight > 1e-9, total / weight, np.nan).astype(np.float32)


def _overlaps(start: float, step: float, cells: int, first: int, end: int) -> tuple[np.ndarray, np.ndarray]:
    """(index, weight), each cells × k: the source pixels (first ≤ j < end, as offsets from `first`) cell i
    ([start + i step, start + (i + 1) step)) covers, and how much of each; weight 0 pads cells that cover fewer."""
    lo = start + np.arange(cells) * step
    k = math.ceil(step) + 1
    j = np.floor(lo).astype(np.int64)[:, None] + np.arange(k)[None, :]
    weight = np.clip(np.minimum(lo[:, None] + step, j + 1) - np.maximum(lo[:, None], j), 0, None)
    weight[(j < first) | (j >= end)] = 0
    return np.clip(j, first, end - 1) - first, weight
