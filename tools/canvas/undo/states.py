"""What the undo history reads and writes in the project, as plain, saveable values: a layer's style
(QML), a layer as XML, its place in the layer tree, the map view, print layouts, the outputs folder.

Values are strings, lists and dicts, so a turn's record can be kept in the project file and read back
after a plugin reload or when the project is opened again. Everything here runs on the GUI thread
except `scan_outputs`, which reads the disk and runs in a worker thread.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsMapLayer,
    QgsPrintLayout,
    QgsProject,
    QgsReadWriteContext,
    QgsRectangle,
)
from qgis.PyQt.QtGui import QColor
from qgis.PyQt.QtXml import QDomDocument

from .record import PARKED_FOLDER, is_output_name, is_turn_id

STYLE_PARTS = QgsMapLayer.Symbology | QgsMapLayer.Labeling | QgsMapLayer.Rendering
VIEW_TOLERANCE = 1e-3  # share of the extent's size under which two views are the same view (float noise)


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8"), usedforsecurity=False).hexdigest()[:16]  # tells states apart


# -- layers -----------------------------------------------------------------------------------------

def style_of(layer: QgsMapLayer) -> str:
    doc = QDomDocument()
    layer.exportNamedStyle(doc, QgsReadWriteContext(), STYLE_PARTS)
    return doc.toString()


def apply_style(layer: QgsMapLayer, qml: str) -> None:
    doc = QDomDocument()
    doc.setContent(qml)
    layer.importNamedStyle(doc, STYLE_PARTS)
    layer.triggerRepaint()
    layer.emitStyleChanged()


def fingerprint(layer: QgsMapLayer | None) -> str | None:
    """Short digest of how a layer looks and is named; None when there is no layer."""
    return None if layer is None else _digest(layer.name() + "\n" + style_of(layer))


def layer_xml(layer: QgsMapLayer) -> str:
    doc = QDomDocument("stacgis-undo")
    element = doc.createElement("maplayer")
    doc.appendChild(element)
    layer.writeLayerXml(element, doc, QgsReadWriteContext())
    return doc.toString()


def layer_from_xml(project: QgsProject, xml: str, layer_id: str) -> QgsMapLayer | None:
    """The layer rebuilt from its XML (a memory layer comes back without its features)."""
    doc = QDomDocument()
    if not xml or not doc.setContent(xml) or not project.readLayer(doc.documentElement()):
        return None
    return project.mapLayer(layer_id)


def node_key(node: Any) -> str:
    return f"layer:{node.layerId()}" if hasattr(node, "layerId") else f"group:{node.name()}"


def tree_position(project: QgsProject, layer_id: str) -> dict[str, Any]:
    """Where a layer sits: its group (by name), its index and the neighbours below it (those survive
    later additions; an index does not)."""
    root = project.layerTreeRoot()
    node = root.findLayer(layer_id)
    parent = node.parent() if node is not None else root
    siblings = parent.children()
    index = siblings.index(node) if node is not None else 0
    return {"group": parent.name() if parent.parent() is not None else None, "index": index,
            "below": [node_key(n) for n in siblings[index + 1:]]}


def place_layer(project: QgsProject, layer: QgsMapLayer, where: dict[str, Any]) -> None:
    """Puts a layer (already in the project, or not) back at `where` in the layer tree."""
    root = project.layerTreeRoot()
    old = root.findLayer(layer.id())
    if old is not None:
        old.parent().removeChildNode(old)
    if project.mapLayer(layer.id()) is None:
        project.addMapLayer(layer, False)
    group = where.get("group")
    target = (root.findGroup(group) if group else None) or root  # looked up again: it may be gone
    keys = [node_key(n) for n in target.children()]
    below = where.get("below") or []
    at = next((keys.index(k) for k in below if k in keys),
              len(keys) if below else min(int(where.get("index", 0)), len(keys)))
    target.insertLayer(at, layer)


def group_layers(project: QgsProject, name: str) -> list[str] | None:
    group = project.layerTreeRoot().findGroup(name)
    return None if group is None else sorted(n.layerId() for n in group.findLayers())


class LookCache:
    """Fingerprints of every layer, read again only for a layer that said it changed (its style, renderer,
    name or a repaint): the snapshot at each turn's start and end then costs little on a big project.
    The checks before undoing a change read their layer afresh (`fingerprint`)."""

    SIGNALS = ("styleChanged", "rendererChanged", "nameChanged", "repaintRequested")

    def __init__(self) -> None:
        self._prints: dict[str, str | None] = {}
        self._watched: dict[str, tuple[QgsMapLayer, Any]] = {}

    def snapshot(self, project: QgsProject) -> dict[str, list]:
        """Every layer as [name, fingerprint], by id: what the analyst's own edits are compared with."""
        return {layer_id: [layer.name(), self._print(layer_id, layer)]
                for layer_id, layer in project.mapLayers().items()}

    def _print(self, layer_id: str, layer: QgsMapLayer) -> str | None:
        if layer_id not in self._prints:
            self._watch(layer_id, layer)
            self._prints[layer_id] = fingerprint(layer)
        return self._prints[layer_id]

    def _watch(self, layer_id: str, layer: QgsMapLayer) -> None:
        if layer_id in self._watched and self._watched[layer_id][0] is layer:
            return

        def forget(*_args: Any) -> None:
            self._prints.pop(layer_id, None)
        for name in self.SIGNALS:
            getattr(layer, name).connect(forget)
        self._watched[layer_id] = (layer, forget)

    def stop(self) -> None:
        for layer, forget in self._watched.values():
            for name in self.SIGNALS:
                try:
                    getattr(layer, name).disconnect(forget)
                except (TypeError, RuntimeError):  # the layer is gone
                    pass
        self._watched.clear()
        self._prints.clear()


# -- the map view ------------------------------------------------------------------------------------

def view_of(canvas: Any, project: QgsProject) -> dict[str, Any]:
    e = canvas.extent()
    return {"extent": [e.xMinimum(), e.yMinimum(), e.xMaximum(), e.yMaximum()],
            "crs": canvas.mapSettings().destinationCrs().toWkt(), "project_crs": project.crs().toWkt()}


def same_view(a: Any, b: Any) -> bool:
    if not isinstance(a, dict) or not isinstance(b, dict):
        return a == b
    if a.get("crs") != b.get("crs") or a.get("project_crs") != b.get("project_crs"):
        return False
    ea, eb = a.get("extent") or [0, 0, 0, 0], b.get("extent") or [0, 0, 0, 0]
    size = max(abs(ea[2] - ea[0]), abs(ea[3] - ea[1]), 1e-12)
    return all(abs(x - y) <= size * VIEW_TOLERANCE for x, y in zip(ea, eb))


def set_view(canvas: Any, project: QgsProject, view: dict[str, Any]) -> None:
    project_crs = QgsCoordinateReferenceSystem.fromWkt(view["project_crs"])
    if project.crs() != project_crs:
        project.setCrs(project_crs)
    canvas.setDestinationCrs(QgsCoordinateReferenceSystem.fromWkt(view["crs"]))
    canvas.setExtent(QgsRectangle(*view["extent"]))
    canvas.refresh()


def background_of(canvas: Any, project: QgsProject) -> list[str]:
    return [canvas.canvasColor().name(), project.backgroundColor().name()]


def set_background(canvas: Any, project: QgsProject, colours: list[str]) -> None:
    canvas.setCanvasColor(QColor(colours[0]))
    project.setBackgroundColor(QColor(colours[1]))
    canvas.refresh()


# -- print layouts -----------------------------------------------------------------------------------

def layout_xml(layout: Any) -> str:
    doc = QDomDocument()
    doc.appendChild(layout.writeXml(doc, QgsReadWriteContext()))
    return doc.toString()


def layouts_of(project: QgsProject) -> dict[str, str]:
    return {layout.name(): layout_xml(layout) for layout in project.layoutManager().printLayouts()}


def layout_state(project: QgsProject, name: str) -> str | None:
    layout = project.layoutManager().layoutByName(name)
    return None if layout is None else _digest(layout_xml(layout))


def set_layout(project: QgsProject, name: str, xml: str | None) -> None:
    """Makes the project's layout `name` the one in `xml`; None removes it."""
    manager = project.layoutManager()
    current = manager.layoutByName(name)
    if current is not None:
        manager.removeLayout(current)
    if xml is None:
        return
    doc = QDomDocument()
    doc.setContent(xml)
    layout = QgsPrintLayout(project)
    layout.readLayoutXml(doc.documentElement(), doc, QgsReadWriteContext())
    layout.setName(name)
    manager.addLayout(layout)


# -- the outputs folder (worker thread) --------------------------------------------------------------

def scan_outputs(folder: str | os.PathLike | None) -> dict[str, list[int]]:
    """The files directly in the outputs folder, as name → [size, modification time in ns]."""
    found: dict[str, list[int]] = {}
    if not folder or not Path(folder).is_dir():
        return found
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_file(follow_symlinks=False):
                stat = entry.stat(follow_symlinks=False)
                found[entry.name] = [stat.st_size, stat.st_mtime_ns]
    return found


def parked_folder(folder: str | os.PathLike, turn_id: str) -> Path:
    """Where the files of undone turn `turn_id` wait, inside the outputs folder; a turn id that is not an id
    (read from a crafted project: "../../home") is refused, so no file is moved or deleted elsewhere."""
    if not is_turn_id(turn_id):
        raise ValueError(f"not a turn id: {turn_id!r}")
    return Path(folder) / PARKED_FOLDER / turn_id


def release_layers(parked: dict[str, Any], paths: set[str]) -> list[str]:
    """GUI thread (no I/O): deletes the parked layers (taken out of the project, owned here) whose source is
    one of `paths`, so that GDAL closes those files now, where they are; returns the ids let go. A GDAL
    dataset that is closed writes a VRT whose statistics changed back to its path (QGIS 3.40 / GDAL 3.10
    recompute them): kept parked, the layer did that whenever it was collected, after its file had been set
    aside, and the file came back into the outputs folder."""
    from qgis.PyQt import sip

    wanted = {os.path.abspath(p) for p in paths}
    let_go = []
    for layer_id, layer in list(parked.items()):
        if sip.isdeleted(layer):
            del parked[layer_id]
            continue
        if os.path.abspath(layer.source().split("|", 1)[0]) in wanted:
            del parked[layer_id]
            if sip.ispyowned(layer):
                sip.delete(layer)
            let_go.append(layer_id)
    return let_go


def park_files(folder: str, turn_id: str, files: dict[str, list[int]],
               before: dict[str, list[int]] | None = None) -> tuple[list[str], list[str], list[str]]:
    """Moves files a turn wrote (unchanged since) aside; returns (moved, changed since, already gone).
    `before`: the folder as it was before the layers reading these files were let go (release_layers); a
    file unchanged then and rewritten by GDAL as it closed them is still the turn's file."""
    moved, changed, gone = [], [], []
    parked = parked_folder(folder, turn_id)
    present = scan_outputs(folder)
    for name, signature in files.items():
        if not is_output_name(name):
            gone.append(name)
            continue
        path = Path(folder) / name
        now = present.get(name)
        unchanged = now == list(signature) or (before is not None and before.get(name) == list(signature))
        if now is None:
            gone.append(name)
        elif not unchanged:
            changed.append(name)
        else:
            parked.mkdir(parents=True, exist_ok=True)
            os.replace(path, parked / name)
            moved.append(name)
    return moved, changed, gone


def unpark_files(folder: str, turn_id: str, names: list[str]) -> tuple[list[str], list[str]]:
    """Puts parked files back unless a file of that name was written since; returns (back, not back)."""
    back, blocked = [], []
    parked = parked_folder(folder, turn_id)
    for name in names:
        source, target = parked / name, Path(folder) / name
        if not is_output_name(name) or not source.is_file() or source.is_symlink() or target.exists():
            blocked.append(name)
            continue
        os.replace(source, target)
        back.append(name)
    return back, blocked
