"""Tokens kept in QGIS's auth database reach a protected catalog's assets: an Earthdata-style bearer token
(the password of an auth config), and any QGIS auth method applied as QGIS itself would (here EsriToken's
header); a wrong token says what to do; the layer source holds no token."""

from __future__ import annotations

import httpx
import pytest
from osgeo import gdal
from qgis.core import QgsApplication, QgsAuthMethodConfig, QgsPointXY, QgsProject

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.host.settings_store import store_secret
from stacgis_agent.tools.canvas import family
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.server import build_server
from testkit.canvas_fixtures import TILE_DEG, TILES_NORTH, TILES_WEST, make_canvas_data
from testkit.canvas_servers import gdal_test_config
from testkit.mcp_calls import OneShotClient
from testkit.protected_cogs import ProtectedCogServer
from testkit.stac_fixtures import write_static_catalog

EDL_TOKEN = "eyJ0eXAiOiJKV1QiLCJvcmlnaW4iOiJFYXJ0aGRhdGEgTG9naW4ifQ.payload.sig"
POINT = QgsPointXY(TILES_WEST + 0.5 * TILE_DEG, TILES_NORTH - 0.5 * TILE_DEG)


@pytest.fixture
def protected(tmp_path, qgis_iface):
    manager = QgsApplication.authManager()
    if not manager.masterPasswordIsSet():
        assert manager.setMasterPassword("stacgis-test-master", True)
    servers = []

    def start(header, value):
        root = tmp_path / f"cogs{len(servers)}"
        root.mkdir()
        server = ProtectedCogServer(root, header, value)
        catalog = write_static_catalog(tmp_path / f"catalog{len(servers)}", make_canvas_data(root, server.url))
        servers.append(server.start())
        return server, catalog

    with gdal_test_config():
        gdal.SetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", None)  # GDAL 3.6 refuses /vsicurl?… with it
        yield start
    QgsProject.instance().removeAllMapLayers()
    for server in servers:
        server.stop()


async def _load(server, catalog, work, iface, access, auth_cfg):
    config = CatalogConfig("NASA LP DAAC", str(catalog), kind="static", access=access, auth_cfg=auth_cfg,
                           asset_hosts=[f"127.0.0.1:{server.port}"])
    async with httpx.AsyncClient() as http:
        deps = ToolDeps.from_settings(Settings(catalogs=[config]), http=http, work_dir=str(work),
                                      project=QgsProject.instance, iface=lambda: iface)
        client = OneShotClient(build_server(deps, extra_families=[family]))
        return await client.call_tool("load_stac_asset", {"collection": "tiles", "item_id": "tile-0"})


async def test_an_earthdata_bearer_token_reads_assets_and_a_wrong_one_says_what_to_do(protected, qgis_iface,
                                                                                   qgis_new_project, tmp_path):
    server, catalog = protected("Authorization", f"Bearer {EDL_TOKEN}")
    result = await _load(server, catalog, tmp_path, qgis_iface, "bearer", store_secret("Earthdata", "", EDL_TOKEN))
    assert not result.is_error, result.content[0].text
    [layer] = QgsProject.instance().mapLayers().values()
    value, ok = layer.dataProvider().sample(POINT, 1)
    assert ok and 40 < value < 100 and EDL_TOKEN not in layer.source()
    QgsProject.instance().removeAllMapLayers()
    gdal.VSICurlClearCache()
    wrong = await _load(server, catalog, tmp_path, qgis_iface, "bearer", store_secret("Earthdata old", "", "expired"))
    assert wrong.is_error
    assert "'NASA LP DAAC'" in wrong.content[0].text and "paste a new one" in wrong.content[0].text


async def test_a_qgis_auth_method_is_applied_as_qgis_would(protected, qgis_iface, qgis_new_project, tmp_path):
    server, catalog = protected("X-Esri-Authorization", "Bearer arcgis-token-123")
    config = QgsAuthMethodConfig("EsriToken")
    config.setName("ArcGIS token")
    config.setConfig("token", "arcgis-token-123")
    result = QgsApplication.authManager().storeAuthenticationConfig(config)
    assert result[0] if isinstance(result, tuple) else result
    loaded = await _load(server, catalog, tmp_path, qgis_iface, "qgis_auth", config.id())
    assert not loaded.is_error, loaded.content[0].text
    [layer] = QgsProject.instance().mapLayers().values()
    value, ok = layer.dataProvider().sample(POINT, 1)
    assert ok and 40 < value < 100 and "arcgis-token-123" not in layer.source()
