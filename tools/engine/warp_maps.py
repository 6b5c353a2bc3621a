"""GDAL's nearest-neighbour warp of a tile in another CRS, kept as a map: for each cell of the grid, which pixel of
the source GDAL picks (warped once, from an image of pixel numbers), so the next dates of the same tile on the
same grid take their pixels with one numpy gather. The cells are GDAL's own: the same transformer picks the same
pixels whatever they hold. A cloud mask of another zone's tile, at 8 × 8 samples a cell, cost 10–17 ms of warping
an item; the gather ~1 ms.

numpy and GDAL only (it runs on Dask workers too).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable

import numpy as np

from .grid_windows import Grid

MAPS_KEPT = 16  # (tile footprint, grid) pairs remembered: a year's dates of a few tiles of another zone
_maps: OrderedDict[tuple, np.ndarray] = OrderedDict()  # key -> each cell's pixel number (the source's size: none)
_lock = threading.Lock()


def nearest(mem: Any, grid: Grid, nodata: float | None, warp: Callable[[Any, Grid], np.ndarray],
            table: np.ndarray | None = None) -> np.ndarray:
    """The grid's cells from `mem` (a one-band dataset in memory) as GDAL's nearest warp gives them (float32, NaN
    off the source and at nodata); `warp(dataset, grid)` is GDAL's warp of a dataset to float32 cells. With
    `table` (a code for each value, nodata's included): each cell's code, uint8, 0 off the source."""
    key = (mem.GetProjectionRef(), mem.GetGeoTransform(), mem.RasterXSize, mem.RasterYSize, grid)
    with _lock:
        kept = _maps.get(key)
        if kept is not None:
            _maps.move_to_end(key)
    if kept is None:
        picked = _pixel_map(mem, grid, warp)
        off = mem.RasterXSize * mem.RasterYSize  # cells off the source take the slot past the source's pixels
        kept = np.where(picked >= 0, picked, off).astype(np.int32)  # < 2^24 pixels; kept, not made again each date
        with _lock:
            _maps[key] = kept
            while len(_maps) > MAPS_KEPT:
                _maps.popitem(last=False)
    source = mem.GetRasterBand(1).ReadAsArray().ravel()
    if table is not None:
        codes = np.empty(source.size + 1, np.uint8)
        codes[:-1], codes[-1] = table[source], 0
        return codes[kept]  # one gather (a boolean scatter into the cells was 2-3 times slower)
    padded = np.empty(source.size + 1, np.float32)
    padded[:-1], padded[-1] = source, np.nan
    if nodata is not None:
        padded[:-1][source == nodata] = np.nan
    return padded[kept]


def _pixel_map(mem: Any, grid: Grid, warp: Callable[[Any, Grid], np.ndarray]) -> np.ndarray:
    """Which source pixel (row-major number) each cell takes, -1 where none: GDAL's nearest warp of the pixels'
    numbers (float32 holds them exactly below 2^24, a 4,096 × 4,096 window)."""
    from osgeo import gdal

    width, height = mem.RasterXSize, mem.RasterYSize
    if width * height >= 1 << 24:
        raise ValueError("a window too large to number its pixels in float32")
    numbers = gdal.GetDriverByName("MEM").Create("", width, height, 1, gdal.GDT_Float32)
    numbers.SetGeoTransform(mem.GetGeoTransform())
    numbers.SetProjection(mem.GetProjectionRef())
    numbers.GetRasterBand(1).WriteArray(np.arange(width * height, dtype=np.float32).reshape(height, width))
    cells = warp(numbers, grid)
    return np.where(np.isfinite(cells), cells, -1).astype(np.int64)
