"""toggle_ui_panel: show or hide QGIS panels and the agent's own activity feed."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field
from qgis.PyQt.QtWidgets import QDockWidget, QWidget

from ..common import WRITE, ToolInputError, ok, policy
from ..declare import deps_of, tool

PANELS = {"layers": "Layers", "browser": "Browser", "processing toolbox": "ProcessingToolbox",
          "temporal controller": "TemporalControllerDockWidget"}
ACTIVITY_FEED_CLASS = "ActivityFeed"

Panel = Literal["layers", "browser", "processing toolbox", "temporal controller", "activity feed"]


@tool(annotations=WRITE, meta=policy(requires=["qgis"]))
async def toggle_ui_panel(
    ctx: Context,
    panel: Annotated[Panel, Field(description="Which panel")],
    visible: Annotated[bool | None, Field(description="true shows, false hides; omit to toggle")] = None,
) -> CallToolResult:
    """Show or hide a QGIS panel (Layers, Browser, Processing Toolbox, Temporal Controller) or the agent's activity feed."""
    deps = deps_of(ctx)
    iface = deps.iface()
    window = iface.mainWindow() if iface is not None else None
    if window is None:
        raise ToolInputError("The QGIS main window is not available.")
    widget = _find(window, panel)
    if widget is None:
        raise ToolInputError(f"The {panel} panel is not available in this QGIS window.")
    show = (not widget.isVisible()) if visible is None else visible
    widget.setVisible(show)
    if show and isinstance(widget, QDockWidget):
        widget.raise_()
    return ok({"panel": panel, "visible": show}, f"{panel.capitalize()} panel {'shown' if show else 'hidden'}")


def _find(window: QWidget, panel: str) -> QWidget | None:
    if panel == "activity feed":
        return next((w for w in window.findChildren(QWidget) if type(w).__name__ == ACTIVITY_FEED_CLASS), None)
    return window.findChild(QDockWidget, PANELS[panel])
