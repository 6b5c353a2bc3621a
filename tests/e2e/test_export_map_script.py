"""Exporting the map of a real session (demo catalog, real tools) as a PyQGIS script: what the analyst
undid is not in it, and the script run standalone gives a project with the layers and styles on the map."""

from __future__ import annotations

import os
import subprocess
import sys

from qgis.core import QgsProject
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest
from qgis.PyQt.QtWidgets import QFileDialog

from testkit.llm.ollama_emulator import Turn
from testkit.qgis_drivers.analyst_view import chat
from testkit.qgis_drivers.plugin_driver import process_until, send, wait_turn


def _click(button) -> None:
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)


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

    panel = plugin.runtime.panel
    panel.tabs.setCurrentWidget(panel.sessions)
    assert process_until(lambda: panel.sessions.list.count() == 1, 5)
    panel.sessions.list.setCurrentRow(0)
    target = tmp_path / "map.py"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a: (str(target), "")))
    _click(panel.sessions.buttons["pyqgis"])
    assert process_until(target.exists, 5), panel.sessions.message.text()

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
