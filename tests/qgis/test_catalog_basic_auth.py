"""A team's STAC API (real stac-fastapi-pgstac) and its COGs behind HTTP Basic auth, the password in a real
QGIS auth config: search → load a layer → statistics; a wrong password gets a message naming the catalog
and what to check; the saved project holds neither the password nor the header."""

from __future__ import annotations

import base64
import zipfile

import httpx
import pytest
from osgeo import gdal
from qgis.core import QgsApplication, QgsPointXY, QgsProject

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.host.settings_store import store_secret
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.server import build_server
from testkit.qgis_drivers.canvas_fixtures import TILE_DEG, TILES_NORTH, TILES_WEST, make_canvas_data
from testkit.servers.basic_auth_front import BasicAuthFront
from testkit.servers.canvas_servers import gdal_test_config
from testkit.servers.loopback import server_missing
from testkit.servers.mcp_calls import OneShotClient
from testkit.servers.stac_api import StacApi, StacApiUnavailable

USER, PASSWORD = "analyst", "c0rrect-h0rse"


@pytest.fixture(scope="module")
def team_catalog(tmp_path_factory):
    cogs = tmp_path_factory.mktemp("cogs")
    api = StacApi()
    front = BasicAuthFront(cogs, api.url, USER, PASSWORD)
    data = make_canvas_data(cogs, front.url + "/cogs")
    try:
        api.start()
    except StacApiUnavailable as exc:
        api.stop()
        server_missing(str(exc))
    api.load(data.collections, data.items)
    front.start()
    yield front
    front.stop()
    api.stop()


@pytest.fixture
def auth_manager():
    manager = QgsApplication.authManager()
    if not manager.masterPasswordIsSet():
        assert manager.setMasterPassword("stacgis-test-master", True)
    return manager


@pytest.fixture
def gdal_clean():
    with gdal_test_config():
        gdal.SetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", None)  # GDAL 3.6 refuses /vsicurl?… with it
        yield
    gdal.VSICurlClearCache()
    QgsProject.instance().removeAllMapLayers()


def _client(http, front, work, iface, auth_cfg):
    config = CatalogConfig(name="Team STAC", url=front.url, access="qgis_auth", auth_cfg=auth_cfg)
    deps = ToolDeps.from_settings(Settings(catalogs=[config]), http=http, work_dir=str(work),
                                  project=QgsProject.instance, iface=lambda: iface)
    return OneShotClient(build_server(deps, canvas=True))


async def test_basic_auth_from_a_qgis_auth_config_search_load_statistics(team_catalog, auth_manager, gdal_clean,
                                                                         qgis_iface, qgis_new_project, tmp_path):
    front = team_catalog
    auth_cfg = store_secret("Team STAC", USER, PASSWORD)
    async with httpx.AsyncClient() as http:
        client = _client(http, front, tmp_path, qgis_iface, auth_cfg)
        found = await client.call_tool("search_items", {"collections": ["tiles"], "limit": 2})
        assert not found.is_error, found.content[0].text
        assert found.structured_content["returned"] == 2
        loaded = await client.call_tool("load_stac_asset", {"collection": "tiles", "item_id": "tile-1"})
        assert not loaded.is_error, loaded.content[0].text
        [layer] = QgsProject.instance().mapLayers().values()
        value, ok = layer.dataProvider().sample(QgsPointXY(TILES_WEST + 1.5 * TILE_DEG, TILES_NORTH - 0.5 * TILE_DEG), 1)
        assert ok and 40 < value < 100
        stats = await client.call_tool("get_raster_statistics", {"source": layer.name()})
        assert not stats.is_error, stats.content[0].text
        assert 40 < stats.structured_content["mean"] < 100
    project_file = tmp_path / "team.qgz"
    assert QgsProject.instance().write(str(project_file))
    with zipfile.ZipFile(project_file) as qgz:
        text = "".join(qgz.read(name).decode("utf-8", "replace") for name in qgz.namelist())
    encoded = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
    assert "tile-1.tif" in text and PASSWORD not in text and encoded not in text


async def test_a_wrong_password_is_named_with_what_to_check(team_catalog, auth_manager, gdal_clean, qgis_iface,
                                                            qgis_new_project, tmp_path):
    front = team_catalog
    refused_before = front.refused
    auth_cfg = store_secret("Team STAC (old password)", USER, "last-years-password")
    async with httpx.AsyncClient() as http:
        client = _client(http, front, tmp_path, qgis_iface, auth_cfg)
        result = await client.call_tool("search_items", {"collections": ["tiles"]})
    assert result.is_error
    text = result.content[0].text
    assert "'Team STAC'" in text and "401" in text and "user name and password" in text
    assert front.refused > refused_before
