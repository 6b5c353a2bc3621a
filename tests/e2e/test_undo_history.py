"""The History tab, driven as an analyst would: four turns typed into the chat with a hand edit in
between, "Back to here" on turn 1 reverts three turns and keeps the hand edits (and says so), the
history comes back after saving the project, unloading the plugin and opening the project again,
and "Redo to here" brings a turn back."""

from __future__ import annotations

import os
from pathlib import Path

from qgis.core import QgsCoordinateReferenceSystem, QgsProject, QgsRectangle, QgsVectorLayer
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest

from stacgis_agent.ui.undo_history import EMPTY
from testkit.llm.ollama_emulator import Turn
from testkit.qgis_drivers.analyst_view import chat
from testkit.qgis_drivers.plugin_driver import process_until, send, wait_turn
from testkit.qgis_drivers.plugin_loader import unload_plugin


def _click(button) -> None:
    assert button.isVisibleTo(button.window()) and button.isEnabled(), button.text()
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)


def _names() -> list[str]:
    return sorted(layer.name() for layer in QgsProject.instance().mapLayers().values())


def _turn(plugin, emu, text: str, call: tuple, answer: str) -> None:
    emu.script(Turn(tool_calls=[call]), Turn(content=answer))
    send(plugin, text)
    wait_turn(plugin, 30)
    assert chat(plugin)[-1] == ("assistant", answer), chat(plugin)
    assert process_until(lambda: not plugin.runtime.turns.reading_files, 5)


def _history(plugin):
    panel = plugin.runtime.panel
    view = plugin.runtime.history_view
    panel.tabs.setCurrentWidget(view)
    return view


def _row(view, title_start: str):
    rows = [r for r in view.rows if r.title.text().startswith(title_start)]
    assert len(rows) == 1, [r.title.text() for r in view.rows]
    return rows[0]


def _shoot(plugin, name: str) -> None:
    """With STACGIS_HISTORY_SCREENSHOTS=<folder>: the dock at 320 px and wide, for a person to read."""
    folder = os.environ.get("STACGIS_HISTORY_SCREENSHOTS")
    if not folder:
        return
    view = plugin.runtime.history_view
    parent = view.parentWidget()
    view.setParent(None)  # the tab alone at 320 px: the dock's other tabs set its own narrowest width
    view.resize(320, 900)
    view.show()
    process_until(lambda: False, 0.3)
    assert view.grab().save(os.path.join(folder, f"{name}-320.png"))
    plugin.runtime.panel.tabs.addTab(view, "History")
    plugin.runtime.panel.tabs.setCurrentWidget(view)
    assert parent is not None
    dock = plugin.dock
    dock.setFloating(True)
    dock.resize(900, 800)
    process_until(lambda: False, 0.3)
    assert dock.grab().save(os.path.join(folder, f"{name}-wide.png"))
    dock.setFloating(False)


def _red(layer) -> str:
    return layer.renderer().symbol().color().name()


def test_back_three_turns_keeps_the_hand_edit_survives_a_reopen_and_redoes(make_plugin, emu, tmp_path):
    project = QgsProject.instance()
    parcels = QgsVectorLayer("Polygon?crs=EPSG:4326&field=name:string", "parcels", "memory")
    project.addMapLayer(parcels)
    plugin = make_plugin()
    canvas = plugin.iface.mapCanvas()
    project.setCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    canvas.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    canvas.setExtent(QgsRectangle(-10, 35, 20, 55))

    _turn(plugin, emu, "Show the June NDVI",
          ("load_stac_asset", {"collection": "demo-ndvi", "item_id": "demo-ndvi-2025-06-15"}), "The NDVI is on the map.")
    ndvi = next(layer for layer in project.mapLayers().values() if layer is not parcels)
    ndvi_look = ndvi.renderer().type(), ndvi.opacity()
    extent_after_1 = canvas.extent().toString(6)
    _turn(plugin, emu, "Zoom to Lyon", ("zoom_to_location", {"place": "Lyon"}), "Here is Lyon.")
    assert canvas.extent().toString(6) != extent_after_1

    # the analyst's own edits, between the turns: parcels restyled by hand, a layer of their own
    parcels.renderer().symbol().setColor(Qt.GlobalColor.red)
    parcels.triggerRepaint()
    notes = QgsVectorLayer("Point?crs=EPSG:4326", "my notes", "memory")
    project.addMapLayer(notes)

    _turn(plugin, emu, "Make the NDVI grey and half transparent",
          ("set_layer_style", {"layer": ndvi.name(), "ramp": "Greys", "minimum": 0, "maximum": 1, "opacity": 0.5}),
          "The NDVI is grey.")
    assert ndvi.opacity() == 0.5
    _turn(plugin, emu, "Add the June RGB scene",
          ("load_stac_asset", {"collection": "demo-rgb", "item_id": "demo-rgb-2025-06-15"}), "The RGB scene is on.")
    assert len(_names()) == 4

    view = _history(plugin)
    titles = [r.title.text() for r in view.rows]
    assert titles[0].startswith("Turn 4 · added layer '") and titles[-1] == "Before the first turn", titles
    outputs = Path(plugin.runtime.deps.work_dir)
    rgb_file = next(p.name for p in outputs.iterdir() if p.name.startswith("demo-rgb"))
    ndvi_file = next(p.name for p in outputs.iterdir() if p.name.startswith("demo-ndvi"))
    assert f"wrote file '{rgb_file}'" in titles[0], titles
    assert _row(view, "Turn 2").title.text() == "Turn 2 · zoomed to Lyon"
    assert _row(view, "Turn 3").title.text() == f"Turn 3 · restyled '{ndvi.name()}'"
    assert _row(view, "Turn 1").request.text() == "You asked: “Show the June NDVI”"
    assert _row(view, "Turn 4").state.text() == "The project is here now" and _row(view, "Turn 4").button.isHidden()

    _click(_row(view, "Turn 1").button)  # back three turns, asking nothing
    assert process_until(lambda: view.outcome.isVisibleTo(view), 10)
    said = view.outcome.text()
    assert said.startswith("Back to turn 1. Undid turns 4, 3 and 2"), said
    assert "put the map view back" in said and f"put back the style of '{ndvi.name()}'" in said, said
    assert "Kept your own changes:" in said and "layer 'my notes' (you added it)" in said, said
    assert "your changes to layer 'parcels'" in said, said
    # the project: turns 2-4 gone, turn 1 and the hand edits still there
    assert _names() == sorted(["parcels", "my notes", ndvi.name()])
    assert (ndvi.renderer().type(), ndvi.opacity()) == ndvi_look
    assert canvas.extent().toString(6) == extent_after_1
    assert _red(parcels) == "#ff0000"
    # the disk: the file turn 4 wrote is out of the outputs folder (kept aside for a redo), turn 1's stays
    assert f"set '{rgb_file}' aside in the outputs folder's .undone folder, for a redo" in said, said
    assert sorted(p.name for p in outputs.iterdir() if p.is_file()) == [ndvi_file]
    # the screen: turns 2-4 undone, each can be redone; turn 1 is where the project is
    assert _row(view, "Turn 1").state.text() == "The project is here now"
    assert [_row(view, f"Turn {n}").button.text() for n in (4, 3, 2)] == ["Redo to here"] * 3
    _shoot(plugin, "history-back")

    # saved, plugin unloaded, project opened again, plugin loaded: the same history
    ndvi_name, path = ndvi.name(), str(tmp_path / "analysis.qgz")
    assert project.write(path)
    unload_plugin(plugin)
    project.clear()
    assert project.read(path)
    plugin = make_plugin()
    view = _history(plugin)
    assert [r.title.text() for r in view.rows] == titles
    assert _row(view, "Turn 1").state.text() == "The project is here now"
    ndvi = project.mapLayersByName(ndvi_name)[0]

    _click(_row(view, "Turn 3").button)  # redo turns 2 and 3
    assert process_until(lambda: view.outcome.text().startswith("Redid turns 2 and 3"), 10), view.outcome.text()
    assert ndvi.opacity() == 0.5 and canvas.extent().toString(6) != extent_after_1
    assert _row(view, "Turn 3").state.text() == "The project is here now"
    assert _row(view, "Turn 4").button.text() == "Redo to here"
    assert len(_names()) == 3  # the RGB scene stays undone, and its file aside
    assert sorted(p.name for p in outputs.iterdir() if p.is_file()) == [ndvi_file]

    _click(_row(view, "Turn 4").button)
    assert process_until(lambda: view.outcome.text().startswith("Redid turn 4"), 10), view.outcome.text()
    assert len(_names()) == 4 and (outputs / rgb_file).is_file()
    rgb = next(layer for layer in project.mapLayers().values() if layer.name().startswith("demo-rgb"))
    assert rgb.isValid() and rgb.source().endswith(rgb_file)

    # another project opened with the plugin running: its own (empty) history, then this one's again
    project.clear()
    assert process_until(lambda: [r.title.text() for r in view.rows] == [EMPTY], 5)
    _shoot(plugin, "history-empty")
    assert project.read(path)
    assert process_until(lambda: [r.title.text() for r in view.rows] == titles, 5)
