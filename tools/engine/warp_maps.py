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


class KeptMaps:
    """Maps made once per key and kept, the least recently used dropped past a count or a size in bytes. A key
    being made is made once: the other threads asking for it wait for it (two dates of one tile read side by side
    made the same map twice, on cores the reads need)."""

    def __init__(self, count: int, nbytes: int = 0) -> None:
        self.count, self.nbytes = count, nbytes
        self._kept: OrderedDict[tuple, Any] = OrderedDict()
        self._making: dict[tuple, threading.Lock] = {}
        self._lock = threading.Lock()

    def get(self, key: tuple, make: Callable[[], Any]) -> Any:
        while True:
            with self._lock:
                if key in self._kept:
                    self._kept.move_to_end(key)
                    return self._kept[key]
                making = self._making.get(key)
                if making is None:
                    making = self._making[key] = threading.Lock()
                    making.acquire()
                    break
            with making:  # another thread makes it: wait, then take it (or make it, if that failed)
                pass
        try:
            made = make()
            with self._lock:
                self._kept[key] = made
                while len(self._kept) > 1 and (len(self._kept) > self.count or self.nbytes and sum(
                        getattr(m, "nbytes", 0) for m in self._kept.values()) > self.nbytes):
                    self._kept.popitem(last=False)
            return made
        finally:
            with self._lock:
                del self._making[key]
            making.release()


_maps = KeptMaps(MAPS_KEPT)  # key -> each cell's pixel number (the source's size: none)


def nearest(mem: Any, grid: Grid, nodata: float | None, warp: Callable[[Any, Grid], np.ndarray],
            table: np.ndarray | None = None) -> np.ndarray:
    """The grid's cells from `mem` (a one-band dataset in memory) as GDAL's nearest warp gives them (float32, NaN
    off the source and at nodata); `warp(dataset, grid)` is GDAL's warp of a dataset to float32 cells. With
    `table` (a code for each value, nodata's included): each cell's code, uint8, 0 off the source."""
    key = (mem.GetProjectionRef(), mem.GetGeoTransform(), mem.RasterXSize, mem.RasterYSize, grid)

    def make() -> np.ndarray:
        picked = _pixel_map(mem, grid, warp)
        off = mem.RasterXSize * mem.RasterYSize  # cells off the source take the slot past the source's pixels
        return np.where(picked >= 0, picked, off).astype(np.int32)  # < 2^24 pixels; kept, not made each date

    kept = _maps.get(key, make)
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
