"""Exporting the map of a real session (demo catalog, real tools) as a PyQGIS script: what the analyst
undid is not in it, the script run standalone gives a project with the layers and styles on the map, and run
from the QGIS console's editor it rebuilds the map with the session's view."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsProject, QgsRectangle
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest
from qgis.PyQt.QtWidgets import QFileDialog

from testkit.llm.ollama_emulator import Turn
from testkit.qgis_drivers.analyst_view import chat
from testkit.qgis_drivers.plugin_driver import process_until, send, wait_turn
from testkit.qgis_drivers.qgis_console import QgisConsole, window_bridge


def _click(button) -> None:
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)


def _export_map_script(plugin, target: Path, monkeypatch) -> Path:
    """Sessions tab ▸ the chat ▸ Export map (PyQGIS)…, the save dialog answered with `target` as a person would."""
    panel = plugin.runtime.panel
    panel.tabs.setCurrentWidget(panel.sessions)
    assert process_until(lambda: panel.sessions.list.count() == 1, 5)
    panel.sessions.list.setCurrentRow(0)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a: (str(target), "")))
    _click(panel.sessions.buttons["pyqgis"])
    assert process_until(target.exists, 5), panel.sessions.message.text()
    return target


def test_exported_script_rebuilds_the_map_without_the_undone_turn(plugin, emu, tmp_path, monkeypatch):
    emu.script(Turn(tool_calls=[("load_stac_asset", {"collection": "demo-ndvi", "item_id": "demo-ndvi-2025-06-15"})]),
               Turn(content="The June NDVI is on the map."))
    send(plugin, "Show the June NDVI")
    wait_turn(plugin, 30)
    emu.script(Turn(tool_calls=[("load_stac_asset", {"collection": "demo-rgb", "item_id": "demo-rgb-2025-06-15"})]),
               Turn(content="The June RGB scene is on the map."))
    send(plugin, "Show the June RGB scene")
    wait_turn(plugin, 30)
    on_map = sorted(layer.name() for layer in QgsProject.instance().mapLayers().values())
    assert len(on_map) == 2, (on_map, chat(plugin))
    _click(plugin.runtime.panel.conversation.bubbles()[-1].undo_button)  # the analyst undoes the RGB turn
    assert process_until(lambda: len(QgsProject.instance().mapLayers()) == 1, 5)
    kept = next(iter(QgsProject.instance().mapLayers().values()))
    assert "ndvi" in kept.name().lower()

    target = _export_map_script(plugin, tmp_path / "map.py", monkeypatch)

    out = tmp_path / "map.qgz"
    run = subprocess.run([sys.executable, str(target), str(out)], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert run.returncode == 0, run.stderr[-2000:]
    fresh = QgsProject()
    assert fresh.read(str(out))
    rebuilt = list(fresh.mapLayers().values())
    assert [(lay.name(), lay.source(), lay.renderer().type()) for lay in rebuilt] == [
        (kept.name(), kept.source(), kept.renderer().type())]
    fresh.clear()


def test_exported_script_run_in_the_qgis_console_keeps_the_sessions_view(plugin, emu, tmp_path, monkeypatch,
                                                                         qgis_iface):
    """Issue 27.2: in the QGIS window the layer-tree bridge zooms to the first layers an empty project gets;
    the script, run from the console's editor after the project was cleared, must still show the analyst's
    view of the session, not the full extent of the first layer."""
    canvas = qgis_iface.mapCanvas()
    emu.script(Turn(tool_calls=[("load_stac_asset", {"collection": "demo-ndvi", "item_id": "demo-ndvi-2025-06-15"})]),
               Turn(content="The June NDVI is on the map."))
    send(plugin, "Show the June NDVI")
    wait_turn(plugin, 30)
    emu.script(Turn(tool_calls=[("zoom_to_location", {"lon": 4.85, "lat": 45.76, "scale": 10_000})]),
               Turn(content="The map shows the Part-Dieu at 1:10,000."))
    send(plugin, "Zoom in on the Part-Dieu at 1:10,000")
    wait_turn(plugin, 30)
    [layer] = QgsProject.instance().mapLayers().values()
    expected = [(layer.name(), layer.source(), layer.renderer().type())]
    view, crs = canvas.extent(), canvas.mapSettings().destinationCrs().authid()
    full = QgsCoordinateTransform(layer.crs(), canvas.mapSettings().destinationCrs(),
                                  QgsProject.instance()).transformBoundingBox(layer.extent())
    assert full.area() > 4 * view.area(), (full.toString(0), view.toString(0))  # a zoom to the layer would show

    target = _export_map_script(plugin, tmp_path / "map.py", monkeypatch)

    QgsProject.instance().clear()  # Project ▸ New, in the same QGIS
    canvas.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    canvas.setExtent(QgsRectangle(-10, 40, 10, 50))
    assert QgsProject.instance().mapLayers() == {}
    with window_bridge(qgis_iface) as bridge:
        assert bridge.autoSetupOnFirstLayer()  # QGIS's default: zoom to the first layer of an empty project
        console = QgisConsole()
        console.run_editor_file(target)
        process_until(lambda: False, 0.5)  # the bridge's deferred update runs from the event loop
        assert console.errors == [], console.errors
        assert bridge.autoSetupOnFirstLayer()  # left as the analyst had it

    rebuilt = list(QgsProject.instance().mapLayers().values())
    assert [(lyr.name(), lyr.source(), lyr.renderer().type()) for lyr in rebuilt] == expected
    assert [lyr.name() for lyr in canvas.layers()] == [expected[0][0]]
    assert canvas.mapSettings().destinationCrs().authid() == crs
    shown = canvas.extent()  # the same place at the same scale; the canvas widens it to its own shape, no more
    assert shown.contains(view.buffered(-view.width() / 100)) and shown.area() < 1.5 * view.area(), (shown.toString(0),
                                                                                    view.toString(0))
