"""Reads one STAC item onto a common grid: the per-item work of collection statistics and indices.

Needs only GDAL and numpy (and index_formulas.py, the COG reader), so it runs the same in a thread of QGIS's
process and as a Dask task on a cluster. A COG at a plain http(s) URL is read by cog_reader.py (its headers
fetched together, no HEAD, its tiles as merged ranges); every other file by GDAL. GDAL's exception mode is left as the process has it: every call is checked both
ways. GDAL options are thread-local; each call opens its own datasets (one dataset per thread).
"""

from __future__ import annotations

import contextlib
import math
import time
from dataclasses import dataclass, field
from typing import Any, Iterator, NamedTuple

import numpy as np
from osgeo import gdal, gdal_array

from . import index_formulas, warp_average, warp_maps
from .cloud_codes import code_table, codes_of
from .cog_reader import Cancelled, CogBand, is_cog, memory_box, memory_copy, open_many
from .date_stats import CLEAR, CLOUD, NO_SAMPLE, cell_any
from .gdal_env import open_dataset, read_options
from .grid_windows import (
    CHUNK_BYTES,
    Grid,
    aligned_offset,
    fetched_bytes,
    file_size,
    item_window,
    level_index,
    native_resolution_in_grid,
    overview_level,
    same_srs,
    source_window,
)
from .pixel_shift import lattice_of, read_resampled, read_window

MASK_SAMPLES = 8  # the cloud mask is read up to 8 × 8 samples per grid cell: what share of a cell is clear, and
# whether a cloud touches it (its bands' average then holds cloud); masks compress to little, so this costs few bytes
WARP_CHUNK_BYTES = 2_000_000  # warp chunks of 0.5 M float pixels; Stop is checked through GDAL's progress, every
# few rows (150 kB chunks, each planned and read on its own, were 1.4× slower on bench_vs_odc_stac.py's world)
ALIGNED_READS = True  # a grid on the file's own pixels is read directly, not warped (bench/ compares both)
ALIGNED_READ_PIXELS = 16_000_000  # pixels of one direct read (32 MB of 16-bit values): a whole window, mostly


class ClusterStop:
    """Stop flag of a Dask job, readable from a worker: a distributed.Event by name (workers have distributed)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._event: Any = None

    def __getstate__(self) -> dict:
        return {"name": self.name}

    def __setstate__(self, state: dict) -> None:
        self.name, self._event = state["name"], None

    def is_set(self) -> bool:
        if self._event is None:
            from distributed import Event

            self._event = Event(self.name)
        return self._event.is_set()


@dataclass(frozen=True)
class BandRef:
    path: str  # GDAL path (/vsicurl/..., a local file)
    band: int = 1
    scale: float | None = None  # from STAC; None = the file's own
    offset: float | None = None
    nodata: float | None = None  # from STAC; None = the file's own


@dataclass(frozen=True)
class ItemTask:
    item_id: str
    date: str  # the group this item belongs to (a day, a week, a month)
    grid: Grid
    bands: dict[str, BandRef]  # common name (or "value" for a plain asset) -> where to read it
    index: str | None = None  # spectral index to compute from `bands`
    mask: BandRef | None = None  # classification asset (e.g. Sentinel-2 SCL)
    mask_classes: tuple[int, ...] = ()  # classes of `mask` that are excluded (cloud, shadow, …)
    options: dict[str, str] = field(default_factory=dict)  # GDAL config for this item's hrefs
    sort_key: str = ""  # mosaic order within a date: the first valid pixel wins
    mask_no_data: tuple[int, ...] = ()  # of mask_classes, those meaning "the tile has no data here"
    layout: str = ""  # items whose files are laid out alike (one CRS): the COG reader learns from one for the others


@dataclass
class ItemResult:
    item_id: str
    date: str
    sort_key: str
    values: np.ndarray | None  # float32 on the grid, NaN where invalid; None when the item missed the area
    observed: np.ndarray | None  # bool: the item had data there before the cloud mask
    bytes_read: int = 0  # compressed bytes of the blocks read (from the COG's block index)
    level: str = ""  # "full resolution" or "overview k"
    flagged: np.ndarray | None = None  # bool: the item has data and its cloud mask flags the cell (any sample)
    seconds: float = 0.0  # how long the read took, for the time-left estimate
    window: tuple[int, int] = (0, 0)  # (row, column) of the grid where the arrays' first cell lies
    sky: np.ndarray | None = None  # uint8 NO_SAMPLE/CLEAR/CLOUD of each mask sample, `samples` × `samples` a cell
    samples: int = 1


@contextlib.contextmanager
def gdal_config(options: dict[str, str]) -> Iterator[None]:
    """The plugin's read environment (gdal_env.read_options), GDAL's messages kept out of QGIS's log: every
    failure here is checked and reported by the caller."""
    with read_options(options):
        gdal.PushErrorHandler("CPLQuietErrorHandler")
        try:
            yield
        finally:
            gdal.PopErrorHandler()


class _Files:
    """The item's files: the COGs the COG reader takes (the headers of several fetched together), the others
    opened by GDAL."""

    def __init__(self, task: ItemTask, cancel: Any) -> None:
        self.task, self.cancel = task, cancel
        self.cogs: dict[str, Any] = {}

    def prefetch(self, refs: list[BandRef]) -> None:
        paths = [r.path for r in refs if r.path not in self.cogs]
        if paths:
            self.cogs.update(open_many(paths, self.cancel, self.task.options, (self.task.grid, self.task.layout)))

    def open(self, path: str) -> Any:
        if path not in self.cogs:
            self.cogs.update(open_many([path], self.cancel, self.task.options, (self.task.grid, self.task.layout)))
        ds = self.cogs[path]
        return ds if ds is not None else open_dataset(path)

    def cancel_ahead(self) -> None:
        for ds in self.cogs.values():
            if ds is not None:
                ds.cancel_ahead()

    def fetched(self) -> int:
        return sum(ds.fetched for ds in self.cogs.values() if ds is not None)


def read_item(task: ItemTask, cancel: Any = None) -> ItemResult:
    """Reads the cloud mask, then every band the task needs, onto the part of its grid the item covers (from the
    overview matching the grid's resolution), applies scale/offset/nodata, computes the index and removes the
    cells the mask flags. The result's arrays cover only that part (`window`): a tile of a large area is not a
    whole grid. When the mask excludes every cell (an overcast tile), the bands are not read at all."""
    started = time.perf_counter()
    with gdal_config(task.options):
        _stop_if_cancelled(cancel)  # every step below may wait on the network: Stop is checked between them
        files = _Files(task, cancel)
        try:
            result = _read_item(task, cancel, files, started)
        finally:
            files.cancel_ahead()  # an item ended early (Stop, an error) asks for nothing more
        result.bytes_read += files.fetched()  # what the COG reader fetched (GDAL's reads count themselves)
        result.seconds = time.perf_counter() - started
        return result


def _read_item(task: ItemTask, cancel: Any, files: _Files, started: float) -> ItemResult:
    arrays: dict[str, np.ndarray] = {}
    total_bytes = 0
    level = ""
    first = task.mask or next(iter(task.bands.values()))  # the mask first: an overcast tile needs no band
    first_ds = files.open(first.path)
    part = item_window(first_ds, task.grid)
    if part is None:  # the item's file misses the area: no more requests for it
        return ItemResult(task.item_id, task.date, task.sort_key, None, None, 0,
                          seconds=time.perf_counter() - started)
    window, grid = part
    sky = None
    if task.mask is not None:
        sky = _mask_cells(task.mask, task.mask_classes, grid, cancel, task.mask_no_data, first_ds)
        total_bytes += sky.nbytes
        if sky.codes is not None and not sky.clear.any():  # no clear sample anywhere: no band is read
            return ItemResult(task.item_id, task.date, task.sort_key,
                              np.full(sky.data.shape, np.nan, np.float32), sky.data, total_bytes, "",
                              sky.flagged, time.perf_counter() - started, window, sky.codes, sky.k)
    files.prefetch(list(task.bands.values()))  # the bands' headers together, once the mask left something clear
    _fetch_ahead(list(task.bands.values()), grid, files)
    for name, ref in task.bands.items():
        values, nbytes, level = _warp(ref, grid, "average", cancel,
                                      ds=first_ds if ref is first else files.open(ref.path))
        total_bytes += nbytes
        if values is None:  # the item's data misses the area: no more requests for it
            return ItemResult(task.item_id, task.date, task.sort_key, None, None, total_bytes, level,
                              seconds=time.perf_counter() - started)
        arrays[name] = values
    observed = np.ones(next(iter(arrays.values())).shape, bool)
    for band_values in arrays.values():
        observed &= np.isfinite(band_values)
    if task.index:  # the bands are this read's own arrays, not needed after: the index goes into one of them
        values = index_formulas.evaluate(task.index, arrays, in_place=True)
    else:
        values = next(iter(arrays.values()))
    flagged, codes, k = None, None, 1
    if sky is not None and sky.codes is not None:
        flagged, codes, k = sky.flagged, sky.codes, sky.k
        # a cell a cloud touches holds cloud in its bands' average; a cell with no clear sample is not seen
        values = values.astype(np.float32, copy=False)  # this read's own array: NaN goes in in place
        values[flagged | ~sky.clear] = np.nan
        flagged = flagged & observed  # where this item has no data (its swath's end) it says nothing of the sky
    return ItemResult(task.item_id, task.date, task.sort_key, values.astype(np.float32, copy=False), observed,
                      total_bytes, level, flagged, time.perf_counter() - started, window, codes, k)


def mask_samples(native: float, grid: Grid) -> int:
    """Mask samples per grid cell along each axis: up to MASK_SAMPLES, never finer than the mask's own pixels."""
    return max(1, min(MASK_SAMPLES, math.floor(grid.resolution / native * 1.001)))


@dataclass
class _Sky:
    codes: np.ndarray | None  # NO_SAMPLE/CLEAR/CLOUD per mask sample, k × k samples a cell; None: no mask here
    k: int
    nbytes: int
    flagged: np.ndarray | None = field(init=False, default=None)  # cells a cloud (an excluded class) touches
    clear: np.ndarray | None = field(init=False, default=None)  # cells with at least one clear sample

    def __post_init__(self) -> None:
        # computed here, not as cached properties: Python 3.11's hold one lock for every instance, and 64 reading
        # threads queued on it
        if self.codes is not None:
            self.flagged, self.clear = cell_any(self.codes, self.k, CLOUD), cell_any(self.codes, self.k, CLEAR)

    @property
    def data(self) -> np.ndarray:
        """Cells where the mask says the tile has data (clear or cloud)."""
        return self.clear | self.flagged


def _mask_cells(ref: BandRef, classes: tuple[int, ...], grid: Grid, cancel: Any, no_data: tuple[int, ...] = (),
                ds: Any = None) -> _Sky:
    """What the cloud mask says of each sample, k × k samples a cell (nearest, from the overview matching that
    finer grid): the share of a cell that is clear, and whether a cloud touches it. One sample per cell lets a
    cloud's pixels into the bands' cell average, or leaves a cell's clear part uncounted."""
    _stop_if_cancelled(cancel)
    ds = ds if ds is not None else open_dataset(ref.path)
    k = mask_samples(native_resolution_in_grid(ds, grid), grid)
    fine = Grid(grid.crs_wkt, grid.bounds, grid.width * k, grid.height * k)
    samples, nbytes, _ = _warp(ref, fine, "nearest", cancel, scaled=False, ds=ds, classes=(classes, no_data))
    if samples is None:
        return _Sky(None, k, nbytes)
    codes = samples if samples.dtype == np.uint8 else codes_of(samples, classes, no_data)  # uint8: codes already
    return _Sky(codes, k, nbytes)


def _warp(ref: BandRef, grid: Grid, resampling: str, cancel: Any, scaled: bool = True, ds: Any = None,
          classes: tuple[tuple[int, ...], tuple[int, ...]] | None = None) -> tuple[np.ndarray | None, int, str]:
    """The band's values on the grid (float32, NaN where none); with `classes` (a cloud mask's excluded and
    no-data classes), read or gathered without resampling: uint8 codes (cloud_codes) where the mask's type has a
    table."""
    _stop_if_cancelled(cancel)
    ds = ds if ds is not None else open_dataset(ref.path)
    source_band, read_band, level, factor, window, corner, lattice = _plan(ref, grid, ds)
    nodata = ref.nodata if ref.nodata is not None else source_band.GetNoDataValue()
    if window is None:
        return None, 0, level
    _stop_if_cancelled(cancel)  # each step below may wait on the network: Stop is checked between them
    if is_cog(ds):  # the COG reader counts what it fetches
        nbytes = 0
    elif lattice is not None:  # the blocks of the window it reads, in the read band's own pixels
        nbytes = fetched_bytes(read_band, read_window(read_band, lattice, grid) or (0, 0, 1, 1), 1,
                               file_size(ref.path))
    else:
        nbytes = fetched_bytes(read_band, window, factor, file_size(ref.path))
    _stop_if_cancelled(cancel)
    table = None if classes is None else code_table(*classes, nodata, read_band.DataType)
    if corner is not None:  # the grid is the file's own pixel grid (or its overview's): read, no warp
        values = _read_aligned(read_band, corner, grid, nodata, cancel, ref.path,
                               None if is_cog(ds) else file_size(ref.path), table)
    elif lattice is not None:  # the same CRS on another lattice (a neighbouring tile): read, resample in numpy
        values = _read_resampled(read_band, lattice, grid, nodata, resampling, ref.path)
    elif is_cog(ds):  # another CRS: GDAL warps the window's pixels from memory (nearest: through a kept map)
        mem = memory_copy(ds, read_band, window)
        if resampling == "nearest":
            values = warp_maps.nearest(mem, grid, nodata, lambda src, cells: _warped(
                src, ref, cells, "nearest", None, 1, level, cancel, single_band=True), table)
        elif resampling == "average":  # the cells' footprints kept as a map: the tile's bands and dates gather
            values = warp_average.average(mem, grid, nodata, lambda src, cells: _warped(
                src, ref, cells, resampling, nodata, 1, level, cancel, single_band=True))
        else:
            values = _warped(mem, ref, grid, resampling, nodata, 1, level, cancel, single_band=True)
    else:
        values = _warped(ds, ref, grid, resampling, nodata, factor, level, cancel)
    if scaled and values.dtype != np.uint8:  # uint8: a mask's codes
        scale = ref.scale if ref.scale is not None else (source_band.GetScale() or 1.0)
        offset = ref.offset if ref.offset is not None else (source_band.GetOffset() or 0.0)
        if scale != 1.0:
            values *= np.float32(scale)
        if offset:
            values += np.float32(offset)
    return values, nbytes, level


class _Plan(NamedTuple):
    source_band: Any
    read_band: Any  # the band, or the overview read
    level: str
    factor: int
    window: tuple[int, int, int, int] | None  # full-resolution pixels covering the grid; None: they do not meet
    corner: tuple[int, int, int] | None  # the grid on read_band's own pixels: read directly (aligned_offset)
    lattice: tuple[float, float, float, float] | None  # the same CRS on another lattice: read, resampled


def _plan(ref: BandRef, grid: Grid, ds: Any) -> _Plan:
    """How the band meets the grid: which level is read, and read directly, resampled or warped."""
    if ref.band > ds.RasterCount:
        raise OSError(f"{ref.path} has {ds.RasterCount} band(s), not band {ref.band}")
    source_band = ds.GetRasterBand(ref.band)
    level, factor = overview_level(ds, grid)
    window = source_window(ds, grid)
    if window is None:
        return _Plan(source_band, source_band, level, factor, None, None, None)
    read_band = source_band if factor == 1 else source_band.GetOverview(level_index(level))
    corner = aligned_offset(ds, read_band, grid) if ALIGNED_READS else None
    lattice = None if corner is not None or not ALIGNED_READS else lattice_of(
        ds, read_band, grid, same_srs(ds.GetProjectionRef(), grid.crs_wkt))
    return _Plan(source_band, read_band, level, factor, window, corner, lattice)


def _fetch_ahead(refs: list[BandRef], grid: Grid, files: _Files) -> None:
    """Asks the COG reader for the tiles every band of the item will read, all at once, before the first is
    decoded: one band after the other left the link idle half of a full-resolution month at 40 ms a request."""
    for ref in refs:
        ds = files.cogs.get(ref.path)  # a file GDAL reads (None) is not opened twice: GDAL fetches its own
        if not is_cog(ds):
            continue
        plan = _plan(ref, grid, ds)
        if plan.window is None:
            continue
        if plan.corner is not None:
            box = _aligned_box(plan.read_band, plan.corner, grid)
        elif plan.lattice is not None:
            box = read_window(plan.read_band, plan.lattice, grid)
        else:
            box = memory_box(ds, plan.read_band, plan.window)
        if box is not None:
            plan.read_band.fetch_ahead(*box)


def _aligned_box(band: Any, corner: tuple[int, int, int], grid: Grid) -> tuple[int, int, int, int] | None:
    """(column, row, width, height) of the band's pixels under the grid placed at `corner`; None: none."""
    m, col, row = corner
    c0, c1 = max(0, col // m), min(band.XSize, -(-(col + grid.width) // m))
    r0, r1 = max(0, row // m), min(band.YSize, -(-(row + grid.height) // m))
    return (c0, r0, c1 - c0, r1 - r0) if c1 > c0 and r1 > r0 else None


def _read_resampled(band: Any, lattice: tuple[float, float, float, float], grid: Grid, nodata: float | None,
                    resampling: str, path: str) -> np.ndarray:
    try:
        return read_resampled(band, lattice, grid, nodata, resampling)
    except (RuntimeError, OSError) as exc:  # GDAL's exception mode, when the process has it on
        raise OSError(f"reading {path} failed: {exc}") from None


def _read_aligned(band: Any, corner: tuple[int, int, int], grid: Grid, nodata: float | None, cancel: Any,
                  path: str, size: int | None, table: np.ndarray | None = None) -> np.ndarray:
    """The grid's pixels straight from the band (each band pixel repeated m × m times when the grid is m × finer),
    in as few reads as ALIGNED_READ_PIXELS allows (Stop is checked between them): one read lets GDAL fetch exactly
    the blocks it needs in one request, where strip after strip made its read-ahead double and fetch blocks past
    the window (3.8 MB for a 2.5 MB window); NaN outside the band and at nodata: what the warp gives on such a
    grid, without resampling any pixel. With `table`: each pixel's code (uint8, NO_SAMPLE outside the band)."""
    out = np.full((grid.height, grid.width), np.nan, np.float32) if table is None else np.full(
        (grid.height, grid.width), NO_SAMPLE, np.uint8)
    m, col, row = corner
    box = _aligned_box(band, corner, grid)
    if box is None:
        return out
    c0, r0, c1, r1 = box[0], box[1], box[0] + box[2], box[1] + box[3]
    strip = band.GetBlockSize()[1]
    # a file within GDAL's first 16 kB chunk is already here: strips read it from that cache, where one read of
    # several blocks asks the server again for each block's bytes (GDAL 3.6's multi-range read skips the cache)
    whole = size is None or size > CHUNK_BYTES
    step = max(strip, ALIGNED_READ_PIXELS // (c1 - c0) // strip * strip) if whole else strip
    top = r0
    while top < r1:
        _stop_if_cancelled(cancel)
        bottom = min(r1, max(top + 1, (top + step) // strip * strip))
        try:
            window = (c0, top, c1 - c0, bottom - top)  # the COG reader's samples in its scratch: _place copies them
            data = band.ReadAsArray(*window, reuse=True) if isinstance(band, CogBand) else band.ReadAsArray(*window)
        except RuntimeError as exc:  # GDAL's exception mode, when the process has it on
            raise OSError(f"reading {path} failed: {exc}") from None
        if data is None:
            raise OSError(f"reading {path} failed: {gdal.GetLastErrorMsg() or 'unreadable block'}")
        _place(out, data, nodata, m, top * m - row, c0 * m - col, table)
        top = bottom
    return out


def _place(out: np.ndarray, data: np.ndarray, nodata: float | None, m: int, y0: int, x0: int,
           table: np.ndarray | None = None) -> None:
    """`data` (band pixels, each m × m grid cells) onto `out` with its first pixel's cells at (y0, x0), NaN at
    nodata: cast and masked in place, no float copy of a whole window (a fresh 13 MB array is paged in each time)."""
    sy, sx = max(0, -y0), max(0, -x0)  # grid cells of `data`'s first pixels that fall before the grid's edge
    rows = min(data.shape[0] * m - sy, out.shape[0] - (y0 + sy))
    cols = min(data.shape[1] * m - sx, out.shape[1] - (x0 + sx))
    if rows <= 0 or cols <= 0:
        return
    target = out[y0 + sy:y0 + sy + rows, x0 + sx:x0 + sx + cols]
    if m > 1:  # the band pixel under each cell
        data = data[np.arange(sy, sy + rows) // m][:, np.arange(sx, sx + cols) // m]
    else:
        data = data[sy:sy + rows, sx:sx + cols]
    if table is not None:  # the codes of the values (nodata's among them)
        target[...] = table[data]
        return
    np.copyto(target, data, casting="unsafe")
    if nodata is not None:
        target[data == nodata] = np.nan


def _warped(ds: Any, ref: BandRef, grid: Grid, resampling: str, nodata: float | None, factor: int, level: str,
            cancel: Any, single_band: bool = False) -> np.ndarray:
    src = ds
    if ds.RasterCount > 1 and not single_band:  # GDAL 3.6's Warp has no band selection: a one-band VRT in memory
        src = gdal.Translate("", ds, format="VRT", bandList=[ref.band])

    def progress(_fraction: float, _message: Any, _data: Any) -> int:
        return 0 if cancel is not None and cancel.is_set() else 1

    # GDAL warps into it, no copy after; NaN first: GDAL leaves a chunk of cells that meets no source pixel as
    # it found it (INIT_DEST sets only the chunks it warps)
    cells = np.full((grid.height, grid.width), np.nan, np.float32)
    target = gdal_array.OpenArray(cells)
    target.SetGeoTransform(grid.geotransform)
    target.SetProjection(grid.crs_wkt)
    options = gdal.WarpOptions(
        resampleAlg=resampling, srcNodata=nodata, dstNodata=float("nan"),
        overviewLevel=("NONE" if factor == 1 else level_index(level)), multithread=False,
        warpOptions=["INIT_DEST=NO_DATA"], warpMemoryLimit=WARP_CHUNK_BYTES, callback=progress)
    try:
        out = gdal.Warp(target, src, options=options)
    except RuntimeError as exc:
        if cancel is not None and cancel.is_set():
            raise Cancelled() from None
        raise OSError(f"reading {ref.path} failed: {exc}") from None
    if out is None or out == 0:
        if cancel is not None and cancel.is_set():
            raise Cancelled()
        raise OSError(f"reading {ref.path} failed: {gdal.GetLastErrorMsg()}")
    del target
    return cells


def _stop_if_cancelled(cancel: Any) -> None:
    if cancel is not None and cancel.is_set():
        raise Cancelled()
