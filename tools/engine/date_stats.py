"""Per-date mosaics and their statistics: numpy only.

Items of one date are already on one grid; where tiles overlap the first valid pixel wins (in the
items' sort order), so no pixel is counted twice, and a cell any tile of the date flags as cloud is left out
(one tile's "clear" does not override another's "cloud"). A period (week, month) pools its dates' mosaics.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

STAT_COLUMNS = ("period", "items", "mean", "median", "min", "max", "std", "valid_fraction", "valid_pixels",
                "cloud_excluded_pixels")


@dataclass
class PeriodAccumulator:
    """Everything one period (a date, a week or a month) needs for its statistics."""
    area: np.ndarray  # bool: grid pixels inside the area
    items: int = 0
    values: list[np.ndarray] = field(default_factory=list)  # valid values of each date mosaic
    ever_valid: np.ndarray | None = None  # area pixels with at least one valid value
    cloud_excluded: int = 0

    def add_date(self, results: list[Any]) -> None:
        """One date's item results (any order): mosaic them, then keep the valid values."""
        self.items += len(results)
        mosaic, observed = mosaic_of(results, self.area.shape)
        flagged = cloud_flags(results, self.area.shape)
        valid = np.isfinite(mosaic) & self.area
        self.values.append(mosaic[valid])
        self.ever_valid = valid if self.ever_valid is None else (self.ever_valid | valid)
        self.cloud_excluded += int((observed & self.area & flagged).sum())

    def row(self, period: str) -> dict[str, Any]:
        values = np.concatenate(self.values) if self.values else np.empty(0, np.float32)
        area_pixels = int(self.area.sum())
        row: dict[str, Any] = {"period": period, "items": self.items, "valid_pixels": int(values.size),
                               "cloud_excluded_pixels": self.cloud_excluded}
        covered = int(self.ever_valid.sum()) if self.ever_valid is not None else 0
        row["valid_fraction"] = round(covered / area_pixels, 4) if area_pixels else 0.0
        if values.size:  # sums in float64, without a float64 copy of every value (millions per date)
            mean = float(np.mean(values, dtype=np.float64))
            row.update(mean=mean, median=_median(values), min=float(values.min()), max=float(values.max()),
                       std=_std(values, mean))
        else:
            row.update(mean=None, median=None, min=None, max=None, std=None)
        return row


def _std(values: np.ndarray, mean: float) -> float:
    deviations = values - np.float32(mean)
    deviations *= deviations
    return float(np.sqrt(np.mean(deviations, dtype=np.float64)))


def _median(values: np.ndarray) -> float:
    """numpy's median (the mean of the two middle values when there is an even number), partitioning `values`
    in place: they are this period's own copy."""
    n = values.size
    middle = n // 2
    if n % 2:
        values.partition(middle)
        return float(values[middle])
    values.partition((middle - 1, middle))
    return (float(values[middle - 1]) + float(values[middle])) / 2


def mosaic_of(results: list[Any], shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """(values, observed): the first valid value per cell in sort order, NaN where any item's cloud mask flags
    the cell; where any item had data. Each result covers its own part of the grid (`window`)."""
    mosaic = np.full(shape, np.nan, np.float32)
    observed = np.zeros(shape, bool)
    for result in sorted(results, key=lambda r: (r.sort_key, r.item_id)):
        if result.values is None:
            continue
        view = _view(result)
        target = mosaic[view]
        empty = np.isnan(target) & np.isfinite(result.values)
        target[empty] = result.values[empty]
        observed[view] |= result.observed
    mosaic[cloud_flags(results, shape)] = np.nan
    return mosaic, observed


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
