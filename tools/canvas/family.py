"""The canvas family: the modules whose tools act on the QGIS project (layers, view, styles, Processing,
layouts). Only the plugin (and tests) have a project, so `build_server(deps, canvas=True)` adds them."""

from __future__ import annotations

from typing import Any

from ..deps import ToolDeps
from . import basemaps, ellipsoid, housekeeping, map_view, panels, zoom
from .layers import index_layer, result_layers, stac_layers, styles
from .layouts import animation, layout_view, print_layouts, report
from .processing import tools as processing_tools
from .project_access import history_of
from .undo.owners import TurnOwners

MODULES = (stac_layers, housekeeping, result_layers, zoom, styles, basemaps, ellipsoid, panels, map_view,
           processing_tools, index_layer, print_layouts, layout_view, animation, report)


def prepare(deps: ToolDeps) -> None:
    history_of(deps)  # one turn history shared by every tool and the UI's "Undo last turn"


def turn_owners(server: Any, deps: ToolDeps) -> TurnOwners:
    """The outside endpoint's middleware that runs each call as its client's, in a turn of its own."""
    return TurnOwners(server, lambda: history_of(deps))
