"""What every canvas tool needs: the project, the canvas, the turn history, layers by name."""

from __future__ import annotations

import asyncio
from typing import Any, Callable

from qgis.core import QgsApplication, QgsLayerTreeGroup, QgsMapLayer, QgsProject

from ..common import ToolInputError
from ..deps import ToolDeps
from .undo.history import TurnHistory


def layer_abstract(layer: QgsMapLayer) -> str:
    """The layer's abstract: QGIS 3.38+ keeps it in the layer's server properties (QgsMapLayer.abstract() is
    deprecated there, and gone in QGIS 4)."""
    server = layer.serverProperties()
    return (server.abstract() if hasattr(server, "abstract") else layer.abstract()) or ""


def set_layer_abstract(layer: QgsMapLayer, text: str) -> None:
    server = layer.serverProperties()
    if hasattr(server, "setAbstract"):
        server.setAbstract(text)
    else:
        layer.setAbstract(text)


def project_of(deps: ToolDeps) -> QgsProject:
    return deps.project() or QgsProject.instance()


def canvas_of(deps: ToolDeps) -> Any:
    iface = deps.iface()
    canvas = iface.mapCanvas() if iface is not None else None
    if canvas is None:
        raise ToolInputError("No map canvas is available (QGIS interface not connected); restart the plugin.")
    return canvas


def history_of(deps: ToolDeps) -> TurnHistory:
    if deps.turn_history is None:
        deps.turn_history = TurnHistory(lambda: project_of(deps))
    return deps.turn_history


def find_layer(project: QgsProject, name_or_id: str, kind: type | None = None) -> QgsMapLayer:
    """A layer by id, exact name, or case-insensitive name; the error lists what exists."""
    layers = [lyr for lyr in project.mapLayers().values() if kind is None or isinstance(lyr, kind)]
    for match in (lambda lyr: lyr.id() == name_or_id, lambda lyr: lyr.name() == name_or_id,
                  lambda lyr: lyr.name().lower() == name_or_id.strip().lower()):
        found = [lyr for lyr in layers if match(lyr)]
        if found:
            return found[0]
    names = ", ".join(sorted(lyr.name() for lyr in layers)[:30]) or "none"
    raise ToolInputError(f"No layer named '{name_or_id}'. Layers in the project: {names}")


def add_to_project(deps: ToolDeps, layers: list[QgsMapLayer], group_name: str | None = None) -> str | None:
    """Adds valid layers (first one on top), in a new named group when asked; records it all for undo."""
    project = project_of(deps)
    history = history_of(deps)
    root = project.layerTreeRoot()
    parent: QgsLayerTreeGroup = root
    if group_name:
        group_name = unique_group_name(root, group_name)
        parent = root.insertGroup(0, group_name)
        history.group_added(parent)
    for index, layer in enumerate(layers):
        project.addMapLayer(layer, False)
        parent.insertLayer(index, layer)
        history.layer_added(layer)
    return group_name


def unique_group_name(root: QgsLayerTreeGroup, name: str) -> str:
    existing = {g.name() for g in root.findGroups(True)} if hasattr(root, "findGroups") else set()
    candidate, n = name, 2
    while candidate in existing or root.findGroup(candidate) is not None:
        candidate, n = f"{name} ({n})", n + 1
    return candidate


async def wait_for_qt(done: Callable[[], bool], timeout_s: float, what: str) -> None:
    """Awaits a Qt-side job without blocking; pumps Qt events itself when asyncio is not Qt's loop."""
    loop = asyncio.get_running_loop()
    pump = not type(loop).__module__.startswith("qasync")
    deadline = loop.time() + timeout_s
    while not done():
        if loop.time() > deadline:
            raise ToolInputError(f"{what} did not finish within {timeout_s:.0f} s; try a smaller area or fewer layers.")
        if pump:
            QgsApplication.processEvents()
        await asyncio.sleep(0.005)
