"""The collection statistics chart as the analyst reads it: periods on a time axis, a month without a value
(overcast November, a month without any item) a gap in the line at its place in time, and date labels that
do not overlap. Checked on the rendered pixels and on matplotlib's own text boxes."""

from __future__ import annotations

import math

import numpy as np

from stacgis_agent.tools.analysis.charts import period_start, time_series_figure


def _months(values: dict[str, float | None]) -> tuple[list[str], list[float | None]]:
    return list(values), list(values.values())


def _line_pixels(fig, line, x_display: float) -> int:
    """Pixels of the line's colour in the plot's column at display x (the figure's own rendering)."""
    from matplotlib.colors import to_rgb

    fig.canvas.draw()
    image = np.asarray(fig.canvas.buffer_rgba())[:, :, :3].astype(int)
    height = image.shape[0]
    ax = fig.axes[0]
    box = ax.get_window_extent()
    column = image[int(height - box.y1) + 2:int(height - box.y0) - 2, int(round(x_display))]
    colour = np.array([round(255 * c) for c in to_rgb(line.get_color())])
    return int((np.abs(column - colour).sum(axis=1) < 60).sum())


def test_an_overcast_november_is_a_gap_at_its_place_not_october_joined_to_december():
    # every month of 2023 but November (fully cloudy: a row without a mean) and August (no item at all)
    values = {f"2023-{m:02d}": 0.3 + 0.04 * m for m in range(1, 13) if m != 8}
    values["2023-11"] = None
    periods, means = _months(values)
    fig = time_series_figure("NDVI", periods, {"mean": means}, "month", "NDVI")
    ax = fig.axes[0]
    line = ax.get_lines()[0]
    days = [d.isoformat() if hasattr(d, "isoformat") else str(d) for d in line.get_xdata()]
    assert days[0] == "2023-01-01" and days[-1] == "2023-12-01" and len(days) == 12  # August has its place too
    y = list(line.get_ydata())
    assert math.isnan(y[days.index("2023-11-01")]) and math.isnan(y[days.index("2023-08-01")])
    # on the picture: between October and December, where November is, no pixel of the line
    to_display = ax.transData.transform
    import matplotlib.dates as mdates

    oct_x, nov_x, dec_x = (to_display((mdates.date2num(period_start(p)), 0))[0]
                           for p in ("2023-10", "2023-11", "2023-12"))
    assert oct_x < nov_x < dec_x and abs((nov_x - oct_x) - (dec_x - nov_x)) < 0.1 * (dec_x - oct_x)  # a time axis
    assert _line_pixels(fig, line, (oct_x + nov_x) / 2) == 0
    assert _line_pixels(fig, line, (nov_x + dec_x) / 2) == 0
    may_x, jun_x = (to_display((mdates.date2num(period_start(p)), 0))[0] for p in ("2023-05", "2023-06"))
    assert _line_pixels(fig, line, (may_x + jun_x) / 2) > 0  # where months follow each other, the line is drawn


def _overlaps(boxes) -> list[tuple[int, int]]:
    return [(i, j) for i in range(len(boxes)) for j in range(i + 1, len(boxes)) if boxes[i].overlaps(boxes[j])]


def test_date_labels_never_overlap_for_dates_weeks_or_months():
    import datetime as dt

    cases = {
        "date": [(dt.date(2023, 1, 3) + dt.timedelta(days=5 * k)).isoformat() for k in range(73)],
        "week": [f"2023-W{w:02d}" for w in range(1, 53)],
        "month": [f"{y}-{m:02d}" for y in (2022, 2023) for m in range(1, 13)],
    }
    for group_by, periods in cases.items():
        fig = time_series_figure("NDVI over a long area name — sentinel-2-l2a", periods,
                                 {"mean": [0.5] * len(periods), "median": [0.52] * len(periods)}, group_by, "NDVI")
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        labels = [t for t in fig.axes[0].get_xticklabels() if t.get_visible() and t.get_text()]
        assert len(labels) >= 3, group_by
        boxes = [t.get_window_extent(renderer) for t in labels]
        assert _overlaps(boxes) == [], (group_by, [t.get_text() for t in labels])
        width = fig.get_window_extent().width
        assert all(b.x0 >= 0 and b.x1 <= width for b in boxes), group_by  # none cut off at the edges


def test_weeks_and_dates_start_where_the_analyst_expects():
    assert period_start("2024-W01").isoformat() == "2024-01-01"
    assert period_start("2025-W01").isoformat() == "2024-12-30"
    assert period_start("2024-06").isoformat() == "2024-06-01"
    assert period_start("2024-06-15").isoformat() == "2024-06-15"
