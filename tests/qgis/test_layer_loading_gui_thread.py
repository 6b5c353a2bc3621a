"""Loading a remote COG does its network reads in a worker: by the time QGIS opens the layer on the GUI
thread (where async tools run), everything QGIS reads — header, overviews for its default stretch — is
already in GDAL's cache, so opening it sends no HTTP request. (bench/bench_layer_stall.py measures the
stall itself against a server with latency.)"""

from __future__ import annotations

import threading

import httpx
import numpy as np
import pytest
from osgeo import gdal
from qgis.core import QgsProject, QgsRasterLayer

from stacgis_agent.tools.canvas.layers import stac_layers
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
                                         canvas=True))
    QgsProject.instance().removeAllMapLayers()


@pytest.mark.parametrize("asset", ["band", "visual"])
async def test_opening_the_layer_on_the_gui_thread_sends_no_http_request(client, server, monkeypatch, asset):
    opened = []

    def counting_open(*args):
        before = sum(server.requests.values())
        layer = QgsRasterLayer(*args)
        opened.append((threading.current_thread() is threading.main_thread(), sum(server.requests.values()) - before,
                       layer))
        return layer

    monkeypatch.setattr(stac_layers, "QgsRasterLayer", counting_open)
    gdal.VSICurlClearCache()
    server.reset_counts()
    result = await client.call_tool("load_stac_asset", {"collection": "big", "item_id": "big", "asset": asset})
    assert not result.is_error, result.content[0].text
    [(on_main_thread, requests, layer)] = opened
    assert on_main_thread and layer.isValid()
    assert sum(server.requests.values()) > 0  # the worker did read over HTTP
    assert requests == 0
