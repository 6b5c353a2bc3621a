"""generate_chart: line/bar/scatter/pie charts rendered to PNG with matplotlib's Agg canvas."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from ..common import WRITE, ToolInputError, ok, policy
from ..deps import ToolDeps
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


def register(server: MCPServer, deps: ToolDeps) -> None:
    @server.tool(annotations=WRITE, meta=policy())
    async def generate_chart(
        chart_type: Literal["line", "bar", "scatter", "pie"],
        x: Annotated[list[str | float], Field(description="X values or category labels")],
        series: Annotated[dict[str, list[float]], Field(description="Name → values, each as long as x")],
        title: str = "", x_label: str = "", y_label: str = "",
    ) -> CallToolResult:
        """Draw a chart (line, bar, scatter, pie) to a PNG shown in the chat, and return the data it shows. E.g. 'plot these values'."""
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
