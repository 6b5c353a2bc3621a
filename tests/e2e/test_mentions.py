"""Issue 46.3: @ in the message box completes the project's layer names (and @selection, @view), and what was
named reaches the model's request as structured context: the layer's exact name and id, even a name with spaces,
quotes and accents; with the map chip off only what was named is sent."""

from __future__ import annotations

import json
import os
from pathlib import Path

from qgis.core import QgsFeature, QgsGeometry, QgsPointXY, QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest
from qgis.PyQt.QtWidgets import QApplication

from testkit.llm.ollama_emulator import Turn
from testkit.qgis_drivers.plugin_driver import process_until, wait_turn
from testkit.qgis_drivers.screen_checks import show_dock_at

ROADS = 'Routes d\'été "nord"'


def points(name: str, count: int) -> QgsVectorLayer:
    layer = QgsVectorLayer("Point?crs=EPSG:4326", name, "memory")
    features = []
    for i in range(count):
        feature = QgsFeature(layer.fields())
        feature.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(4.8 + i * 0.01, 45.7)))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    QgsProject.instance().addMapLayer(layer)
    return layer


def save_screen(panel, name: str) -> None:
    """The dock with the list of names that pops up over it (a window of its own), as on screen (under Xvfb)."""
    folder = os.environ.get("STACGIS_SCREENSHOTS")
    if not folder:
        return
    process_until(lambda: False, 0.3)
    dock = panel.window()
    area = dock.frameGeometry().united(panel.input.completer.popup().frameGeometry())
    picture = QApplication.primaryScreen().grabWindow(0, area.x(), area.y(), area.width(), area.height())
    picture.save(str(Path(folder) / f"{name}-{dock.width()}px-x1.png"))


def named(body: dict) -> list:
    """The @-mentions as the model reads them in the newest user message."""
    user = [m for m in body["messages"] if m["role"] == "user"][-1]["content"]
    line = next(line for line in user.splitlines() if line.startswith("named by the user with @"))
    return json.loads(line.split(": ", 1)[1])


def choose(panel, typed: str, wanted: str, shot: str = "") -> None:
    """Types `typed` as the analyst does, then picks `wanted` in the list of names that pops up."""
    QTest.keyClicks(panel.input, typed)
    popup = panel.input.completer.popup()
    assert process_until(popup.isVisible, 5), f"no list of names after {typed!r}"
    if shot:
        save_screen(panel, shot)
    shown = [popup.model().index(i, 0).data() for i in range(popup.model().rowCount())]
    assert wanted in shown, shown
    for _ in range(shown.index(wanted) + 1):
        QTest.keyClick(popup, Qt.Key.Key_Down)
    QTest.keyClick(popup, Qt.Key.Key_Return)
    assert process_until(lambda: not popup.isVisible(), 5)


def test_at_completes_a_layer_name_and_the_mention_reaches_the_model(plugin, emu, qgis_iface):
    roads = points(ROADS, 3)
    parcels = points("parcels", 4)
    qgis_iface.setActiveLayer(parcels)
    parcels.selectByIds([parcels.allFeatureIds()[0]])
    show_dock_at(plugin, 320)
    panel = plugin.runtime.panel
    panel.input.setFocus()
    choose(panel, "Buffer @rou", ROADS, shot="mention-popup")
    assert panel.input.toPlainText() == 'Buffer @"Routes d\'été \\"nord\\"" '
    choose(panel, "near @sel", "selection")
    assert panel.input.toPlainText().endswith("near @selection ")
    emu.script(Turn(content="Done."))
    QTest.keyClick(panel.input, Qt.Key.Key_Return)
    wait_turn(plugin, 30)

    mentions = named(emu.chat_requests()[-1])
    assert mentions[0] == {"layer": ROADS, "id": roads.id(), "kind": "vector", "geometry": "Point", "features": 3,
                           "crs": "EPSG:4326"}
    assert mentions[1] == {"selection": {"layer": "parcels", "features": 1}}

    # the map chip off: only what was named goes with the message
    panel.map_chip.setChecked(False)
    emu.script(Turn(content="Done."))
    panel.input.setFocus()
    choose(panel, "Count @par", "parcels")
    QTest.keyClick(panel.input, Qt.Key.Key_Return)
    wait_turn(plugin, 30)
    user = [m for m in emu.chat_requests()[-1]["messages"] if m["role"] == "user"][-1]["content"]
    assert named(emu.chat_requests()[-1]) == [{"layer": "parcels", "id": parcels.id(), "kind": "vector",
                                               "geometry": "Point", "features": 4, "crs": "EPSG:4326"}]
    assert ROADS not in user and "extent:" not in user


def test_a_typed_mention_of_an_unknown_name_stays_text(plugin, emu):
    points("parcels", 1)
    emu.script(Turn(content="Done."))
    panel = plugin.runtime.panel
    panel.input.setFocus()
    QTest.keyClicks(panel.input, "mail me@parcels.org about @Parcels and @nothing")
    panel.input.completer.popup().hide()
    QTest.keyClick(panel.input, Qt.Key.Key_Return)
    wait_turn(plugin, 30)
    assert [m["layer"] for m in named(emu.chat_requests()[-1])] == ["parcels"]
