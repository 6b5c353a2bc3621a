"""Planetary Computer signing end to end, against a loopback SAS token API whose tokens expire in seconds and
a COG server that refuses unsigned or expired reads: search → load a layer → statistics; the token is renewed
during the session; an unreachable token API gets a message that says so; the saved project and the exported
script hold no token, and the layer re-signs when the project is opened again."""

from __future__ import annotations

import time
import zipfile

import httpx
import pytest
from osgeo import gdal
from qgis.core import QgsPointXY, QgsProject

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.server import build_server
from stacgis_agent.ui.project_script import project_to_pyqgis
from testkit.qgis_drivers.canvas_fixtures import TILE_DEG, TILES_NORTH, TILES_WEST, make_canvas_data
from testkit.servers.canvas_servers import gdal_test_config
from testkit.servers.mcp_calls import OneShotClient
from testkit.servers.pc_sas import PlanetaryComputerEmulator
from testkit.worlds.stac_fixtures import write_static_catalog

TTL_S = 2.0
POINT = QgsPointXY(TILES_WEST + 0.5 * TILE_DEG, TILES_NORTH - 0.5 * TILE_DEG)


@pytest.fixture
def pc(tmp_path):
    root = tmp_path / "blobs"
    root.mkdir()
    emulator = PlanetaryComputerEmulator(root, ttl_s=TTL_S)
    data = make_canvas_data(root, emulator.url)
    catalog = write_static_catalog(tmp_path / "catalog", data)
    emulator.start()
    with gdal_test_config():
        # QGIS's renderers read with GDAL's process-wide token endpoint (the public one in real use); the
        # test points it at the emulator, and GDAL refuses /vsicurl?… paths with the extension filter on
        gdal.SetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", None)
        gdal.SetConfigOption("VSICURL_PC_SAS_TOKEN_URL", emulator.token_url)
        gdal.VSICurlClearCache()
        try:
            yield emulator, catalog
        finally:
            gdal.SetConfigOption("VSICURL_PC_SAS_TOKEN_URL", None)
            QgsProject.instance().removeAllMapLayers()
            emulator.stop()


def _server(http, emulator, catalog, work, iface):
    config = CatalogConfig(name="Planetary Computer", url=str(catalog), kind="static", access="planetary_computer",
                           token_url=emulator.token_url, asset_hosts=[f"127.0.0.1:{emulator.port}"])
    deps = ToolDeps.from_settings(Settings(catalogs=[config]), http=http, work_dir=str(work),
                                  project=QgsProject.instance, iface=lambda: iface)
    return OneShotClient(build_server(deps, canvas=True))


async def _stats(client, layer_name):
    return await client.call_tool("get_raster_statistics", {"source": layer_name})


async def test_search_load_and_statistics_keep_working_as_tokens_expire(pc, qgis_iface, qgis_new_project, tmp_path):
    emulator, catalog = pc
    async with httpx.AsyncClient() as http:
        client = _server(http, emulator, catalog, tmp_path, qgis_iface)
        found = await client.call_tool("search_items", {"collections": ["tiles"], "limit": 3})
        assert not found.is_error and found.structured_content["returned"] == 3
        loaded = await client.call_tool("load_stac_asset", {"collection": "tiles", "item_id": "tile-0"})
        assert not loaded.is_error, loaded.content[0].text
        [layer] = QgsProject.instance().mapLayers().values()
        assert "pc_url_signing=yes" in layer.source() and "sig=" not in layer.source()
        first = await _stats(client, layer.name())
        assert not first.is_error, first.content[0].text
        tokens_before = len(emulator.issued)
        assert tokens_before >= 1 and emulator.served > 0

        time.sleep(TTL_S + 0.5)  # every token issued so far has expired
        gdal.VSICurlClearCache()  # the next reads go to the server, as new blocks of a long session would
        again = await _stats(client, layer.name())
        assert not again.is_error, again.content[0].text
        assert again.structured_content["mean"] == pytest.approx(first.structured_content["mean"])
        value, ok = layer.dataProvider().sample(POINT, 1)  # QGIS's own provider, on a renewed token too
        assert ok and 40 < value < 100
        assert len(emulator.issued) > tokens_before  # renewed, not reused past its expiry
        by_href = await client.call_tool("get_raster_statistics", {"source": f"{emulator.url}/tile-2.tif"})
        assert not by_href.is_error, by_href.content[0].text  # an href alone: signed by the sign endpoint
        assert "sign" in emulator.issued
        assert emulator.refused == 0  # no read went out unsigned or with an expired token


async def test_an_unreachable_token_api_is_named_with_what_to_do(pc, qgis_iface, qgis_new_project, tmp_path):
    emulator, catalog = pc
    async with httpx.AsyncClient() as http:
        client = _server(http, emulator, catalog, tmp_path, qgis_iface)
        emulator.token_api_up = False
        result = await client.call_tool("load_stac_asset", {"collection": "tiles", "item_id": "tile-1"})
    assert result.is_error
    text = result.content[0].text
    assert "'Planetary Computer'" in text and "SAS token" in text and "offline" in text
    assert "nothing was added" in text and QgsProject.instance().mapLayers() == {}
    assert emulator.refused >= 1


async def test_saved_project_holds_no_token_and_re_signs_when_opened(pc, qgis_iface, qgis_new_project, tmp_path):
    emulator, catalog = pc
    async with httpx.AsyncClient() as http:
        client = _server(http, emulator, catalog, tmp_path, qgis_iface)
        loaded = await client.call_tool("load_stac_asset", {"collection": "tiles", "item_id": "tile-2"})
        assert not loaded.is_error, loaded.content[0].text
    project_file = tmp_path / "analysis.qgz"
    assert QgsProject.instance().write(str(project_file))
    with zipfile.ZipFile(project_file) as qgz:
        text = "".join(qgz.read(name).decode("utf-8", "replace") for name in qgz.namelist())
    issued = list(emulator.tokens)
    assert issued and not any(token.split("sig=")[1] in text for token in issued)
    assert "sig=" not in text and "pc_url_signing=yes" in text
    script = project_to_pyqgis("PC session")  # the exported PyQGIS script: unsigned too, GDAL signs when it runs
    assert "pc_url_signing=yes" in script and "sig=" not in script

    QgsProject.instance().clear()
    time.sleep(TTL_S + 0.5)
    gdal.VSICurlClearCache()
    before = len(emulator.issued)
    assert QgsProject.instance().read(str(project_file))
    [layer] = QgsProject.instance().mapLayers().values()
    assert layer.isValid()
    value, ok = layer.dataProvider().sample(QgsPointXY(TILES_WEST + 2.5 * TILE_DEG, TILES_NORTH - 0.5 * TILE_DEG), 1)
    assert ok and 40 < value < 100
    assert len(emulator.issued) > before  # signed afresh on open
