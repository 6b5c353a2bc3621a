"""S3 end to end against an S3-compatible server on loopback (moto, signatures checked) with a requester-pays
bucket, keys in a real QGIS auth config: search → load a layer → statistics; without 'Requester pays' and with
a wrong secret the message says what to change; the saved project holds neither key nor secret."""

from __future__ import annotations

import copy
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
from testkit.servers.canvas_servers import gdal_test_config
from testkit.servers.mcp_calls import OneShotClient
from testkit.servers.s3_server import S3Server
from testkit.worlds.stac_fixtures import write_static_catalog

BUCKET = "landsat-rp"


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    root = tmp_path_factory.mktemp("bucket")
    data = make_canvas_data(root, f"s3://{BUCKET}")
    catalog = write_static_catalog(tmp_path_factory.mktemp("catalog"), data)
    server = S3Server(root, BUCKET, requester_pays=True).start()
    server.data = data
    yield server, catalog
    server.stop()


@pytest.fixture
def auth_manager():
    manager = QgsApplication.authManager()
    if not manager.masterPasswordIsSet():
        assert manager.setMasterPassword("stacgis-test-master", True)
    return manager


@pytest.fixture
def gdal_clean():
    with gdal_test_config():
        yield
    gdal.ClearPathSpecificOptions(f"/vsis3/{BUCKET}/")
    gdal.VSICurlClearCache()
    QgsProject.instance().removeAllMapLayers()


def _client(http, server, catalog, work, iface, auth_cfg, requester_pays=True):
    config = CatalogConfig(name="USGS Landsat", url=str(catalog), kind="static", access="s3", auth_cfg=auth_cfg,
                           s3_requester_pays=requester_pays, s3_region="us-west-2", s3_endpoint=server.endpoint,
                           asset_hosts=[BUCKET])
    deps = ToolDeps.from_settings(Settings(catalogs=[config]), http=http, work_dir=str(work),
                                  project=QgsProject.instance, iface=lambda: iface)
    return OneShotClient(build_server(deps, canvas=True))


async def test_requester_pays_bucket_search_load_and_statistics(s3, auth_manager, gdal_clean, qgis_iface,
                                                                qgis_new_project, tmp_path):
    server, catalog = s3
    auth_cfg = store_secret("S3 keys", server.key_id, server.secret)
    async with httpx.AsyncClient() as http:
        client = _client(http, server, catalog, tmp_path, qgis_iface, auth_cfg)
        found = await client.call_tool("search_items", {"collections": ["tiles"], "bbox": [6.0, 45.2, 6.3, 45.5]})
        assert not found.is_error and found.structured_content["returned"] >= 1
        loaded = await client.call_tool("load_stac_asset", {"collection": "tiles", "item_id": "tile-0"})
        assert not loaded.is_error, loaded.content[0].text
        [layer] = QgsProject.instance().mapLayers().values()
        assert layer.source() == f"/vsis3/{BUCKET}/tile-0.tif"
        value, ok = layer.dataProvider().sample(QgsPointXY(TILES_WEST + 0.5 * TILE_DEG, TILES_NORTH - 0.5 * TILE_DEG), 1)
        assert ok and 40 < value < 100  # QGIS's renderer side reads the bucket with the catalog's settings
        stats = await client.call_tool("get_raster_statistics", {"source": layer.name()})
        assert not stats.is_error, stats.content[0].text
        assert 40 < stats.structured_content["mean"] < 100
    project_file = tmp_path / "landsat.qgz"
    assert QgsProject.instance().write(str(project_file))
    with zipfile.ZipFile(project_file) as qgz:
        text = "".join(qgz.read(name).decode("utf-8", "replace") for name in qgz.namelist())
    assert f"/vsis3/{BUCKET}/tile-0.tif" in text
    assert server.secret not in text and server.key_id not in text and auth_cfg  # only in the auth database


async def test_without_requester_pays_the_message_says_to_tick_it(s3, auth_manager, gdal_clean, qgis_iface,
                                                                  qgis_new_project, tmp_path):
    server, catalog = s3
    auth_cfg = store_secret("S3 keys", server.key_id, server.secret)
    async with httpx.AsyncClient() as http:
        client = _client(http, server, catalog, tmp_path, qgis_iface, auth_cfg, requester_pays=False)
        result = await client.call_tool("load_stac_asset", {"collection": "tiles", "item_id": "tile-1"})
    assert result.is_error
    text = result.content[0].text
    assert "'USGS Landsat'" in text and "requester-pays" in text and "Requester pays" in text
    assert QgsProject.instance().mapLayers() == {}


async def test_a_wrong_secret_is_refused_with_what_to_check(s3, auth_manager, gdal_clean, qgis_iface,
                                                            qgis_new_project, tmp_path):
    server, catalog = s3
    auth_cfg = store_secret("S3 keys (wrong)", server.key_id, "not-the-secret")
    async with httpx.AsyncClient() as http:
        client = _client(http, server, catalog, tmp_path, qgis_iface, auth_cfg)
        result = await client.call_tool("get_raster_statistics", {"source": f"s3://{BUCKET}/tile-2.tif"})
    assert result.is_error
    text = result.content[0].text
    assert "'USGS Landsat'" in text and "access key and secret" in text


async def test_an_s3_catalog_reads_the_s3_alternate_when_the_href_is_https(s3, auth_manager, gdal_clean, qgis_iface,
                                                                           qgis_new_project, tmp_path):
    server, _ = s3
    data = copy.deepcopy(server.data)
    for item in data.items:  # like USGS LandsatLook: https first, the bucket as the S3 alternate
        for asset in item["assets"].values():
            asset["alternate"] = {"s3": {"href": asset["href"]}}
            asset["href"] = asset["href"].replace(f"s3://{BUCKET}", "https://landsatlook.invalid/data")
    catalog = write_static_catalog(tmp_path / "landsatlook", data)
    auth_cfg = store_secret("S3 keys", server.key_id, server.secret)
    async with httpx.AsyncClient() as http:
        client = _client(http, server, catalog, tmp_path, qgis_iface, auth_cfg)
        loaded = await client.call_tool("load_stac_asset", {"collection": "tiles", "item_id": "tile-1"})
    assert not loaded.is_error, loaded.content[0].text
    [layer] = QgsProject.instance().mapLayers().values()
    assert layer.source() == f"/vsis3/{BUCKET}/tile-1.tif"


async def test_without_an_auth_config_the_aws_profile_chain_is_used(s3, gdal_clean, qgis_iface, qgis_new_project,
                                                                    tmp_path):
    server, catalog = s3
    credentials = tmp_path / "aws-credentials"
    credentials.write_text(f"[analyst]\naws_access_key_id = {server.key_id}\naws_secret_access_key = {server.secret}\n")
    gdal.SetConfigOption("CPL_AWS_CREDENTIALS_FILE", str(credentials))  # as ~/.aws/credentials would be
    gdal.SetConfigOption("AWS_PROFILE", "analyst")
    try:
        async with httpx.AsyncClient() as http:
            client = _client(http, server, catalog, tmp_path, qgis_iface, auth_cfg="")
            stats = await client.call_tool("get_raster_statistics", {"source": f"s3://{BUCKET}/tile-2.tif"})
    finally:
        gdal.SetConfigOption("CPL_AWS_CREDENTIALS_FILE", None)
        gdal.SetConfigOption("AWS_PROFILE", None)
    assert not stats.is_error, stats.content[0].text
    assert 40 < stats.structured_content["mean"] < 100
