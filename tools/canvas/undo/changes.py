"""What one recorded change does to the project when it is undone or redone, and how the thing it touched
is now (compared with how the turn left it, so a hand edit in between is kept and named)."""

from __future__ import annotations

from typing import Any, Callable

from qgis.core import QgsMapLayer

from . import states as st
from .record import FAMILY, Change


class ChangeActions:
    """Undoes and redoes changes in `project()`; layers taken out of the project wait in `parked`."""

    def __init__(self, project: Callable[[], Any], canvas_of: Callable[[], Callable[[], Any] | None],
                 parked: dict[str, QgsMapLayer]) -> None:
        self._project = project
        self._canvas_of = canvas_of  # the history's canvas getter, which the first view change may set
        self._parked = parked

    def _canvas(self) -> Any:
        getter = self._canvas_of()
        return getter() if getter else None

    def state(self, key: str) -> Any:
        family, _, target = key.partition(":")
        project = self._project()
        if family in ("layer", "style"):
            return st.fingerprint(project.mapLayer(target))
        if family == "group":
            return "present" if project.layerTreeRoot().findGroup(target) is not None else None
        if family == "layout":
            return st.layout_state(project, target)
        if family == "ellipsoid":
            return project.ellipsoid()
        canvas = self._canvas()
        if canvas is None:
            return None
        return st.view_of(canvas, project) if family == "view" else st.background_of(canvas, project)

    @staticmethod
    def same(key: str, a: Any, b: Any) -> bool:
        return st.same_view(a, b) if key.startswith("view:") else a == b

    def kept_note(self, change: Change) -> str:
        project = self._project()
        if FAMILY[change.kind] in ("layer", "style"):
            layer = project.mapLayer(change.target)
            return f"layer '{layer.name()}' as you changed it" if layer is not None and change.kind != "layer_removed" else ""
        if change.kind == "view":
            return "the map view you set"
        if change.kind == "background":
            return "the map background you chose"
        if change.kind == "ellipsoid":
            return "the measurement ellipsoid you set"
        if change.kind == "layout":
            exists = project.layoutManager().layoutByName(change.target) is not None
            return f"print layout '{change.target}' " + ("as you edited it" if exists else "stays deleted (you deleted it)")
        return ""

    def revert(self, change: Change) -> str:
        """Undoes one change; returns a note when something was kept instead."""
        project, kind = self._project(), change.kind
        if kind == "layer_added":
            layer = project.mapLayer(change.target)
            if layer is not None:
                change.after = {"xml": st.layer_xml(layer), "where": st.tree_position(project, change.target)}
                self._parked[change.target] = project.takeMapLayer(layer)
        elif kind == "layer_removed":
            if project.mapLayer(change.target) is None:
                layer = self._parked.pop(change.target, None) or st.layer_from_xml(project, change.before["xml"],
                                                                                   change.target)
                if layer is None:
                    return f"layer '{change.description.split(chr(39))[1]}' could not be rebuilt"
                st.place_layer(project, layer, change.before["where"])
        elif kind == "group_added":
            group = project.layerTreeRoot().findGroup(change.target)
            if group is not None and group.findLayers():
                return f"group '{change.target}' (it holds layers you put there)"
            if group is not None:
                group.parent().removeChildNode(group)
        elif kind == "restyled":
            layer = project.mapLayer(change.target)
            if layer is not None:
                st.apply_style(layer, change.before)
        elif kind == "view":
            st.set_view(self._canvas(), project, change.before)
        elif kind == "background":
            st.set_background(self._canvas(), project, change.before)
        elif kind == "ellipsoid":
            project.setEllipsoid(change.before)
        elif kind == "layout":
            st.set_layout(project, change.target, change.before)
        return ""

    def redo(self, change: Change) -> None:
        project, kind = self._project(), change.kind
        if kind == "layer_added" and change.after:
            layer = self._parked.pop(change.target, None) or st.layer_from_xml(project, change.after["xml"], change.target)
            if layer is not None:
                st.place_layer(project, layer, change.after["where"])
        elif kind == "layer_removed":
            layer = project.mapLayer(change.target)
            if layer is not None:
                change.before = {"xml": st.layer_xml(layer), "where": st.tree_position(project, change.target)}
                self._parked[change.target] = project.takeMapLayer(layer)
        elif kind == "group_added":
            if project.layerTreeRoot().findGroup(change.target) is None:
                project.layerTreeRoot().insertGroup(int((change.after or {}).get("index", 0)), change.target)
        elif kind == "restyled":
            layer = project.mapLayer(change.target)
            if layer is not None and change.after:
                st.apply_style(layer, change.after)
        elif kind == "view" and change.after:
            st.set_view(self._canvas(), project, change.after)
        elif kind == "background" and change.after:
            st.set_background(self._canvas(), project, change.after)
        elif kind == "ellipsoid" and change.after:
            project.setEllipsoid(change.after)
        elif kind == "layout":
            st.set_layout(project, change.target, change.after)
