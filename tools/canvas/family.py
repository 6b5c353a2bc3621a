"""The canvas family: the modules whose tools act on the QGIS project (layers, view, styles, Processing,
layouts). Only the plugin (and tests) have a project, so `build_server(deps, canvas=True)` adds them."""

from __future__ import annotations

from ..deps import ToolDeps
from . import (
    animation,
    basemaps,
    index_layer,
    layers,
    layouts,
    map_view,
    panels,
    processing_tools,
    report_tool,
    result_layers,
    stac_layers,
    styles,
    zoom,
)
from .project_access import history_of

MODULES = (stac_layers, layers, result_layers, zoom, styles, basemaps, panels, map_view, processing_tools,
           index_layer, layouts, animation, report_tool)


def prepare(deps: ToolDeps) -> None:
    history_of(deps)  # one turn history shared by every tool and the UI's "Undo last turn"
