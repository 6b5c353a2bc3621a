"""A catalog's configured headers reach GDAL, so assets of a protected catalog open as layers (and render);
without them the tool says what to configure and adds nothing."""

from __future__ import annotations

import httpx
import pytest
from osgeo import gdal
from qgis.core import QgsPointXY, QgsProject

from stacgis_agent.tools.server import build_server
from testkit.qgis_drivers.canvas_fixtures import TILE_DEG, TILES_NORTH, TILES_WEST, make_canvas_data
from testkit.servers.canvas_servers import canvas_deps, gdal_test_config
from testkit.servers.mcp_calls import OneShotClient
from testkit.servers.protected_cogs import ProtectedCogServer
from testkit.servers.redirect_attacker import AttackerHost, RedirectingCatalog
from testkit.worlds.stac_fixtures import write_static_catalog

TOKEN = ("Authorization", "Bearer s3cret")


@pytest.fixture
def protected(tmp_path):
    servers = []

    def start():  # a fresh host:port per test, as GDAL's options are kept per path prefix
        root = tmp_path / f"cogs{len(servers)}"
        root.mkdir()
        server = ProtectedCogServer(root, *TOKEN)
        data = make_canvas_data(root, server.url)
        servers.append(server.start())
        return server, write_static_catalog(tmp_path / f"catalog{len(servers)}", data)

    with gdal_test_config():
        allowed = gdal.GetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS")
        gdal.SetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", None)  # GDAL 3.6 refuses /vsicurl?… paths with it
        try:
            yield start
        finally:
            gdal.SetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", allowed)
    for server in servers:
        server.stop()


async def _load(iface, catalog, work, headers, asset_host):
    async with httpx.AsyncClient() as http:  # credentials go only to the hosts the catalog names
        deps = canvas_deps(http, str(catalog), str(work), iface, headers=headers, asset_hosts=[asset_host])
        client = OneShotClient(build_server(deps, canvas=True))
        return await client.call_tool("load_stac_asset", {"collection": "tiles", "item_id": "tile-1"})


async def test_catalog_headers_reach_gdal_for_reading_and_rendering(protected, qgis_iface, qgis_new_project, tmp_path):
    server, catalog = protected()
    result = await _load(qgis_iface, catalog, tmp_path, {TOKEN[0]: TOKEN[1]}, f"127.0.0.1:{server.port}")
    assert not result.is_error, result.content[0].text
    [layer] = QgsProject.instance().mapLayers().values()
    value, ok = layer.dataProvider().sample(QgsPointXY(TILES_WEST + 1.5 * TILE_DEG, TILES_NORTH - 0.5 * TILE_DEG), 1)
    assert ok and 40 < value < 100  # read through QGIS's own provider, with the header
    assert server.refused == 0
    assert layer.source().startswith("/vsicurl?header_file=") and "s3cret" not in layer.source()  # no token in the project
    QgsProject.instance().removeAllMapLayers()


async def test_the_allowed_extensions_pitfall_gets_a_message_that_says_what_to_change(protected, qgis_iface,
                                                                                    qgis_new_project, tmp_path):
    server, catalog = protected()
    gdal.SetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", ".tif")
    try:
        result = await _load(qgis_iface, catalog, tmp_path, {TOKEN[0]: TOKEN[1]}, f"127.0.0.1:{server.port}")
    finally:
        gdal.SetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", None)
    assert result.is_error and "remove it" in result.content[0].text
    assert QgsProject.instance().mapLayers() == {}


async def test_without_the_header_the_error_says_to_configure_credentials(protected, qgis_iface, qgis_new_project, tmp_path):
    server, catalog = protected()
    result = await _load(qgis_iface, catalog, tmp_path, None, f"127.0.0.1:{server.port}")
    assert result.is_error
    assert "credentials" in result.content[0].text and "nothing was added" in result.content[0].text
    assert server.refused >= 1 and QgsProject.instance().mapLayers() == {}


async def test_a_layer_whose_asset_redirects_to_another_host_never_carries_the_key_there(tmp_path, qgis_iface,
                                                                                        qgis_new_project):
    root = tmp_path / "cogs"
    root.mkdir()
    attacker = AttackerHost(root)
    front = RedirectingCatalog(root, attacker, "X-Api-Key", "team-key-51")
    catalog = write_static_catalog(tmp_path / "catalog", make_canvas_data(root, f"{front.url}/go/302/2"))
    attacker.start(), front.start()
    try:
        with gdal_test_config():
            gdal.SetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", None)
            refused = await _load(qgis_iface, catalog, tmp_path, {"X-Api-Key": "team-key-51"},
                                  f"127.0.0.1:{front.port}")
    finally:
        front.stop(), attacker.stop()
    assert refused.is_error
    text = refused.content[0].text
    assert f"127.0.0.2:{attacker.port}" in text and "Asset hosts" in text and "nothing was added" in text
    assert attacker.carried("team-key-51") == [] and QgsProject.instance().mapLayers() == {}
