"""generate_chart: line/bar/scatter/pie charts rendered to PNG with matplotlib's Agg canvas."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated, Literal

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from ..common import WRITE, ToolInputError, ok, policy
from ..declare import deps_of, tool
from ..output_names import new_output_file

MAX_POINTS = 5000


def render(kind: str, title: str, x: list, series: dict[str, list[float]], x_label: str, y_label: str,
           path: Path) -> None:
    # Figure + FigureCanvasAgg directly: no pyplot global state inside QGIS's process
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 4.0), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    if kind == "pie":
        name, values = next(iter(series.items()))
        ax.pie(values, labels=[str(v) for v in x], autopct="%1.0f%%")
    else:
        width = 0.8 / max(1, len(series))
        for i, (name, values) in enumerate(series.items()):
            if kind == "line":
                ax.plot(x, values, marker="o", label=name)
            elif kind == "scatter":
                ax.scatter(x, values, label=name)
            else:
                positions = [j + i * width for j in range(len(x))]
                ax.bar(positions, values, width=width, label=name)
                ax.set_xticks([j + width * (len(series) - 1) / 2 for j in range(len(x))])
                ax.set_xticklabels([str(v) for v in x], rotation=30, ha="right")
        ax.set_xlabel(x_label)
        ax.set_ylabel(y_label)
        if len(series) > 1:
            ax.legend()
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(str(path), format="png")


def period_start(period: str):
    """'2024-06-15' (a date), '2024-06' (a month) or '2024-W24' (an ISO week) -> the day it starts."""
    import datetime as dt

    if "-W" in period:
        year, week = period.split("-W")
        return dt.date.fromisocalendar(int(year), int(week), 1)
    if len(period) == 7:
        return dt.date(int(period[:4]), int(period[5:7]), 1)
    return dt.date.fromisoformat(period[:10])


def _every_period(first, last, group_by: str) -> list:
    """Each month or ISO week from `first` to `last` (their start days): the periods a chart must show."""
    import datetime as dt

    days, day = [], first
    while day <= last:
        days.append(day)
        if group_by == "week":
            day += dt.timedelta(days=7)
        else:
            day = dt.date(day.year + day.month // 12, day.month % 12 + 1, 1)
    return days


def time_series_figure(title: str, periods: list[str], series: dict[str, list[float | None]], group_by: str,
                       y_label: str):
    """A line chart on a time axis: a period without a value (overcast, no item) is a gap in the line, at its
    place in time, never a line joining its neighbours; months or weeks with no row at all are gaps too.
    Date labels are chosen by matplotlib's date locator and written concisely, so they do not overlap."""
    import math

    import matplotlib.dates as mdates
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 4.0), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    starts = [period_start(p) for p in periods]
    days = sorted(set(starts))
    if group_by in ("month", "week") and days:
        days = _every_period(days[0], days[-1], group_by)
    for name, values in series.items():
        by_day = {d: (math.nan if v is None else v) for d, v in zip(starts, values)}
        ax.plot(days, [by_day.get(d, math.nan) for d in days], marker="o", label=name)
    locator = mdates.AutoDateLocator(minticks=3, maxticks=8)
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))
    if not any(v is not None for values in series.values() for v in values):
        ax.text(0.5, 0.5, "no valid pixels in any period", transform=ax.transAxes, ha="center", va="center")
    ax.set_xlabel(group_by)
    ax.set_ylabel(y_label)
    if len(series) > 1:
        ax.legend()
    ax.set_title(title)
    fig.tight_layout()
    return fig


@tool(annotations=WRITE, meta=policy())
async def generate_chart(
    ctx: Context,
    chart_type: Literal["line", "bar", "scatter", "pie"],
    x: Annotated[list[str | float], Field(description="X values or category labels")],
    series: Annotated[dict[str, list[float]], Field(description="Name → values, each as long as x")],
    title: str = "", x_label: str = "", y_label: str = "",
) -> CallToolResult:
    """Draw a chart (line, bar, scatter, pie) to a PNG shown in the chat, and return the data it shows. E.g. 'plot these values'."""
    deps = deps_of(ctx)
    if not series:
        raise ToolInputError("Give at least one series of values.")
    if len(x) > MAX_POINTS:
        raise ToolInputError(f"Too many points ({len(x)}); aggregate to at most {MAX_POINTS}.")
    for name, values in series.items():
        if len(values) != len(x):
            raise ToolInputError(f"Series '{name}' has {len(values)} values but x has {len(x)}; make them equal.")
    if chart_type == "pie" and (len(series) != 1 or any(v < 0 for v in next(iter(series.values())))):
        raise ToolInputError("A pie chart takes exactly one series of non-negative values.")
    path = new_output_file(deps.output_dir(), ["chart"], ".png")
    await asyncio.to_thread(render, chart_type, title, x, series, x_label, y_label, path)
    return ok({"chart_file": str(path), "chart_type": chart_type, "title": title, "x": x, "series": series},
              f"{chart_type} chart saved to {path.name}")
