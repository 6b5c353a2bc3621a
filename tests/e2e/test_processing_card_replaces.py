"""Issue 27.1: a Processing call whose output is an existing GeoPackage table asks first, and its card on
screen says in words what will happen — "Buffer 'wells' (3 features) by 10 m" and that the existing layer
'parcels' (4 features) in that GeoPackage is replaced. Driven through the dock (typed, Enter, a click on the
card); judged on the card's text, in a 320 px dock, and on the file on disk: No leaves it byte for byte, Yes
does what the card said. A call whose output is its own input ('parcels' buffered into 'parcels') is refused
before anyone is asked: QGIS empties the table before the algorithm reads it, so Yes would have left 0 features."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from qgis.core import QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import QPoint, Qt
from qgis.PyQt.QtTest import QTest

from stacgis_agent.ui.ask_user_widget import AskUserWidget
from testkit.llm.ollama_emulator import Turn
from testkit.llm.reactive_emulator import tool_messages
from testkit.qgis_drivers.analyst_view import chat, feed
from testkit.qgis_drivers.plugin_driver import process_until, send, wait_turn
from testkit.qgis_drivers.screen_checks import clipped_texts, save_shot, show_dock_at
from testkit.worlds.gpkg_files import digest, rows_on_disk, write_gpkg

UTM_32N = 25832  # metres: the card says "by 10 m"


@pytest.fixture
def parcels_gpkg(qgis_new_project, tmp_path) -> Path:
    """The analyst's GeoPackage: a 'parcels' table of 4 points and a 'wells' table of 3, both on the map."""
    gpkg = write_gpkg(tmp_path / "city.gpkg", "parcels", 4, spacing=50.0, epsg=UTM_32N)
    write_gpkg(gpkg, "wells", 3, spacing=80.0, epsg=UTM_32N)
    for table, count in (("parcels", 4), ("wells", 3)):
        layer = QgsVectorLayer(f"{gpkg}|layername={table}", table, "ogr")
        assert layer.isValid() and layer.featureCount() == count
        QgsProject.instance().addMapLayer(layer)
    return gpkg


def _buffer_into_the_parcels_table(plugin, emu, gpkg: Path, answer: str, source: str = "wells") -> None:
    """The model buffers `source` by 10 into the GeoPackage's 'parcels' table."""
    emu.script(Turn(tool_calls=[("run_processing_algorithm", {"algorithm_id": "native:buffer", "parameters": {
                   "INPUT": source, "DISTANCE": 10, "OUTPUT": f"ogr:dbname='{gpkg}' table=\"parcels\" (geom)"}})]),
               Turn(content=answer))
    send(plugin, f"Buffer the {source} by 10 m and save them as the parcels table")


def _card(plugin) -> AskUserWidget:
    """The confirmation card, once it is on screen."""
    conversation = plugin.runtime.panel.conversation
    assert process_until(lambda: any(isinstance(w, AskUserWidget) for w in conversation.items()), 30), chat(plugin)
    card = next(w for w in conversation.items() if isinstance(w, AskUserWidget))
    assert process_until(lambda: card.question.isVisible() and card.details.isVisible(), 5)  # on screen, laid out
    return card


def _layers() -> dict[str, int]:
    return {lyr.name(): lyr.featureCount() for lyr in QgsProject.instance().mapLayers().values()}


def _click(card: AskUserWidget, label: str) -> None:
    QTest.mouseClick(next(b for b in card.buttons if b.text() == label), Qt.MouseButton.LeftButton)


def test_the_card_says_the_parcels_table_is_replaced_and_no_leaves_the_file_as_it_was(qgis_processing, plugin, emu,
                                                                                       parcels_gpkg):
    before = digest(parcels_gpkg)
    show_dock_at(plugin, 320, 900)
    _buffer_into_the_parcels_table(plugin, emu, parcels_gpkg, "I left the parcels as they are.")
    card = _card(plugin)

    assert card.question.text().startswith("Buffer 'wells' (3 features) by 10 m"), card.question.text()
    assert "cannot be undone" in card.question.text(), card.question.text()
    assert (f"replaces the existing layer 'parcels' (4 features) in GeoPackage {parcels_gpkg}"
            in card.details.text()), card.details.text()
    assert clipped_texts(plugin.dock) == [], clipped_texts(plugin.dock)
    # the GeoPackage's path wraps inside the card, and the card fits the chat: nothing cut at its right edge
    room = plugin.runtime.panel.conversation.viewport()
    assert [label.mapTo(room, QPoint(label.minimumSizeHint().width(), 0)).x() <= room.width()
            for label in (card.question, card.details)] == [True, True], (
        room.width(), card.details.minimumSizeHint().width())
    assert rows_on_disk(parcels_gpkg, "parcels") == 4  # nothing written while the card waits

    splitter = plugin.runtime.panel.splitter  # the analyst drags the activity feed down to read the whole card
    splitter.setSizes([sum(splitter.sizes()) - 120, 120])
    process_until(lambda: False, 0.3)
    plugin.runtime.panel.conversation.ensureWidgetVisible(card)
    save_shot(plugin, "card-replaces")  # docs/screenshots/card-replaces-320.png, with STACGIS_SCREENSHOTS set

    _click(card, "No")
    wait_turn(plugin, 30)
    assert rows_on_disk(parcels_gpkg, "parcels") == 4
    assert digest(parcels_gpkg) == before
    assert _layers() == {"parcels": 4, "wells": 3}
    refusal = json.loads(tool_messages(emu.chat_requests()[-1], "run_processing_algorithm")[-1]["content"])["error"]
    assert "did not approve" in refusal


def test_yes_replaces_the_parcels_table_with_the_buffers_as_the_card_said(qgis_processing, plugin, emu,
                                                                           parcels_gpkg):
    from osgeo import ogr

    show_dock_at(plugin, 420)
    _buffer_into_the_parcels_table(plugin, emu, parcels_gpkg, "The wells' buffers are the parcels table now.")
    card = _card(plugin)
    assert "replaces the existing layer 'parcels' (4 features)" in card.details.text(), card.details.text()
    _click(card, "Yes, run it")
    wait_turn(plugin, 60)
    assert rows_on_disk(parcels_gpkg, "parcels") == 3  # replaced by the 3 wells' buffers, not appended to
    source = ogr.Open(str(parcels_gpkg))
    table = source.GetLayerByName("parcels")
    shapes = {ogr.GeometryTypeToName(f.GetGeometryRef().GetGeometryType()) for f in table}
    areas = [f.GetGeometryRef().GetArea() for f in table]
    source = None
    assert shapes == {"Polygon"} or shapes == {"Multi Polygon"}, shapes
    assert all(area > 300 for area in areas), areas  # a disc of radius 10 (π·100), not the former points
    assert rows_on_disk(parcels_gpkg, "wells") == 3  # the GeoPackage's other layer stays, as the card said


def test_an_output_that_is_its_own_input_is_refused_before_asking_and_the_table_keeps_its_rows(
        qgis_processing, plugin, emu, parcels_gpkg):
    before = digest(parcels_gpkg)
    show_dock_at(plugin, 320)
    _buffer_into_the_parcels_table(plugin, emu, parcels_gpkg, "I will write the buffers to a new table.",
                                   source="parcels")
    wait_turn(plugin, 60)
    conversation = plugin.runtime.panel.conversation
    assert not any(isinstance(w, AskUserWidget) for w in conversation.items())  # nobody is asked to lose data
    refusal = json.loads(tool_messages(emu.chat_requests()[-1], "run_processing_algorithm")[-1]["content"])["error"]
    assert "also the input 'parcels'" in refusal and "Write the result to a new layer" in refusal, refusal
    shown = "\n".join(feed(plugin))
    assert "also the input 'parcels'" in shown, shown  # the analyst reads why, in words
    assert digest(parcels_gpkg) == before and rows_on_disk(parcels_gpkg, "parcels") == 4
    assert _layers() == {"parcels": 4, "wells": 3}
