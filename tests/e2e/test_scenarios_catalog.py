"""Scenarios 1–3 of an analyst's day over Lyon, through the real plugin against a real STAC API with COGs
over HTTP: find collections, show a scene over the current view, statistics of the selected parcel."""

from __future__ import annotations

import numpy as np
import pytest
from qgis.core import QgsFeature, QgsGeometry, QgsProject, QgsRasterLayer, QgsVectorLayer

from testkit.llm.ollama_emulator import Turn
from testkit.llm.reactive_emulator import tool_results
from testkit.qgis_drivers.analyst_view import (
    chat,
    feed,
    layer_tree,
    saved_events,
    saved_sessions,
    show_lonlat,
)
from testkit.qgis_drivers.plugin_driver import send, wait_turn
from testkit.worlds.e2e_world import ALPS_BBOX, DATES, INDEX_NODATA, NORTH, PIXEL, WEST

pytestmark = pytest.mark.server
LYON = [4.80, 45.73, 4.87, 45.79]


def test_which_collections_cover_lyon(lyon_plugin, emu):
    emu.script(Turn(thinking="Search collections overlapping Lyon.",
                    tool_calls=[("search_collections", {"bbox": LYON})]),
               lambda body: Turn(content="Collections covering Lyon: " + ", ".join(
                   c["id"] for c in tool_results(body, "search_collections")[0]["collections"]) + "."))
    send(lyon_plugin, "Which collections cover Lyon?")
    wait_turn(lyon_plugin)

    found = tool_results(emu.chat_requests()[-1], "search_collections")[0]
    ids = sorted(c["id"] for c in found["collections"])
    assert ids == ["lyon-elevation", "lyon-ndvi", "lyon-notes", "lyon-rgb"]  # not the Alps
    assert ALPS_BBOX[0] > LYON[2]
    assert chat(lyon_plugin) == [
        ("user", "Which collections cover Lyon?"),
        ("assistant", "Collections covering Lyon: " + ", ".join(c["id"] for c in found["collections"]) + ".")]
    assert "Calling search_collections" in feed(lyon_plugin)
    assert [e["type"] for e in saved_events(lyon_plugin)].count("tool_result") == 1


def test_rgb_scene_of_june_over_the_current_view(lyon_plugin, emu, qgis_iface):
    view = show_lonlat(qgis_iface, LYON)
    bbox = [round(v, 5) for v in (view.xMinimum(), view.yMinimum(), view.xMaximum(), view.yMaximum())]
    emu.script(
        Turn(tool_calls=[("search_items", {"collections": ["lyon-rgb"], "bbox": bbox,
                                           "datetime": "2024-06-01/2024-06-30"})]),
        lambda body: Turn(tool_calls=[("load_stac_items", {
            "item_collection_file": tool_results(body, "search_items")[0]["item_collection_file"],
            "footprints": True})]),
        lambda body: Turn(tool_calls=[("zoom_to_location", {
            "layer": tool_results(body, "load_stac_items")[0]["layers"][0]["name"]})]),
        Turn(content="Here is the June scene over your view."))
    send(lyon_plugin, "Show me the RGB scene of June over the current view")
    wait_turn(lyon_plugin)

    # The model was told the canvas extent, and searched with it.
    first = emu.chat_requests()[0]["messages"]
    assert any(f"{bbox[0]:.3f}"[:5] in m["content"] for m in first if m["role"] == "user")
    search = tool_results(emu.chat_requests()[1], "search_items")[0]
    assert [i["id"] for i in search["items"]] == ["rgb-2024-06-15"]

    loaded = tool_results(emu.chat_requests()[2], "load_stac_items")[0]
    group = loaded["group"]
    tree = layer_tree()
    raster_names = [n for n in tree[group] if "footprints" not in n]
    assert len(raster_names) == 1 and len(tree[group]) == 2, tree
    layer = QgsProject.instance().mapLayersByName(raster_names[0])[0]
    assert isinstance(layer, QgsRasterLayer) and layer.isValid()
    assert layer.renderer().type() == "multibandcolor"
    assert layer.source().startswith("/vsicurl/") or layer.source().endswith(".vrt")

    extent = qgis_iface.mapCanvas().extent()
    ext = layer.extent()
    assert extent.contains(ext)  # zoomed to the scene: all of it in view, centred, filling one side
    assert abs(extent.center().x() - ext.center().x()) < 0.005 and abs(extent.center().y() - ext.center().y()) < 0.005
    assert min(extent.width() / ext.width(), extent.height() / ext.height()) < 1.3
    assert chat(lyon_plugin)[-1] == ("assistant", "Here is the June scene over your view.")
    assert [e for e in feed(lyon_plugin) if e.startswith("Calling")] == [
        "Calling search_items", "Calling load_stac_items", "Calling zoom_to_location"]
    assert saved_sessions(lyon_plugin)[0].message_count >= 2


def _parcel_layer(cols: tuple[int, int], rows: tuple[int, int]) -> QgsVectorLayer:
    """A parcel whose edges fall on pixel edges of the index rasters, so every pixel counts fully."""
    west, east = WEST + cols[0] * PIXEL, WEST + cols[1] * PIXEL
    north, south = NORTH - rows[0] * PIXEL, NORTH - rows[1] * PIXEL
    layer = QgsVectorLayer("Polygon?crs=EPSG:4326&field=name:string", "parcels", "memory")
    feature = QgsFeature(layer.fields())
    feature.setAttributes(["Parc de la Tête d'Or"])
    feature.setGeometry(QgsGeometry.fromWkt(
        f"POLYGON(({west} {south},{east} {south},{east} {north},{west} {north},{west} {south}))"))
    layer.dataProvider().addFeatures([feature])
    QgsProject.instance().addMapLayer(layer)
    return layer


def test_mean_of_the_index_over_the_selected_parcel(lyon_plugin, emu, qgis_iface, world):
    parcel = _parcel_layer((20, 60), (30, 50))
    parcel.selectAll()
    qgis_iface.setActiveLayer(parcel)
    emu.script(Turn(tool_calls=[("load_stac_asset", {"collection": "lyon-ndvi", "item_id": f"ndvi-{DATES[0]}"})]),
               lambda body: Turn(tool_calls=[("compute_zonal_stats", {
                   "source": tool_results(body, "load_stac_asset")[0]["layers"][0]["name"]})]),
               lambda body: Turn(content="Mean index over the parcel: "
                                         f"{tool_results(body, 'compute_zonal_stats')[0]['weighted_mean']:.4f}"))
    send(lyon_plugin, "Mean of the index over the selected parcel")
    wait_turn(lyon_plugin)

    stats = tool_results(emu.chat_requests()[-1], "compute_zonal_stats")[0]
    assert isinstance(stats, dict) and "weighted_mean" in stats, (stats, feed(lyon_plugin))
    block = world.index[DATES[0]][30:50, 20:60]
    expected = float(block[block != INDEX_NODATA].mean())
    assert stats["weighted_mean"] == pytest.approx(expected, abs=1e-5)
    assert chat(lyon_plugin)[-1] == ("assistant", f"Mean index over the parcel: {expected:.4f}")
    # The selection travelled with the message, as lon/lat GeoJSON.
    assert "Tête d'Or" in emu.chat_requests()[0]["messages"][-1]["content"]
    # The index layer the statistics were read from is on the map, with a diverging ramp centred on zero.
    index_layer = QgsProject.instance().mapLayersByName(f"lyon-ndvi ndvi-{DATES[0]}")[0]
    shader = index_layer.renderer()
    assert shader.type() == "singlebandpseudocolor"
    assert np.isclose(shader.classificationMin(), -shader.classificationMax())
