"""Session-wide real servers for the integration tier: a STAC API (stac-fastapi-pgstac on
PostgreSQL + PostGIS) and an HTTP server for COGs with Range support; started once, stopped at the end."""

from __future__ import annotations

import os

import httpx
import pytest

from testkit.servers.cog_server import CogServer
from testkit.servers.stac_api import StacApi, StacApiUnavailable
from testkit.worlds.stac_fixtures import make_test_data, write_static_catalog

GDAL_TEST_CONFIG = {"GDAL_DISABLE_READDIR_ON_OPEN": "EMPTY_DIR", "CPL_VSIL_CURL_ALLOWED_EXTENSIONS": ".tif,.tiff",
                    "GDAL_HTTP_MAX_RETRY": "0", "GDAL_HTTP_TIMEOUT": "10"}


def _unavailable(message: str):
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def gdal_config():
    from osgeo import gdal

    for key, value in GDAL_TEST_CONFIG.items():
        gdal.SetConfigOption(key, value)
    yield GDAL_TEST_CONFIG
    for key in GDAL_TEST_CONFIG:
        gdal.SetConfigOption(key, None)


@pytest.fixture(scope="session")
def cog_server(tmp_path_factory):
    server = CogServer(tmp_path_factory.mktemp("cogs")).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def test_data(cog_server):
    return make_test_data(cog_server.root, cog_server.url)


@pytest.fixture(scope="session")
def stac_api(test_data):
    api = StacApi()
    try:
        api.start()
    except StacApiUnavailable as exc:
        api.stop()
        _unavailable(str(exc))
    api.load(test_data.collections, test_data.items)
    # eo:cloud_cover becomes a declared queryable, as a catalog operator would configure it
    api.sql("INSERT INTO pgstac.queryables (name, definition, property_wrapper) VALUES "
            "('eo:cloud_cover', '{\"type\": \"number\", \"title\": \"Cloud cover\"}', 'to_float') "
            "ON CONFLICT DO NOTHING")
    yield api
    api.stop()


@pytest.fixture(scope="session")
def static_catalog_path(tmp_path_factory, test_data):
    return write_static_catalog(tmp_path_factory.mktemp("static") / "catalog", test_data)


@pytest.fixture
async def wire_log():
    """An httpx client that records every request it sends (method, URL, JSON body)."""
    sent: list[tuple[str, str, bytes]] = []

    async def record(request: httpx.Request) -> None:
        sent.append((request.method, str(request.url), request.content))

    async with httpx.AsyncClient(timeout=10, event_hooks={"request": [record]}) as client:
        yield client, sent


@pytest.fixture
def make_deps(tmp_path):
    """ToolDeps over a given httpx client and catalogs; files tools write go under tmp_path."""
    from stacgis_agent.agent.config import CatalogConfig, Settings
    from stacgis_agent.tools.deps import ToolDeps

    def build(http: httpx.AsyncClient, catalogs: dict[str, str], **kwargs):
        configs = [CatalogConfig(name=name, url=url, kind="static" if url.endswith(".json") else "api")
                   for name, url in catalogs.items()]
        return ToolDeps.from_settings(Settings(catalogs=configs), http=http, work_dir=str(tmp_path), **kwargs)

    return build
