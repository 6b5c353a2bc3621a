"""Undo of an agent turn: every map change the turn made through the tools is reverted exactly, while a
manual change made afterwards to another layer stays."""

from __future__ import annotations

import httpx
import pytest
from qgis.core import QgsCoordinateReferenceSystem, QgsProject, QgsRectangle
from qgis.PyQt.QtCore import QSize

from stacgis_agent.tools.server import build_server
from testkit.qgis_drivers.canvas_layers import city_layer, dem_layer
from testkit.servers.canvas_servers import canvas_deps, canvas_stac, gdal_test_config
from testkit.servers.mcp_calls import OneShotClient
from testkit.worlds.stac_fixtures import write_static_catalog


@pytest.fixture(scope="module")
def static_stac(tmp_path_factory):
    with gdal_test_config(), canvas_stac(tmp_path_factory.mktemp("undo-cogs"), with_api=False) as (cogs, _api, data):
        yield write_static_catalog(tmp_path_factory.mktemp("undo-static") / "catalog", data)


@pytest.fixture
async def turn(static_stac, qgis_iface, qgis_new_project, tmp_path):
    canvas = qgis_iface.mapCanvas()
    canvas.resize(QSize(600, 400))
    QgsProject.instance().setCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    canvas.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    cities, dem = city_layer(), dem_layer(tmp_path)
    QgsProject.instance().addMapLayers([dem, cities])
    canvas.setExtent(QgsRectangle(4.5, 44.5, 8.0, 46.5))
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, str(static_stac), str(tmp_path / "out"), qgis_iface)
        # the analyst approves the removals this turn asks for: undo is what is tested here
        yield OneShotClient(build_server(deps, canvas=True), user_approves=True), deps, canvas
    QgsProject.instance().removeAllMapLayers()


def _tree() -> list[str]:
    return [node.name() for node in QgsProject.instance().layerTreeRoot().children()]


def _looks(name: str) -> tuple:
    layer = QgsProject.instance().mapLayersByName(name)[0]
    renderer = layer.renderer()
    classes = (renderer.classificationMin(), renderer.classificationMax()) if hasattr(renderer, "classificationMin") else ()
    return renderer.type(), classes, layer.opacity(), getattr(layer, "labelsEnabled", lambda: None)()


async def _call(client, name, arguments):
    result = await client.call_tool(name, arguments)
    assert not result.is_error, result.content[0].text
    return result


async def test_undo_restores_layers_renderers_extent_and_crs_but_keeps_a_later_manual_change(turn):
    client, deps, canvas = turn
    history = deps.turn_history
    tree_before = _tree()
    looks_before = {name: _looks(name) for name in ("cities", "dem")}
    extent_before = canvas.extent()

    history.begin_turn("turn-1")
    await _call(client, "load_stac_items", {"collection": "tiles", "item_ids": ["tile-0", "tile-1"]})
    await _call(client, "set_layer_style", {"layer": "dem", "ramp": "Greys", "minimum": 50, "maximum": 120, "opacity": 0.3})
    await _call(client, "set_layer_style", {"layer": "cities", "renderer": "categorized", "field": "country",
                                            "labels_field": "name"})
    await _call(client, "set_map_style", {"basemap": "OpenStreetMap", "crs": "EPSG:3857"})
    await _call(client, "zoom_to_location", {"lon": 6.1, "lat": 45.9, "scale": 10000})
    await _call(client, "remove_layer", {"layer": "cities"})
    history.end_turn()
    assert "cities" not in _tree() and len(_tree()) == len(tree_before) + 1  # group added, basemap added, cities gone

    manual = city_layer("my notes")  # the analyst's own edit after the turn, on another layer
    QgsProject.instance().addMapLayer(manual)
    manual.setOpacity(0.7)

    undone = history.undo_last_turn()
    assert undone is not None and undone.turn_id == "turn-1"
    assert _tree() == ["my notes", *tree_before]
    assert {name: _looks(name) for name in ("cities", "dem")} == looks_before
    assert canvas.mapSettings().destinationCrs().authid() == "EPSG:4326"
    assert QgsProject.instance().crs().authid() == "EPSG:4326"
    assert canvas.extent().toString(6) == extent_before.toString(6)
    assert manual.opacity() == 0.7 and QgsProject.instance().mapLayer(manual.id()) is manual
    assert history.undo_last_turn() is None  # nothing left to undo


async def test_undo_last_turn_tool_reverts_the_previous_request_not_the_current_one(turn):
    client, deps, _canvas = turn
    history = deps.turn_history
    tree_before = _tree()
    history.begin_turn("turn-1")
    await _call(client, "load_stac_asset", {"collection": "ndvi", "item_id": "ndvi-1"})
    history.end_turn()
    assert "tiles" not in _tree() and len(_tree()) == 3
    history.begin_turn("turn-2")  # the user says "undo that"
    result = await _call(client, "undo_last_turn", {})
    assert result.structured_content["turn"] == "turn-1"
    assert _tree() == tree_before
    again = await client.call_tool("undo_last_turn", {})
    assert again.is_error and "no earlier change" in again.content[0].text


async def test_a_layer_removed_from_a_group_comes_back_into_it_even_after_the_group_moved(turn):
    client, deps, _canvas = turn
    history = deps.turn_history
    history.begin_turn("turn-1")
    loaded = await _call(client, "load_stac_items", {"collection": "tiles", "item_ids": ["tile-0", "tile-1"],
                                                     "footprints": True})
    history.end_turn()
    group_name = loaded.structured_content["group"]
    history.begin_turn("turn-2")
    await _call(client, "remove_layer", {"layer": f"{group_name} footprints"})
    history.end_turn()
    root = QgsProject.instance().layerTreeRoot()
    group = root.findGroup(group_name)
    moved = group.clone()  # the analyst drags the group to the bottom
    root.addChildNode(moved)
    root.removeChildNode(group)
    history.undo_last_turn()
    names = [n.layer().name() for n in root.findGroup(group_name).findLayers()]
    assert names == [f"{group_name} footprints", group_name]
