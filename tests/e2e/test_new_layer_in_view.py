"""Issue 27.3: a layer a tool adds is where the analyst can see it. After the analyst zoomed elsewhere
(Tokyo), load_stac_asset and compute_index bring the new layer into view and say so; when the view already
shows the layer, the analyst's zoom stays. Driven through the dock: typed, Enter; judged on the canvas."""

from __future__ import annotations

import json

import pytest
from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsProject, QgsVectorLayer

from testkit.llm.ollama_emulator import Turn
from testkit.llm.reactive_emulator import tool_messages, tool_results
from testkit.qgis_drivers.analyst_view import chat, layers_named
from testkit.qgis_drivers.plugin_driver import send, wait_turn
from testkit.qgis_drivers.screen_checks import clipped_texts, save_shot, show_dock_at

NDVI = {"collection": "demo-ndvi", "item_id": "demo-ndvi-2025-06-15"}


@pytest.fixture(autouse=True)
def _a_layer_already_there(qgis_new_project, qgis_iface):
    """An analyst's project, as QGIS has it: a CRS (web mercator) and a layer already, so QGIS does not zoom
    to the first layer added by itself."""
    crs = QgsCoordinateReferenceSystem("EPSG:3857")
    QgsProject.instance().setCrs(crs)
    qgis_iface.mapCanvas().setDestinationCrs(crs)
    QgsProject.instance().addMapLayer(QgsVectorLayer("Point?crs=EPSG:4326", "my points", "memory"))


def _extent_on_canvas(canvas, layer):
    to_canvas = QgsCoordinateTransform(layer.crs(), canvas.mapSettings().destinationCrs(), QgsProject.instance())
    return to_canvas.transformBoundingBox(layer.extent())


def _new_raster(before: set[str]):
    added = [lyr for lyr in QgsProject.instance().mapLayers().values() if lyr.id() not in before]
    assert len(added) == 1, [lyr.name() for lyr in added]
    return added[0]


PLACES = {"Tokyo": {"lon": 139.69, "lat": 35.69, "scale": 200_000}, "Lyon": {"place": "Lyon"}}


def _zoom_to(plugin, emu, place: str) -> None:
    emu.script(Turn(tool_calls=[("zoom_to_location", PLACES[place])]), Turn(content=f"The map shows {place}."))
    send(plugin, f"Zoom to {place}")
    wait_turn(plugin, 60)
    told = tool_messages(emu.chat_requests()[-1], "zoom_to_location")[0]["content"]
    assert told.startswith("Zoomed to"), told


def _answer_as_told(tool: str):
    """The model tells the analyst the tool's summary line in its answer, as a real model does (not the
    JSON data and notes that follow it, which are for the model)."""
    return lambda body: Turn(content=tool_messages(body, tool)[0]["content"].split("\n", 1)[0])


def test_a_layer_added_after_a_zoom_elsewhere_is_brought_into_view_and_the_answer_says_so(plugin, emu, qgis_iface):
    show_dock_at(plugin, 320)
    canvas = qgis_iface.mapCanvas()
    _zoom_to(plugin, emu, "Tokyo")
    tokyo = canvas.extent()
    before = set(QgsProject.instance().mapLayers())
    emu.script(Turn(tool_calls=[("load_stac_asset", NDVI)]), _answer_as_told("load_stac_asset"))
    send(plugin, "Show the June NDVI")
    wait_turn(plugin, 60)
    layer = _new_raster(before)
    assert not tokyo.intersects(_extent_on_canvas(canvas, layer))  # it was out of view: Lyon, not Tokyo
    assert canvas.extent().contains(_extent_on_canvas(canvas, layer)), canvas.extent().toString()
    role, text = chat(plugin)[-1]
    assert "now shows the new layer" in text and "it is in the current view" not in text, text
    assert tool_results(emu.chat_requests()[-1], "load_stac_asset")[0]["view"] == "moved to the new layer"
    assert clipped_texts(plugin.dock) == [], clipped_texts(plugin.dock)
    save_shot(plugin, "layer-brought-into-view")


def test_when_the_view_shows_the_new_layer_the_analysts_zoom_stays(plugin, emu, qgis_iface):
    canvas = qgis_iface.mapCanvas()
    _zoom_to(plugin, emu, "Lyon")
    lyon = canvas.extent()
    emu.script(Turn(tool_calls=[("load_stac_asset", NDVI)]), _answer_as_told("load_stac_asset"))
    send(plugin, "Show the June NDVI")
    wait_turn(plugin, 60)
    assert canvas.extent() == lyon, (canvas.extent().toString(), lyon.toString())
    assert "it is in the current view" in chat(plugin)[-1][1]


def test_undo_puts_the_layer_away_and_the_view_back(plugin, emu, qgis_iface):
    canvas = qgis_iface.mapCanvas()
    _zoom_to(plugin, emu, "Tokyo")
    tokyo = canvas.extent()
    emu.script(Turn(tool_calls=[("load_stac_asset", NDVI)]), Turn(content="Shown."))
    send(plugin, "Show the June NDVI")
    wait_turn(plugin, 60)
    assert canvas.extent() != tokyo
    from qgis.PyQt.QtCore import Qt
    from qgis.PyQt.QtTest import QTest

    from testkit.qgis_drivers.plugin_driver import process_until

    answer = plugin.runtime.panel.conversation.bubbles()[-1]
    assert not answer.undo_button.isHidden()
    QTest.mouseClick(answer.undo_button, Qt.MouseButton.LeftButton)
    assert process_until(lambda: not layers_named(answer_layer_name(emu)), 10)
    assert process_until(lambda: canvas.extent() == tokyo, 10), canvas.extent().toString()


def answer_layer_name(emu) -> str:
    return tool_results(emu.chat_requests()[-1], "load_stac_asset")[0]["layers"][0]["name"]


@pytest.mark.server
def test_compute_index_after_a_zoom_elsewhere_shows_the_index(make_plugin, emu, qgis_iface, tmp_path_factory):
    from testkit.worlds.collection_world import COLLECTION, DATES, served_collection_world

    with served_collection_world(tmp_path_factory.mktemp("s2-view")) as (api, s2):
        plugin = make_plugin(catalogs=json.dumps([{"name": "Sentinel-2 Lyon", "url": api.url, "kind": "api"}]))
        canvas = qgis_iface.mapCanvas()
        _zoom_to(plugin, emu, "Tokyo")
        before = set(QgsProject.instance().mapLayers())
        emu.script(Turn(tool_calls=[("compute_index", {"index": "NDVI", "collection": COLLECTION,
                                                       "datetime": DATES[0], "polygon": s2.area})]),
                   _answer_as_told("compute_index"))
        send(plugin, "NDVI of my study area on the first date")
        wait_turn(plugin, 60)
        layer = _new_raster(before)
        assert canvas.extent().contains(_extent_on_canvas(canvas, layer)), canvas.extent().toString()
        assert "now shows the new layer" in chat(plugin)[-1][1], chat(plugin)[-1]
