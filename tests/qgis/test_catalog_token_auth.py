"""Tokens kept in QGIS's auth database reach a protected catalog's assets: an Earthdata-style bearer token
(the password of an auth config), and any QGIS auth method applied as QGIS itself would (EsriToken's header,
an OAuth2 token QGIS fetches from a loopback token endpoint); a wrong token says what to do; the layer source
holds no token."""

from __future__ import annotations

import asyncio
import json
import threading

import httpx
import pytest
import uvicorn
from osgeo import gdal
from qgis.core import QgsApplication, QgsAuthMethodConfig, QgsPointXY, QgsProject
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.host.settings_store import store_secret
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.server import build_server
from testkit.qgis_drivers.canvas_fixtures import TILE_DEG, TILES_NORTH, TILES_WEST, make_canvas_data
from testkit.servers.canvas_servers import gdal_test_config
from testkit.servers.loopback import free_port
from testkit.servers.mcp_calls import OneShotClient
from testkit.servers.protected_cogs import ProtectedCogServer
from testkit.worlds.stac_fixtures import write_static_catalog

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
        client = OneShotClient(build_server(deps, canvas=True))
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


async def test_oauth2_resource_owner_token_is_fetched_by_qgis_and_sent(protected, qgis_iface, qgis_new_project,
                                                                      tmp_path):
    issued = []

    async def token(request):
        form = dict(await request.form())
        issued.append(form)
        if (form.get("username"), form.get("password")) != ("analyst", "pw"):
            return JSONResponse({"error": "invalid_grant"}, status_code=400)
        return JSONResponse({"access_token": "oauth-tok-9", "token_type": "bearer", "expires_in": 3600})

    token_server = uvicorn.Server(uvicorn.Config(Starlette(routes=[Route("/token", token, methods=["POST"])]),
                                                 host="127.0.0.1", port=free_port(), log_level="warning"))
    thread = threading.Thread(target=token_server.run, daemon=True)
    thread.start()
    while not token_server.started:
        await asyncio.sleep(0.02)
    server, catalog = protected("Authorization", "Bearer oauth-tok-9")
    config = QgsAuthMethodConfig("OAuth2")
    config.setName("Team OAuth2")
    config.setConfig("oauth2config", json.dumps({
        "configType": 1, "grantFlow": 2, "version": 1, "name": "Team OAuth2", "clientId": "plugin",
        "clientSecret": "client-secret", "username": "analyst", "password": "pw", "persistToken": False,
        "accessMethod": 0, "requestTimeout": 10, "redirectPort": 7070, "queryPairs": {},
        "tokenUrl": f"http://127.0.0.1:{token_server.config.port}/token"}))
    stored = QgsApplication.authManager().storeAuthenticationConfig(config)
    assert stored[0] if isinstance(stored, tuple) else stored
    try:
        loaded = await _load(server, catalog, tmp_path, qgis_iface, "qgis_auth", config.id())
    finally:
        token_server.should_exit = True
        thread.join(10)
    assert not loaded.is_error, loaded.content[0].text
    assert issued and issued[0]["grant_type"] == "password"
    [layer] = QgsProject.instance().mapLayers().values()
    value, ok = layer.dataProvider().sample(POINT, 1)
    assert ok and 40 < value < 100 and "oauth-tok-9" not in layer.source()


async def test_an_esri_token_with_qgis_trailing_space_reaches_a_catalog_served_over_http(protected, qgis_iface,
                                                                                       qgis_new_project, tmp_path):
    server, _ = protected("X-Esri-Authorization", "Bearer arcgis-token-456")
    write_static_catalog(server.root, make_canvas_data(server.root, server.url))  # the JSON behind the token too
    config = QgsAuthMethodConfig("EsriToken")
    config.setName("ArcGIS token over HTTP")
    config.setConfig("token", "arcgis-token-456")
    result = QgsApplication.authManager().storeAuthenticationConfig(config)
    assert result[0] if isinstance(result, tuple) else result
    catalog = CatalogConfig("ArcGIS team", f"{server.url}/catalog.json", kind="static", access="qgis_auth", auth_cfg=config.id())
    async with httpx.AsyncClient() as http:
        deps = ToolDeps.from_settings(Settings(catalogs=[catalog]), http=http, work_dir=str(tmp_path),
                                      project=QgsProject.instance, iface=lambda: qgis_iface)
        client = OneShotClient(build_server(deps, canvas=True))
        loaded = await client.call_tool("load_stac_asset", {"collection": "tiles", "item_id": "tile-0"})
    assert not loaded.is_error, loaded.content[0].text
    [layer] = QgsProject.instance().mapLayers().values()
    value, ok = layer.dataProvider().sample(POINT, 1)
    assert ok and 40 < value < 100 and server.refused == 0
