"""Per-date mosaics and their statistics: numpy only.

Items of one date are already on one grid; where tiles overlap the item that saw most of a cell clear gives its
value (the first in the items' sort order among equals), so no pixel is counted twice, and a cell a cloud of any
tile of the date touches is left out of the values (one tile's "clear" does not override another's "cloud": the
cell's band average holds cloud). With a cloud mask, each cell counts for the share of it the mask samples say is
clear: a cell half in a swath or half under a cloud is half a valid pixel, so partly covered cells neither vanish
from the count nor weigh as much as whole ones in the mean. A period (week, month) pools its dates' mosaics.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

NO_SAMPLE, CLEAR, CLOUD = 0, 1, 2  # what a cloud-mask sample says: nothing (no data there), a clear sky, a cloud
STAT_COLUMNS = ("period", "items", "mean", "median", "min", "max", "std", "valid_fraction", "valid_pixels",
                "cloud_excluded_pixels")


@dataclass
class PeriodAccumulator:
    """Everything one period (a date, a week or a month) needs for its statistics."""
    area: np.ndarray  # bool: grid pixels inside the area
    items: int = 0
    values: list[np.ndarray] = field(default_factory=list)  # valid values of each date mosaic
    weights: list[np.ndarray | None] = field(default_factory=list)  # each value's clear share; None: all whole
    ever_valid: np.ndarray | None = None  # area pixels with at least one valid value
    clear_cells: float = 0.0  # the clear shares of every observed cell added up (cells a cloud touches included)
    cloud_excluded: float = 0.0  # the cloudy shares of observed cells added up
    # a date's grid-sized arrays, reused by the next date: fresh ones are paged in afresh (~12 ms a MB here)
    scratch: dict[str, np.ndarray] = field(default_factory=dict, repr=False, compare=False)

    def add_date(self, results: list[Any]) -> None:
        """One date's item results (any order): mosaic them, then keep the valid values and their weights."""
        self.items += len(results)
        shape, scratch = self.area.shape, self.scratch
        date = mosaic_date(results, shape, scratch)
        valid = np.isfinite(date.values, out=_buffer(scratch, "valid", shape, bool))
        valid &= self.area
        self.values.append(date.values[valid])
        seen = np.logical_and(date.observed, self.area, out=_buffer(scratch, "seen", shape, bool))
        if date.clear is None:  # no mask, or one sample a cell: each cell with a value is one whole valid pixel
            self.weights.append(None)
            self.clear_cells += float(np.count_nonzero(valid))
            self.cloud_excluded += float(np.count_nonzero(
                np.logical_and(seen, date.flagged, out=_buffer(scratch, "counted", shape, bool))))
            counted = valid
        else:
            shares = date.clear[valid]
            # whole cells only (full resolution, mostly): no weights kept, none concatenated (a month's 100 MB)
            self.weights.append(None if not shares.size or shares.min() == 1 else shares)
            self.clear_cells += float(date.clear[seen].sum(dtype=np.float64))
            self.cloud_excluded += float(date.cloudy[seen].sum(dtype=np.float64))
            counted = np.greater(date.clear, 0, out=_buffer(scratch, "counted", shape, bool))
            counted &= seen
        if self.ever_valid is None:
            self.ever_valid = counted.copy()
        else:
            self.ever_valid |= counted

    def row(self, period: str) -> dict[str, Any]:
        parts = [v for v in self.values if v.size]
        whole = all(w is None for w in self.weights)  # no copy of millions of ones at full resolution
        area_pixels = int(self.area.sum())
        row: dict[str, Any] = {"period": period, "items": self.items, "valid_pixels": round(self.clear_cells),
                               "cloud_excluded_pixels": round(self.cloud_excluded)}
        covered = int(self.ever_valid.sum()) if self.ever_valid is not None else 0
        row["valid_fraction"] = round(covered / area_pixels, 4) if area_pixels else 0.0
        row.update(mean=None, median=None, min=None, max=None, std=None)
        if not parts:
            return row
        if whole:  # the dates' values as they are: a month at full resolution is never copied into one array
            count = sum(v.size for v in parts)
            mean = sum(float(np.sum(v, dtype=np.float64)) for v in parts) / count
            row.update(mean=mean, median=_median_of_parts(parts), min=min(float(v.min()) for v in parts),
                       max=max(float(v.max()) for v in parts),
                       std=float(np.sqrt(sum(_squares(v, mean) for v in parts) / count)))
            return row
        values = np.concatenate(parts)
        weights = np.concatenate(
            [np.ones(v.size, np.float32) if w is None else w for v, w in zip(self.values, self.weights) if v.size])
        if weights.sum(dtype=np.float64) > 0:
            whole = bool((weights == 1).all())  # sums in float64, without a float64 copy of the values
            mean = float(np.mean(values, dtype=np.float64)) if whole else _weighted_mean(values, weights)
            row.update(mean=mean, median=_median_of_parts([values]) if whole else _weighted_median(values, weights),
                       min=float(values.min()), max=float(values.max()), std=_std(values, mean, weights, whole))
        return row


STAT_CHUNK = 1 << 20  # values at a time in the passes over a period's values: their temporaries (4 MB) are
# reused, where one the size of a month at full resolution (17 M values, 68 MB) was memory mapped afresh each time
# (0.5 s of page faults for one subtraction on this machine)


def _weighted_mean(values: np.ndarray, weights: np.ndarray) -> float:
    total = sum(float(np.sum(values[i:i + STAT_CHUNK] * weights[i:i + STAT_CHUNK], dtype=np.float64))
                for i in range(0, values.size, STAT_CHUNK))
    return total / float(np.sum(weights, dtype=np.float64))


def _std(values: np.ndarray, mean: float, weights: np.ndarray, whole: bool) -> float:
    total, centre = 0.0, np.float32(mean)
    for i in range(0, values.size, STAT_CHUNK):
        deviations = values[i:i + STAT_CHUNK] - centre
        deviations *= deviations
        if not whole:
            deviations *= weights[i:i + STAT_CHUNK]
        total += float(np.sum(deviations, dtype=np.float64))
    return float(np.sqrt(total / (values.size if whole else float(np.sum(weights, dtype=np.float64)))))


def _squares(values: np.ndarray, mean: float) -> float:
    """The sum of the values' squared deviations from `mean`, in float64."""
    total, centre = 0.0, np.float32(mean)
    for i in range(0, values.size, STAT_CHUNK):
        deviations = values[i:i + STAT_CHUNK] - centre
        deviations *= deviations
        total += float(np.sum(deviations, dtype=np.float64))
    return total


MEDIAN_SAMPLE_STEP = 64  # every 64th value tells where the middle values lie; the values between are gathered


def _median_of_parts(parts: list[np.ndarray]) -> float:
    """numpy's median of the parts' values together (the mean of the two middle values when there is an even
    number), without joining them: a sample of every MEDIAN_SAMPLE_STEP-th value brackets the middle values, the
    values below the bracket are counted and those inside it gathered and partitioned; when the bracket misses
    (it never should), all values are joined. Joining a month at full resolution paged in 80 MB afresh."""
    count = sum(v.size for v in parts)
    ranks = (count // 2,) if count % 2 else (count // 2 - 1, count // 2)
    sample = np.sort(np.concatenate([v[::MEDIAN_SAMPLE_STEP] for v in parts]))
    if count > 64 * MEDIAN_SAMPLE_STEP:
        at = ranks[0] * sample.size // count
        margin = 4 * int(math.sqrt(sample.size)) + 8  # a sample quantile's spread is about its square root
        low, high = sample[max(0, at - margin)], sample[min(sample.size - 1, at + margin)]
        below = sum(int(np.count_nonzero(v < low)) for v in parts)
        inside = np.concatenate([v[(v >= low) & (v <= high)] for v in parts])
        if below <= ranks[0] and ranks[-1] < below + inside.size:
            return _middle(inside, [r - below for r in ranks])
    return _middle(np.concatenate(parts), list(ranks))


def _middle(values: np.ndarray, ranks: list[int]) -> float:
    """The mean of the values of these ranks (one or two), partitioning `values` in place."""
    values.partition(ranks)
    return sum(float(values[r]) for r in ranks) / len(ranks)


def _weighted_median(values: np.ndarray, weights: np.ndarray) -> float:
    """The value below which half the clear area lies (cells weighted by their clear share)."""
    order = np.argsort(values, kind="stable")
    cumulative = np.cumsum(weights[order], dtype=np.float64)
    half = cumulative[-1] / 2
    at = int(np.searchsorted(cumulative, half))
    if abs(cumulative[at] - half) < 1e-9 * cumulative[-1] and at + 1 < values.size:  # exactly between two
        return (float(values[order[at]]) + float(values[order[at + 1]])) / 2
    return float(values[order[at]])


@dataclass
class DateMosaic:
    values: np.ndarray  # float32: each cell's value, NaN where no item has a clear value or a cloud touches it
    observed: np.ndarray  # bool: an item has data there
    flagged: np.ndarray  # bool: a cloud of any item with data there touches the cell
    clear: np.ndarray | None = None  # float32: the share of the cell the date's mask samples say is clear
    cloudy: np.ndarray | None = None  # float32: the share under a cloud


def mosaic_of(results: list[Any], shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """(values, observed) of one date's mosaic (mosaic_date)."""
    date = mosaic_date(results, shape)
    return date.values, date.observed


def _buffer(scratch: dict[str, np.ndarray] | None, name: str, shape: tuple[int, int], dtype: Any) -> np.ndarray:
    """The array `name` of `scratch` (made there the first time), or a fresh one without scratch."""
    if scratch is None:
        return np.empty(shape, dtype)
    kept = scratch.get(name)
    if kept is None or kept.shape != shape or kept.dtype != dtype:
        kept = scratch[name] = np.empty(shape, dtype)
    return kept


def mosaic_date(results: list[Any], shape: tuple[int, int],
                scratch: dict[str, np.ndarray] | None = None) -> DateMosaic:
    """One date's items on the grid: per cell the value of the item that saw most of it clear (the first in sort
    order among equals), NaN where any item's cloud touches the cell; where any item had data; and, when the
    items have mask samples, the date's clear and cloudy share of each cell (all items' samples merged: a cloud
    wins over a clear sky, a clear sky over no data)."""
    mosaic = _buffer(scratch, "mosaic", shape, np.float32)  # `scratch`: valid until its next date
    mosaic.fill(np.nan)
    observed = _buffer(scratch, "observed", shape, bool)
    observed.fill(False)
    if all(getattr(r, "samples", 1) == 1 for r in results if r.values is not None):
        # one mask sample a cell (full resolution): a cell is clear or not, the first valid value wins, and the
        # counts are the cells' own (no shares: a date of millions of cells costs no float copies of them)
        for result in sorted(results, key=lambda r: (r.sort_key, r.item_id)):
            if result.values is not None:
                target = mosaic[_view(result)]
                empty = np.isnan(target) & np.isfinite(result.values)
                target[empty] = result.values[empty]
                observed[_view(result)] |= result.observed
        flagged = cloud_flags(results, shape)
        mosaic[flagged] = np.nan
        return DateMosaic(mosaic, observed, flagged)
    best = np.full(shape, -1.0, np.float32)
    for result in sorted(results, key=lambda r: (r.sort_key, r.item_id)):
        if result.values is None:
            continue
        view = _view(result)
        share = _cell_shares(result.sky, result.samples, CLEAR) if _has_sky(result) else None
        own = np.where(np.isfinite(result.values), 1.0 if share is None else share, -1.0)
        better = own > best[view]
        mosaic[view] = np.where(better, result.values, mosaic[view])
        best[view] = np.maximum(best[view], own)
        observed[view] |= result.observed
    flagged = cloud_flags(results, shape)
    mosaic[flagged] = np.nan
    clear, cloudy = _sky_shares(results, shape)
    return DateMosaic(mosaic, observed, flagged, clear, cloudy)


def _has_sky(result: Any) -> bool:
    return getattr(result, "sky", None) is not None


def _cell_shares(codes: np.ndarray, k: int, code: int) -> np.ndarray:
    """The share of each cell's k × k samples that say `code` (float32: the count over k², as numpy's mean)."""
    return cell_counts(codes, k, code).astype(np.float32) / np.float32(k * k)


_WORDS = {2: (np.uint16, 0x0101, 8), 4: (np.uint32, 0x01010101, 24), 8: (np.uint64, 0x0101010101010101, 56)}


def _along_rows(codes: np.ndarray, k: int, code: int) -> np.ndarray:
    """(cells down, k, cells across): each cell's k samples of one row as one machine word of k bytes 0/1."""
    rows, cols = codes.shape
    hits = np.ascontiguousarray(codes == code).view(np.uint8)
    return hits.reshape(-1, k).view(_WORDS[k][0]).reshape(rows // k, k, cols // k)


def cell_counts(codes: np.ndarray, k: int, code: int) -> np.ndarray:
    """How many of each cell's k × k samples say `code` (k = 2, 4, 8: the bytes of a word summed by one
    multiplication; 2–3× faster than a sum over the samples' axes, at 4 M samples a date)."""
    rows, cols = codes.shape
    if k not in _WORDS:
        return (codes == code).reshape(rows // k, k, cols // k, k).sum(axis=(1, 3), dtype=np.uint16)
    word, ones, shift = _WORDS[k]
    words = _along_rows(codes, k, code)
    per_row = ((words * word(ones)) >> word(shift)).astype(np.uint8)  # the bytes' sum sits in the top byte
    return per_row.sum(axis=1, dtype=np.uint16)


def cell_any(codes: np.ndarray, k: int, code: int) -> np.ndarray:
    """Whether any of each cell's k × k samples says `code`."""
    rows, cols = codes.shape
    if k not in _WORDS:
        return (codes == code).reshape(rows // k, k, cols // k, k).any(axis=(1, 3))
    return np.bitwise_or.reduce(_along_rows(codes, k, code), axis=1) != 0


def _sky_shares(results: list[Any], shape: tuple[int, int]) -> tuple[np.ndarray | None, np.ndarray | None]:
    """(clear share, cloudy share) of each cell from every item's mask samples; (None, None) without a mask."""
    with_sky = [r for r in results if r.values is not None and _has_sky(r)]
    if not with_sky:
        return None, None
    ks = {r.samples for r in with_sky}
    if len(ks) == 1:  # one sample grid for every item: merge the samples themselves
        k = ks.pop()
        merged = np.zeros((shape[0] * k, shape[1] * k), np.uint8)  # CLOUD > CLEAR > NO_SAMPLE: the largest wins
        for result in with_sky:
            row, col = result.window
            rows, cols = result.sky.shape
            view = merged[row * k:row * k + rows, col * k:col * k + cols]
            np.maximum(view, result.sky, out=view)
        return _cell_shares(merged, k, CLEAR), _cell_shares(merged, k, CLOUD)
    clear, cloudy = np.zeros(shape, np.float32), np.zeros(shape, np.float32)  # masks of several resolutions
    for result in with_sky:
        view = _view(result)
        np.maximum(cloudy[view], _cell_shares(result.sky, result.samples, CLOUD), out=cloudy[view])
        np.maximum(clear[view], _cell_shares(result.sky, result.samples, CLEAR), out=clear[view])
    return np.minimum(clear, 1 - cloudy), cloudy


def cloud_flags(results: list[Any], shape: tuple[int, int]) -> np.ndarray:
    """Cells the cloud mask of any item flags."""
    flagged = np.zeros(shape, bool)
    for result in results:
        if result.values is not None and getattr(result, "flagged", None) is not None:
            flagged[_view(result)] |= result.flagged
    return flagged


def _view(result: Any) -> tuple[slice, slice]:
    """Where a result's arrays lie on the grid (the whole grid for a result without a window)."""
    row, col = getattr(result, "window", (0, 0))
    rows, cols = result.values.shape
    return np.s_[row:row + rows, col:col + cols]


def period_of(date: str, group_by: str) -> str:
    """'2024-06-15' -> itself ('date'), '2024-06' ('month') or '2024-W24' ('week', ISO)."""
    if group_by == "month":
        return date[:7]
    if group_by == "week":
        import datetime as dt

        year, week, _ = dt.date.fromisoformat(date[:10]).isocalendar()
        return f"{year}-W{week:02d}"
    return date[:10]
