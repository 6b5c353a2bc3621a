"""On QGIS 3.40+ the analyst's STAC connections in the Browser (QgsStacConnection) are catalogs of the plugin,
read-only and labelled; the plugin's catalogs can be written there. Searched through a recorded Planetary
Computer session replayed on loopback. QGIS 3.22–3.38 have no such connections: these tests need 3.40."""

from __future__ import annotations

import httpx
import pytest
import qgis.core

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.server import build_server
from stacgis_agent.tools.stac.browser_connections import SettingsConnections, add_to_browser
from stacgis_agent.tools.stac.search import ItemSearch
from testkit.servers.mcp_calls import OneShotClient
from testkit.servers.stac_replay import StacReplay, load_session

# PyQGIS has QgsStacConnection from 3.42; on 3.40 the plugin reads the settings QGIS keeps them in
Connections = getattr(qgis.core, "QgsStacConnection", None) or (
    SettingsConnections if qgis.core.Qgis.QGIS_VERSION_INT >= 34000 else None)
pytestmark = pytest.mark.skipif(Connections is None, reason="QGIS Browser STAC connections exist from QGIS 3.40")
PC = "https://planetarycomputer.microsoft.com/api/stac/v1"


@pytest.fixture
def replay(tmp_path):
    server = StacReplay(tmp_path, load_session("planetary-computer-landing.json",
                                               "planetary-computer-naip-paging.json"), origin=PC).start()
    yield server
    server.stop()


@pytest.fixture
def browser_connection(qgis_app, replay):
    data = Connections.Data()
    data.url = replay.url
    Connections.addConnection("Planetary replay", data)
    yield "Planetary replay"
    Connections.deleteConnection("Planetary replay")


async def test_a_browser_stac_connection_is_a_read_only_catalog_of_the_plugin(browser_connection, tmp_path):
    async with httpx.AsyncClient(timeout=10) as http:
        deps = ToolDeps.from_settings(Settings(catalogs=[]), http=http, work_dir=str(tmp_path))
        client = OneShotClient(build_server(deps))
        listed = await client.call_tool("list_catalogs", {})
        [row] = [r for r in listed.structured_content["catalogs"] if r["name"] == "Planetary replay (QGIS Browser)"]
        assert "read-only" in row["source"] and "Browser" in row["source"]
        outcome = await deps.catalogs.get(row["name"]).search(
            ItemSearch(collections=["naip"], bbox=[-73.21, 43.99, -73.12, 44.05], limit=10))
        assert len(outcome.items) == 10


@pytest.mark.skipif(not hasattr(qgis.core, "QgsStacConnection"), reason="PyQGIS has QgsStacConnection from 3.42")
def test_the_settings_read_on_3_40_are_those_qgis_writes(qgis_app):
    """On 3.40 the plugin reads the settings itself: where QGIS's own class exists, both agree."""
    data = qgis.core.QgsStacConnection.Data()
    data.url, data.authCfg = "https://example.org/stac", "abc1234"
    qgis.core.QgsStacConnection.addConnection("Written by QGIS", data)
    try:
        read = SettingsConnections.connection("Written by QGIS")
        assert "Written by QGIS" in SettingsConnections.connectionList()
        assert (read.url, read.authCfg) == ("https://example.org/stac", "abc1234")
    finally:
        qgis.core.QgsStacConnection.deleteConnection("Written by QGIS")


async def test_a_plugin_catalog_is_written_to_the_browser_once(qgis_app, replay, tmp_path):
    config = CatalogConfig(name="Plugin PC", url=replay.url, headers={"X-Api-Key": "secret"})
    name = add_to_browser(config)
    try:
        assert name in Connections.connectionList()
        written = Connections.connection(name)
        assert written.url == replay.url and "secret" not in str(written.httpHeaders)
        async with httpx.AsyncClient(timeout=10) as http:
            deps = ToolDeps.from_settings(Settings(catalogs=[config]), http=http, work_dir=str(tmp_path))
            assert deps.catalogs.names() == ["Plugin PC"]  # the same URL is not listed twice
    finally:
        Connections.deleteConnection(name)

