"""A period's median is numpy's median of all its dates' values, found without joining them into one array."""

from __future__ import annotations

import numpy as np
import pytest

from stacgis_agent.tools.engine.date_stats import _median_of_parts


def _cases():
    rng = np.random.default_rng(7)
    normal = rng.normal(0.4, 0.2, 300_001).astype(np.float32)
    yield "one date, odd count", [normal]
    yield "three dates, even count", np.array_split(normal[:-1], 3)
    # every 64th value is the sample: dates sorted so that the sample is as unlike the whole as it can be
    ordered = np.sort(normal)
    yield "sorted dates", [ordered[:100_000], ordered[100_000:]][::-1]
    yield "a few distinct values (a classified band)", [rng.integers(0, 4, 250_000).astype(np.float32),
                                                         rng.integers(2, 6, 70_001).astype(np.float32)]
    yield "one value everywhere", [np.full(200_000, 0.25, np.float32), np.full(10, 0.25, np.float32)]
    yield "skewed, with empty dates", [np.empty(0, np.float32), rng.exponential(1, 123_457).astype(np.float32),
                                       np.empty(0, np.float32), -rng.exponential(5, 9_000).astype(np.float32)]
    yield "a handful of values", [np.array([3, 1], np.float32), np.array([2, 8, 5, 5], np.float32)]
    yield "the sample's spacing repeats a pattern", [np.tile(np.arange(64, dtype=np.float32), 5_000)]


@pytest.mark.parametrize(("name", "parts"), list(_cases()), ids=[name for name, _parts in _cases()])
def test_the_median_of_a_periods_dates_is_numpys_median_of_all_their_values(name, parts):
    expected = float(np.median(np.concatenate(parts).astype(np.float64)))
    kept = [p.copy() for p in parts]
    assert _median_of_parts(parts) == pytest.approx(expected, abs=1e-7)
    assert all(np.array_equal(p, k) for p, k in zip(parts, kept))  # the dates' own values are left as they were
