"""A catalog whose assets are signed by its own SAS token endpoint (Planetary-Computer style, e.g. a private
deployment): a layer loaded from it renders its pixels in QGIS, though GDAL 3.6 reads the token endpoint only
from its process-wide config, which the plugin never sets. The blob server on loopback refuses any read without
a token of that endpoint; the rendered layer must equal the same raster rendered from disk."""

from __future__ import annotations

import asyncio
import uuid

import httpx
import numpy as np
import pytest
from osgeo import gdal
from qgis.core import QgsProject, QgsRasterLayer

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.server import build_server
from stacgis_agent.tools.stac.sas_keeper import keep_sas_tokens
from testkit.qgis_drivers.canvas_fixtures import make_canvas_data
from testkit.qgis_drivers.rendered_pixels import render
from testkit.servers.canvas_servers import gdal_test_config
from testkit.servers.mcp_calls import OneShotClient
from testkit.servers.pc_sas import PlanetaryComputerEmulator
from testkit.worlds.stac_fixtures import write_static_catalog

SIZE = 64


@pytest.fixture
def private_sas(tmp_path):
    """Starts the token endpoint and its blobs, with tokens lasting `ttl_s` (GDAL renews a minute before)."""
    started = []

    def start(ttl_s: float):
        root = tmp_path / f"blobs{len(started)}"
        root.mkdir()
        emulator = PlanetaryComputerEmulator(root, ttl_s=ttl_s)
        data = make_canvas_data(root, emulator.url)
        collection = f"tiles-{uuid.uuid4().hex[:8]}"  # GDAL keeps a token per collection name for the process
        for doc in (*data.items, *data.collections):
            for key in ("collection", "id"):
                if doc.get(key) == "tiles":
                    doc[key] = collection
        catalog = write_static_catalog(tmp_path / f"catalog{len(started)}", data)
        started.append(emulator.start())
        config = CatalogConfig(name="Private PC", url=str(catalog), kind="static", access="planetary_computer",
                               token_url=emulator.token_url, asset_hosts=[f"127.0.0.1:{emulator.port}"])
        return emulator, config, collection, root

    with gdal_test_config():
        allowed = gdal.GetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS")
        gdal.SetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", None)  # GDAL 3.6 refuses /vsicurl?… paths with it
        try:
            yield start
        finally:
            gdal.SetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", allowed)
            QgsProject.instance().removeAllMapLayers()
            for emulator in started:
                emulator.stop()


async def _load(http, config, collection, work, iface):
    deps = ToolDeps.from_settings(Settings(catalogs=[config]), http=http, work_dir=str(work),
                                  project=QgsProject.instance, iface=lambda: iface)
    client = OneShotClient(build_server(deps, canvas=True))
    loaded = await client.call_tool("load_stac_asset", {"collection": collection, "item_id": "tile-1"})
    assert not loaded.is_error, loaded.content[0].text
    [layer] = QgsProject.instance().mapLayers().values()
    return deps, layer


def _renders_as_from_disk(layer, root) -> bool:
    gdal.VSICurlClearCache()  # QGIS's renderer reads the blocks afresh, signing each request itself
    drawn = render([layer], layer.crs(), layer.extent(), SIZE, SIZE)
    local = QgsRasterLayer(str(root / "tile-1.tif"), "same raster from disk", "gdal")
    local.setRenderer(layer.renderer().clone())
    expected = render([local], layer.crs(), layer.extent(), SIZE, SIZE)
    assert (expected[..., :3] != 255).any()  # the raster draws something: a blank render cannot pass
    return np.array_equal(drawn, expected)


async def _keeper_renews(emulator, issued: int, deps, within_s: float = 20.0) -> None:
    """Runs the keeper (a turn every 0.3 s) until the token endpoint has issued a new token. GDAL renews a
    token from 2 s after it was issued (62 s tokens); the wait ends as soon as that happened, and fails
    only if no renewal came within `within_s` (a loaded CI machine delays a turn, it does not skip one)."""
    keeper = asyncio.ensure_future(keep_sas_tokens(QgsProject.instance, deps.catalogs.owner_of, every_s=0.3))
    try:
        for _ in range(int(within_s / 0.1)):
            if len(emulator.issued) > issued:
                break
            await asyncio.sleep(0.1)
    finally:
        keeper.cancel()
    assert len(emulator.issued) > issued, f"no token renewed within {within_s} s of keeper turns"


async def test_a_layer_from_a_catalog_with_its_own_sas_endpoint_renders_its_pixels(private_sas, qgis_iface,
                                                                                   qgis_new_project, tmp_path):
    emulator, config, collection, root = private_sas(600)  # tokens last 10 minutes
    assert gdal.GetConfigOption("VSICURL_PC_SAS_TOKEN_URL") is None  # nothing process-wide points GDAL at it
    async with httpx.AsyncClient() as http:
        _deps, layer = await _load(http, config, collection, tmp_path, qgis_iface)
    assert "pc_url_signing=yes" in layer.source() and "sig=" not in layer.source()  # the project keeps no token
    assert gdal.GetConfigOption("VSICURL_PC_SAS_TOKEN_URL") is None
    assert _renders_as_from_disk(layer, root)
    assert emulator.served > 0 and emulator.refused == 0 and emulator.issued  # every read signed by that endpoint


async def test_a_mosaic_of_such_items_still_renders_once_gdal_would_renew_their_token(private_sas, qgis_iface,
                                                                                     qgis_new_project, tmp_path):
    emulator, config, collection, _root = private_sas(62)
    async with httpx.AsyncClient() as http:
        deps = ToolDeps.from_settings(Settings(catalogs=[config]), http=http, work_dir=str(tmp_path),
                                      project=QgsProject.instance, iface=lambda: qgis_iface)
        client = OneShotClient(build_server(deps, canvas=True))
        loaded = await client.call_tool("load_stac_items", {"collection": collection,
                                                            "item_ids": ["tile-0", "tile-1"]})
    assert not loaded.is_error, loaded.content[0].text
    [layer] = [lyr for lyr in QgsProject.instance().mapLayers().values() if isinstance(lyr, QgsRasterLayer)]
    assert layer.source().endswith(".vrt")  # the mosaic names the items' signed paths inside
    gdal.VSICurlClearCache()
    at_load = render([layer], layer.crs(), layer.extent(), SIZE, SIZE)
    assert (at_load[..., :3] != 255).any()
    issued = len(emulator.issued)
    await _keeper_renews(emulator, issued, deps)
    gdal.VSICurlClearCache()
    assert np.array_equal(render([layer], layer.crs(), layer.extent(), SIZE, SIZE), at_load)
    assert emulator.refused == 0


async def test_a_reopened_project_renders_once_its_tokens_are_renewed(private_sas, qgis_iface, qgis_new_project,
                                                                     tmp_path):
    emulator, config, collection, root = private_sas(62)
    async with httpx.AsyncClient() as http:
        deps, _layer = await _load(http, config, collection, tmp_path, qgis_iface)
    project_file = tmp_path / "analysis.qgz"
    assert QgsProject.instance().write(str(project_file))
    QgsProject.instance().clear()
    await asyncio.sleep(2.5)  # the token GDAL holds is now one it would renew (with its default endpoint)
    assert QgsProject.instance().read(str(project_file))
    [layer] = QgsProject.instance().mapLayers().values()
    issued = len(emulator.issued)
    await _keeper_renews(emulator, issued, deps)
    assert _renders_as_from_disk(layer, root)
    assert emulator.refused == 0


async def test_an_item_signed_by_a_short_lived_token_of_its_own_endpoint_loads_as_a_layer(private_sas, qgis_iface,
                                                                                         qgis_new_project, tmp_path):
    """Tokens of 45 s: GDAL renews a token a minute before it expires, so at every request. Statistics read
    with the catalog's endpoint as their thread's option; loading a layer opened the assets in a pool of
    threads without it, which asked the public endpoint and failed ("the SAS token was missing, expired or
    could not be renewed") although this endpoint had issued a token."""
    emulator, config, collection, _root = private_sas(45)
    async with httpx.AsyncClient() as http:
        _deps, layer = await _load(http, config, collection, tmp_path, qgis_iface)
    assert layer.isValid() and "pc_url_signing=yes" in layer.source()
    assert emulator.issued and emulator.refused == 0  # every read of the load signed by this endpoint
