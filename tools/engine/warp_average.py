"""The average warp of a tile in another CRS, kept as a map: for each cell of the grid, the source pixels its
footprint covers and how much of each, worked out once per (tile window, grid) from the cells' corners, so that
every band and every date of that tile on that grid is averaged with a few numpy gathers.

The footprint is GDAL's kind: the cell's corners drawn in the source's pixels, the box from the middle of its
left edge to the middle of its right edge and from the middle of its top edge to the middle of its bottom edge;
each pixel weighs what of it the box covers, and a cell takes the weighted mean of its valid pixels (NaN where
it has none). GDAL's own average warp of a 1,300 × 1,000-cell window took ~130 ms of a core (its transformer
approximated to 0.125 pixels); this takes ~30 ms from a kept map, its corners exact to a thousandth of a pixel.

numpy and GDAL only (it runs on Dask workers too).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .grid_windows import Grid
from .warp_maps import KeptMaps

MAX_OFFSETS = 16  # pixels a cell's box may span (4 × 4: a grid up to ~3 × coarser than the level read); more: GDAL
MAPS_BYTES = 128_000_000  # the kept maps together (~24 bytes a cell: a year's dates of a few tiles of another zone)
LATTICE_STEP = 16  # corners transformed exactly every 16 cells (~1 km at 60 m), interpolated linearly between
BUILD_ROWS = 64  # grid rows a step of a map's making works on: a whole grid's temporaries paged in ~70 MB afresh


_SCRATCH_KEPT = 2  # scratch sets kept for the next average (threads compute 3 at a time: cog_reader's turns)
_SCRATCH_BYTES = 48_000_000  # a larger set (a window of ~3,000 × 3,000 pixels) is not kept: QGIS would hold it
_scratch: list[dict[str, np.ndarray]] = []
_scratch_lock = threading.Lock()


@dataclass(frozen=True)
class _AverageMap:
    first: np.ndarray  # int32 (cells): flat index in the padded source of the first pixel of each cell's box
    offsets: list[tuple[int, int]]  # (row, column) of each pixel of a box from its first
    weights: list[np.ndarray]  # float32 (cells), one an offset: how much of that pixel the cell's box covers
    inside: np.ndarray  # float32 (cells): the weights of the box's pixels on the source, all added up
    pad: int  # invalid pixels around the source: every box's pixels lie within
    stride: int  # the padded source's row length

    @property
    def nbytes(self) -> int:
        return self.first.nbytes + sum(w.nbytes for w in self.weights) + self.inside.nbytes


_maps = KeptMaps(16, MAPS_BYTES)  # (tile window, grid) -> its _AverageMap (None: GDAL warps that pair)


def average(mem: Any, grid: Grid, nodata: float | None, warp: Callable[[Any, Grid], np.ndarray]) -> np.ndarray:
    """The grid's cells from `mem` (a one-band dataset in memory over a numpy array) as area-weighted means of the
    valid source pixels (float32, NaN off the source, at nodata and where no valid pixel lies);
    `warp(dataset, grid)` is GDAL's average warp, taken where a cell spans more pixels than MAX_OFFSETS."""
    key = (mem.GetProjectionRef(), mem.GetGeoTransform(), mem.RasterXSize, mem.RasterYSize, grid)
    kept = _maps.get(key, lambda: _build(mem, grid))
    if kept is None:  # the cells span too many pixels, or their corners cannot be drawn in the source's CRS
        return warp(mem, grid)
    source = getattr(mem, "samples", None)
    if source is None:
        source = mem.GetRasterBand(1).ReadAsArray()
    return _apply(kept, source, nodata).reshape(grid.height, grid.width)


def _apply(kept: _AverageMap, source: np.ndarray, nodata: float | None) -> np.ndarray:
    with _scratch_lock:
        scratch = _scratch.pop() if _scratch else {}
    try:
        return _average(kept, source, nodata, scratch)
    finally:
        with _scratch_lock:
            if len(_scratch) < _SCRATCH_KEPT and sum(a.nbytes for a in scratch.values()) <= _SCRATCH_BYTES:
                _scratch.append(scratch)


def _array(scratch: dict[str, np.ndarray], name: str, size: int, dtype: type) -> np.ndarray:
    """`size` elements of the scratch array `name` (made larger when too small): memory already paged in, where a
    fresh array of each call was paged in afresh, and a process's first question paid a third more for it."""
    held = scratch.get(name)
    if held is None or held.size < size:
        held = scratch[name] = np.empty(size, dtype)
    return held[:size]


def _average(kept: _AverageMap, source: np.ndarray, nodata: float | None, scratch: dict) -> np.ndarray:
    p = kept.pad
    shape = (source.shape[0] + 2 * p, source.shape[1] + 2 * p)
    values = _array(scratch, "values", shape[0] * shape[1], np.float32).reshape(shape)
    _zero_border(values, p)
    inner = values[p:shape[0] - p, p:shape[1] - p]
    np.copyto(inner, source, casting="unsafe")
    invalid = None
    if nodata is not None:
        invalid = source == nodata
    if source.dtype.kind == "f":
        invalid = ~np.isfinite(source) if invalid is None else invalid | ~np.isfinite(source)
    valid = None
    if invalid is not None and invalid.any():  # the pixels that count, 1 or 0 (the padding: 0)
        if nodata != 0 or source.dtype.kind == "f":  # (nodata 0 is 0 already; NaN is not)
            np.copyto(inner, 0.0, where=invalid)
        valid = _array(scratch, "valid", shape[0] * shape[1], np.float32).reshape(shape)
        _zero_border(valid, p)
        np.logical_not(invalid, out=valid[p:shape[0] - p, p:shape[1] - p], casting="unsafe")
    flat, flat_valid = values.ravel(), None if valid is None else valid.ravel()
    cells = kept.first.size
    total = np.zeros(cells, np.float32)  # the result: its own array
    weight = None if valid is None else _array(scratch, "weight", cells, np.float32)
    if weight is not None:
        weight[:] = 0.0
    index, picked = _array(scratch, "index", cells, np.int32), _array(scratch, "picked", cells, np.float32)
    for (dy, dx), w in zip(kept.offsets, kept.weights):
        np.add(kept.first, dy * kept.stride + dx, out=index)
        np.take(flat, index, out=picked, mode="clip")  # every index is in the padded source: no check
        picked *= w
        total += picked
        if weight is not None:
            np.take(flat_valid, index, out=picked, mode="clip")
            picked *= w
            weight += picked
    if weight is None:
        weight = kept.inside
    with np.errstate(invalid="ignore", divide="ignore"):
        total /= weight
    total[weight <= 0] = np.nan
    return total


def _zero_border(values: np.ndarray, p: int) -> None:
    values[:p], values[-p:], values[:, :p], values[:, -p:] = 0.0, 0.0, 0.0, 0.0


def _build(mem: Any, grid: Grid) -> _AverageMap | None:
    edges = _edges_in_source(mem, grid)
    if edges is None:
        return None
    px, py = edges  # the middles of the cells' left and right edges (columns), top and bottom edges (rows)
    height, width = grid.height, grid.width
    steps = [(top, min(height, top + BUILD_ROWS)) for top in range(0, height, BUILD_ROWS)]
    span_x = max(_span(*_box(px[a:b, :-1], px[a:b, 1:])) for a, b in steps)
    span_y = max(_span(*_box(py[a:b], py[a + 1:b + 1])) for a, b in steps)
    if span_x > MAX_OFFSETS or span_y > MAX_OFFSETS or span_x * span_y > MAX_OFFSETS:
        return None
    pad = max(span_x, span_y)
    stride = mem.RasterXSize + 2 * pad
    offsets = [(dy, dx) for dy in range(span_y) for dx in range(span_x)]
    first, inside = np.empty((height, width), np.int32), np.empty((height, width), np.float32)
    weights = [np.empty((height, width), np.float32) for _ in offsets]
    for a, b in steps:  # a few rows at a time: the temporaries stay small, the map is all that is paged in
        x0, x1 = _box(px[a:b, :-1], px[a:b, 1:])
        y0, y1 = _box(py[a:b], py[a + 1:b + 1])
        c0, r0 = np.floor(x0), np.floor(y0)
        wx, wy = _weights(x0, x1, c0, span_x), _weights(y0, y1, r0, span_y)
        on = _on_source(x0, x1, mem.RasterXSize)
        on *= _on_source(y0, y1, mem.RasterYSize)
        off = (c0 < -pad) | (c0 + span_x > mem.RasterXSize + pad) | (r0 < -pad) | (r0 + span_y > mem.RasterYSize + pad)
        if off.any():  # off the source: its pixels any, with no weight (NaN)
            c0[off], r0[off], on[off] = 0.0, 0.0, 0.0
            for w in wx:
                w[off] = 0.0
        row_first = (r0 + pad).astype(np.int32)
        row_first *= stride
        row_first += (c0 + pad).astype(np.int32)
        first[a:b], inside[a:b] = row_first, on
        for (dy, dx), kept in zip(offsets, weights):
            np.multiply(wy[dy], wx[dx], out=kept[a:b])
    return _AverageMap(first.ravel(), offsets, [w.ravel() for w in weights], inside.ravel(), pad, stride)


def _box(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.minimum(a, b), np.maximum(a, b)


def _span(start: np.ndarray, end: np.ndarray) -> int:
    """Pixels the widest box [start, end] reaches along one axis, from its first pixel's start (at least 1)."""
    reach = end - np.floor(start)
    return max(1, int(np.ceil(reach.max(initial=1.0))))


def _weights(start: np.ndarray, end: np.ndarray, first: np.ndarray, span: int) -> list[np.ndarray]:
    """How much of each pixel (first, first + 1, … `span` of them) the boxes [start, end] cover along one axis."""
    reach = end - first  # the box's end past its first pixel's start
    weights = [np.minimum(reach, 1.0) - (start - first)]
    for k in range(1, span):
        w = reach - k
        np.maximum(w, 0.0, out=w)
        np.minimum(w, 1.0, out=w)  # (np.clip is several times slower on numpy 1.24)
        weights.append(w)
    return weights


def _on_source(start: np.ndarray, end: np.ndarray, size: int) -> np.ndarray:
    """How much of each box [start, end] lies on the source (0 … size) along one axis: its pixels' weights there."""
    inside = np.minimum(end, np.float32(size))
    inside -= np.maximum(start, np.float32(0.0))
    np.maximum(inside, 0.0, out=inside)
    return inside


def _edges_in_source(mem: Any, grid: Grid) -> tuple[np.ndarray, np.ndarray] | None:
    """The source's column at the middle of each cell's left edge and of the last cell's right edge (height ×
    width + 1), and its row at the middle of each cell's top edge and of the last cell's bottom edge (height + 1 ×
    width), float32. The cells' corners are transformed exactly every LATTICE_STEP cells and linearly between
    (two neighbouring UTM zones bend by less than a thousandth of a pixel over that)."""
    from osgeo import osr

    src, dst = osr.SpatialReference(), osr.SpatialReference()
    if src.ImportFromWkt(grid.crs_wkt) != 0 or dst.ImportFromWkt(mem.GetProjectionRef()) != 0:
        return None
    for srs in (src, dst):
        srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    sgt = mem.GetGeoTransform()
    if sgt[2] or sgt[4]:
        return None
    gx0, gdx, _, gy0, _, gdy = grid.geotransform
    cols = np.unique(np.r_[np.arange(0, grid.width + 1, LATTICE_STEP), grid.width])
    rows = np.unique(np.r_[np.arange(0, grid.height + 1, LATTICE_STEP), grid.height])
    xs, ys = np.meshgrid(gx0 + cols * gdx, gy0 + rows * gdy)
    try:
        moved = np.asarray(osr.CoordinateTransformation(src, dst).TransformPoints(
            np.column_stack([xs.ravel(), ys.ravel()]).tolist()), float)
    except (RuntimeError, TypeError):
        return None
    if not np.isfinite(moved[:, :2]).all():
        return None
    px = ((moved[:, 0] - sgt[0]) / sgt[1]).reshape(xs.shape)
    py = ((moved[:, 1] - sgt[3]) / sgt[5]).reshape(xs.shape)
    middles_down, middles_across = np.arange(grid.height) + 0.5, np.arange(grid.width) + 0.5
    return (_spread(px, rows, cols, middles_down, np.arange(grid.width + 1.0)),
            _spread(py, rows, cols, np.arange(grid.height + 1.0), middles_across))


def _spread(lattice: np.ndarray, rows: np.ndarray, cols: np.ndarray, at_rows: np.ndarray, at_cols: np.ndarray
            ) -> np.ndarray:
    """Values on the lattice's rows and columns, linearly interpolated at the rows and columns asked (float32)."""
    down = _linear(rows, at_rows)
    across = _linear(cols, at_cols)
    small = (lattice[down[0]] * (1 - down[1])[:, None] + lattice[down[0] + 1] * down[1][:, None]).astype(np.float32)
    out = small[:, across[0]]
    out *= (1 - across[1]).astype(np.float32)
    right = small[:, across[0] + 1]
    right *= across[1].astype(np.float32)
    out += right
    return out


def _linear(knots: np.ndarray, at: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each position: the knot before it and how far it lies towards the next (0 … 1; a single knot: 0)."""
    if len(knots) == 1:
        return np.zeros(at.size, int), np.zeros(at.size)
    k = np.clip(np.searchsorted(knots, at, side="right") - 1, 0, len(knots) - 2)
    return k, (at - knots[k]) / (knots[k + 1] - knots[k])
