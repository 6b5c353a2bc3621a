"""Loading a remote COG keeps its reads and QGIS's opening of the layer off the GUI thread (where async
tools run): GDAL reads the header and overviews in a worker, and QGIS opens the layer there too (on
construction it reads band statistics and samples its default stretch); the layer then moves to the GUI
thread, which only styles it and adds it to the project. The footprints file is opened by OGR in a worker
as well. (bench/bench_layer_loading_stall.py measures the stalls, idle and on a busy machine.)"""

from __future__ import annotations

import threading

import httpx
import numpy as np
import pytest
from osgeo import gdal
from qgis.core import QgsMultiBandColorRenderer, QgsProject, QgsSingleBandPseudoColorRenderer, QgsVectorLayer
from qgis.PyQt.QtCore import QCoreApplication

from stacgis_agent.tools.canvas import family, footprints, stac_layers
from stacgis_agent.tools.server import build_server
from testkit.servers.canvas_servers import canvas_deps, gdal_test_config
from testkit.servers.cog_server import CogServer
from testkit.servers.mcp_calls import OneShotClient
from testkit.worlds.analyst_world import _utm_to_lonlat, write_geotiff, write_static_catalog

SIZE, PIXEL, ORIGIN = 1024, 10.0, (600_000.0, 5_100_000.0)  # 256-px blocks: overviews of 512 and 256 px


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("big-cogs")
    y, x = np.mgrid[0:SIZE, 0:SIZE]
    rng = np.random.default_rng(1)
    write_geotiff(root / "band.tif", (1200 + 3 * x + 2 * y + rng.integers(0, 50, x.shape)).astype(np.uint16),
                  ORIGIN, PIXEL, epsg=32631)
    write_geotiff(root / "visual.tif", np.stack([x % 256, y % 256, (x + y) % 256]).astype(np.uint8), ORIGIN, PIXEL,
                  epsg=32631)
    with gdal_test_config():
        cogs = CogServer(root).start()
        bbox = _utm_to_lonlat(32631, [ORIGIN[0], ORIGIN[0] + SIZE * PIXEL], [ORIGIN[1] - SIZE * PIXEL, ORIGIN[1]])
        item = {"type": "Feature", "stac_version": "1.1.0", "id": "big", "collection": "big", "bbox": bbox,
                "geometry": {"type": "Polygon", "coordinates": [[[bbox[0], bbox[1]], [bbox[2], bbox[1]],
                                                                 [bbox[2], bbox[3]], [bbox[0], bbox[3]],
                                                                 [bbox[0], bbox[1]]]]},
                "properties": {"datetime": "2025-09-12T10:00:00Z", "proj:code": "EPSG:32631"},
                "assets": {"band": {"href": cogs.href("band.tif"), "type": "image/tiff", "roles": ["data"],
                                    "bands": [{"name": "B04", "eo:common_name": "red", "nodata": 0}]},
                           "visual": {"href": cogs.href("visual.tif"), "type": "image/tiff", "roles": ["visual"],
                                      "bands": [{"name": c, "eo:common_name": c} for c in ("red", "green", "blue")]}},
                "links": []}
        collection = {"type": "Collection", "stac_version": "1.1.0", "id": "big", "description": "big",
                      "license": "CC0-1.0", "extent": {"spatial": {"bbox": [bbox]},
                                                       "temporal": {"interval": [["2025-01-01T00:00:00Z", None]]}}}
        write_static_catalog(root / "stac", [collection], [item])
        yield cogs
        cogs.stop()


@pytest.fixture
async def client(server, qgis_iface, qgis_new_project, tmp_path):
    async with httpx.AsyncClient(timeout=20) as http:
        yield OneShotClient(build_server(canvas_deps(http, server.href("stac/catalog.json"), str(tmp_path), qgis_iface),
                                         extra_families=[family]))
    QgsProject.instance().removeAllMapLayers()


@pytest.mark.parametrize("asset", ["band", "visual"])
async def test_the_layer_is_opened_in_a_worker_and_added_on_the_gui_thread(client, server, monkeypatch, asset):
    opened = []

    def recording_open(*args):
        layer = real_open(*args)
        opened.append((threading.current_thread() is threading.main_thread(), layer))
        return layer

    real_open = stac_layers.open_raster
    monkeypatch.setattr(stac_layers, "open_raster", recording_open)
    gdal.VSICurlClearCache()
    server.reset_counts()
    result = await client.call_tool("load_stac_asset", {"collection": "big", "item_id": "big", "asset": asset})
    assert not result.is_error, result.content[0].text
    [(on_main_thread, layer)] = opened
    assert not on_main_thread
    assert sum(server.requests.values()) > 0  # the worker did read over HTTP
    [added] = QgsProject.instance().mapLayers().values()
    assert added is layer and layer.isValid()
    assert layer.thread() is QCoreApplication.instance().thread()  # handed to the GUI thread before adding
    kind = QgsMultiBandColorRenderer if asset == "visual" else QgsSingleBandPseudoColorRenderer
    assert isinstance(layer.renderer(), kind)


async def test_the_footprints_file_is_opened_in_a_worker(client, monkeypatch):
    opened = []

    def recording_open(*args):
        layer = real_open(*args)
        opened.append(threading.current_thread() is threading.main_thread())
        return layer

    real_open = footprints._open
    monkeypatch.setattr(footprints, "_open", recording_open)
    result = await client.call_tool("load_stac_items", {"collection": "big", "item_ids": ["big"], "asset": "band",
                                                        "footprints": True})
    assert not result.is_error, result.content[0].text
    assert opened == [False]
    [outline] = [lyr for lyr in QgsProject.instance().mapLayers().values() if isinstance(lyr, QgsVectorLayer)]
    assert outline.featureCount() == 1 and outline.thread() is QCoreApplication.instance().thread()
