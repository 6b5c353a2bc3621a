"""Through the real plugin on the analyst's test world: the analyst types "show the September true colour
over Lyon", the (scripted) model shows the collection with its footprints, and what the map renders is the
scene's own colours — no tint from the footprints — with band names and the layer's CRS from the catalog."""

from __future__ import annotations

import numpy as np
import pytest
from qgis.core import QgsProject, QgsRasterLayer, QgsRectangle, QgsVectorLayer

from testkit.llm.ollama_emulator import Turn
from testkit.llm.reactive_emulator import tool_results
from testkit.qgis_drivers.analyst_view import chat, layer_tree
from testkit.qgis_drivers.plugin_driver import send, wait_turn
from testkit.qgis_drivers.rendered_pixels import render
from testkit.servers.canvas_servers import gdal_test_config
from testkit.worlds.analyst_world import LYON_TILE, PIXEL_M, SIZE, analyst_world

LYON = [4.80, 45.73, 4.87, 45.79]


@pytest.fixture(scope="module")
def analyst(tmp_path_factory):
    with gdal_test_config(), analyst_world(tmp_path_factory.mktemp("analyst-world")) as w:
        yield w


def test_the_september_true_colour_looks_as_the_scene_itself(make_plugin, emu, qgis_iface, analyst):
    plugin = make_plugin(catalogs=analyst.catalogs_env())
    emu.script(Turn(tool_calls=[("visualize_collection", {"collection": "sentinel-2-l2a", "bbox": LYON,
                                                          "datetime": "2025-09-12"})]),
               lambda body: Turn(content=tool_results(body, "visualize_collection")[0]["layers"][0]["name"]))
    send(plugin, "Show the September true colour over Lyon")
    wait_turn(plugin, timeout=60)

    shown = tool_results(emu.chat_requests()[-1], "visualize_collection")[0]
    [described] = shown["layers"]
    assert described["crs"] == "EPSG:32631" and described["bands"] == ["red", "green", "blue"]
    tree = layer_tree()
    assert sorted(tree[shown["group"]]) == sorted([described["name"], f"{shown['group']} footprints"])
    raster = QgsProject.instance().mapLayersByName(described["name"])[0]
    footprints = QgsProject.instance().mapLayersByName(f"{shown['group']} footprints")[0]
    assert isinstance(raster, QgsRasterLayer) and isinstance(footprints, QgsVectorLayer)
    assert chat(plugin)[-1] == ("assistant", described["name"])

    # The map as drawn with every visible layer, footprints on top, at the scene's own pixel size.
    canvas_layers = qgis_iface.mapCanvas().layers()
    assert footprints in canvas_layers and raster in canvas_layers
    west, north = LYON_TILE[2]
    margin, cols = 8, SIZE - 16
    extent = QgsRectangle(west + margin * PIXEL_M, north - (margin + cols) * PIXEL_M,
                          west + (margin + cols) * PIXEL_M, north - margin * PIXEL_M)
    pixels = render(canvas_layers, raster.crs(), extent, cols, cols)
    scene = analyst.pixels(f"visual-{LYON_TILE[0]}-2025-09-12.tif")[:, margin:margin + cols, margin:margin + cols]
    assert np.array_equal(pixels[..., :3], np.moveaxis(scene, 0, -1))
