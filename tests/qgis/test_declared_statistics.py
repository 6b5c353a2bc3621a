"""A catalog's raster:bands statistics feed the stretch in the units QGIS draws, whichever way the
catalog counted them: Planet states raw counts (1962..32925, drawn as 19.6..329 with scale 0.01), the
shipped demo NDVI states scaled values (-0.3..0.73 for int16 with scale 0.0001)."""

from __future__ import annotations

import pytest

from stacgis_agent.tools.canvas.layers.mosaic import declared_range


@pytest.mark.parametrize(("stats", "scale", "seen", "expected"), [
    ({"minimum": 1962, "maximum": 32925}, 0.01, (20.1, 327.0), (19.62, 329.25)),   # raw counts, Planet
    ({"minimum": -0.3, "maximum": 0.73}, 0.0001, (-0.29, 0.72), (-0.3, 0.73)),     # already scaled, demo NDVI
    ({"minimum": 1962, "maximum": 32925}, 0.01, None, (19.62, 329.25)),             # no sample: integral = raw
    ({"minimum": -0.3, "maximum": 0.73}, 0.0001, None, (-0.3, 0.73)),               # no sample: fractions = scaled
    ({"minimum": 0, "maximum": 255}, None, (0.0, 255.0), (0.0, 255.0)),             # no scale: as stated
])
def test_statistics_are_in_the_units_the_renderer_draws(stats, scale, seen, expected):
    low, high = declared_range(stats, scale, 0.0, seen)
    assert low == pytest.approx(expected[0]) and high == pytest.approx(expected[1])
