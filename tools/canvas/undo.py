"""Every change an agent turn makes to the project, recorded so that the turn can be undone.

Each change remembers only what it touched (one layer, the canvas extent, ...), so undoing a turn
leaves alone whatever the analyst changed by hand on other layers in the meantime.
"""

from __future__ import annotations

import itertools
import logging
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable

from qgis.core import QgsLayerTreeGroup, QgsMapLayer, QgsProject

log = logging.getLogger(__name__)


@dataclass
class Change:
    description: str
    revert: Callable[[], None]


@dataclass
class Turn:
    turn_id: str
    changes: list[Change] = field(default_factory=list)


class TurnHistory:
    """Turns in order; `undo_last_turn()` reverts the newest turn that changed something."""

    def __init__(self, project: Callable[[], Any] = QgsProject.instance) -> None:
        self._project = project
        self._turns: list[Turn] = []
        self._open: Turn | None = None
        self._auto = itertools.count(1)

    def begin_turn(self, turn_id: str) -> None:
        self._open = Turn(str(turn_id))
        self._turns.append(self._open)

    def end_turn(self) -> None:
        self._open = None

    @property
    def open_turn_id(self) -> str | None:
        return self._open.turn_id if self._open else None

    def turn_ids(self) -> list[str]:
        return [t.turn_id for t in self._turns if t.changes]

    def record(self, description: str, revert: Callable[[], None]) -> None:
        if self._open is None:  # a tool called outside any agent turn (e.g. over MCP HTTP)
            self.begin_turn(f"untracked-{next(self._auto)}")
        assert self._open is not None
        self._open.changes.append(Change(description, revert))

    def undo_last_turn(self, skip_open: bool = False) -> Turn | None:
        """Reverts the newest turn with changes (not the open one when `skip_open`); None if none."""
        for index in range(len(self._turns) - 1, -1, -1):
            turn = self._turns[index]
            if skip_open and turn is self._open and not turn.turn_id.startswith("untracked-"):
                continue  # the caller's own turn; changes made outside any turn (outside clients) can be undone
            if not turn.changes:
                continue
            del self._turns[index]
            if turn is self._open:
                self._open = None
            for change in reversed(turn.changes):
                try:
                    change.revert()
                except Exception:  # one stale change (layer deleted by hand) must not block the rest
                    log.warning("Could not undo: %s", change.description, exc_info=True)
            return turn
        return None

    # What the canvas tools change -------------------------------------------------------------

    def layer_added(self, layer: QgsMapLayer) -> None:
        layer_id = layer.id()
        self.record(f"added layer {layer.name()}", lambda: _remove_if_present(self._project(), layer_id))

    def group_added(self, group: QgsLayerTreeGroup) -> None:
        name = group.name()

        def revert() -> None:
            root = self._project().layerTreeRoot()
            found = root.findGroup(name)
            if found is not None and not found.findLayers():
                found.parent().removeChildNode(found)

        self.record(f"added group {name}", revert)

    def take_layer(self, layer: QgsMapLayer) -> None:
        """Removes `layer` from the project but keeps it, so undo can put it back where it was."""
        project = self._project()
        node = project.layerTreeRoot().findLayer(layer.id())
        parent = node.parent() if node is not None else project.layerTreeRoot()
        siblings = parent.children()
        index = siblings.index(node) if node is not None else 0
        below = [_node_key(n) for n in siblings[index + 1:]]  # neighbours survive later additions; indexes do not
        group_name = parent.name() if parent.parent() is not None else None
        taken = project.takeMapLayer(layer)
        kept = {"layer": taken}

        def revert() -> None:
            restored = kept["layer"]
            root = self._project().layerTreeRoot()
            # look the group up again: the analyst may have deleted it since (its old object is gone)
            target = (root.findGroup(group_name) if group_name else None) or root
            self._project().addMapLayer(restored, False)
            keys = [_node_key(n) for n in target.children()]
            at = next((keys.index(k) for k in below if k in keys), len(keys) if below else min(index, len(keys)))
            target.insertLayer(at, restored)

        self.record(f"removed layer {layer.name()}", revert)

    def renderer_changing(self, layer: QgsMapLayer) -> None:
        """Call before changing a layer's renderer, opacity or labels."""
        layer_id = layer.id()
        renderer = layer.renderer().clone() if layer.renderer() is not None else None
        opacity = layer.opacity()
        labeling = layer.labeling().clone() if hasattr(layer, "labeling") and layer.labeling() else None
        labels_on = layer.labelsEnabled() if hasattr(layer, "labelsEnabled") else None

        def revert() -> None:
            target = self._project().mapLayer(layer_id)
            if target is None:
                return
            if renderer is not None:
                target.setRenderer(renderer.clone())
            target.setOpacity(opacity)
            if labels_on is not None:
                target.setLabeling(labeling.clone() if labeling is not None else None)
                target.setLabelsEnabled(labels_on)
            target.triggerRepaint()

        self.record(f"restyled layer {layer.name()}", revert)

    def view_changing(self, canvas: Any) -> None:
        """Call before moving the canvas or changing its CRS."""
        extent = canvas.extent()
        crs = canvas.mapSettings().destinationCrs()
        project_crs = self._project().crs()

        def revert() -> None:
            if self._project().crs() != project_crs:
                self._project().setCrs(project_crs)
            canvas.setDestinationCrs(crs)
            canvas.setExtent(extent)
            canvas.refresh()

        self.record("moved the map", revert)

    def background_changing(self, canvas: Any) -> None:
        colour = canvas.canvasColor()
        project = self._project()
        project_colour = project.backgroundColor()

        def revert() -> None:
            canvas.setCanvasColor(colour)
            project.setBackgroundColor(project_colour)
            canvas.refresh()

        self.record("changed the map background", revert)


@dataclass(frozen=True)
class UndoOutcome:
    undone: bool
    message: str


class ChatTurns:
    """Which chat answer belongs to which agent turn, so the Undo button of an answer undoes
    exactly the map changes of that turn, and only when it is the newest turn that changed the map."""

    def __init__(self, history: TurnHistory) -> None:
        self.history = history
        self._current = ""
        self._turn_of_message: dict[str, str] = {}

    def begin(self, _text: str = "") -> None:
        self._current = uuid.uuid4().hex
        self.history.begin_turn(self._current)

    def busy_changed(self, busy: bool) -> None:
        if not busy:
            self.history.end_turn()

    def current_changed_map(self, _tool_name: str = "") -> bool:
        return self._current in self.history.turn_ids()

    def remember(self, message_id: str) -> None:
        self._turn_of_message[message_id] = self._current

    def undo(self, message_id: str) -> UndoOutcome:
        changed = self.history.turn_ids()
        if not changed or self._turn_of_message.get(message_id) != changed[-1]:
            return UndoOutcome(False, "Only the most recent turn that changed the map can be undone; "
                                      "undo that one first.")
        turn = self.history.undo_last_turn(skip_open=True)
        if turn is None:
            return UndoOutcome(False, "Nothing to undo: that turn's changes are already gone.")
        return UndoOutcome(True, f"Undid {len(turn.changes)} map change(s) of that turn.")


def _node_key(node: Any) -> str:
    return f"layer:{node.layerId()}" if hasattr(node, "layerId") else f"group:{node.name()}"


def _remove_if_present(project: Any, layer_id: str) -> None:
    if project.mapLayer(layer_id) is not None:
        project.removeMapLayer(layer_id)
