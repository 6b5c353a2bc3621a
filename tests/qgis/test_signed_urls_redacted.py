"""A Planetary Computer read that fails (issue 40.14): GDAL's warning printed the whole SAS-signed URL (`…&sig=…`)
on stderr (GDAL's default handler), and an error naming a signed href went whole to the model. Against a loopback
SAS token API in front of a blob store that fails every read, in QGIS with the plugin's log handler: stderr and
every tab of QGIS's message log hold no signature, the plugin's tab shows `sig=…redacted`, and so does the error
the model (or an outside client: the same server) is given."""

from __future__ import annotations

import re

import httpx
import pytest
from osgeo import gdal
from qgis.core import QgsApplication

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.host import message_log
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.server import build_server
from testkit.servers.mcp_calls import OneShotClient
from testkit.servers.pc_sas import PlanetaryComputerEmulator
from testkit.worlds.tiny_catalog import write_tiny_cog

SIGNATURE = re.compile(r"sig=(?!…redacted)[A-Za-z0-9_%-]{4,}")


@pytest.fixture
def failing_store(tmp_path):
    write_tiny_cog(tmp_path / "blobs" / "B04.tif", seed=4)
    emulator = PlanetaryComputerEmulator(tmp_path / "blobs").start()
    emulator.blob_failure = 500  # the store fails every read, signed or not
    gdal.SetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", None)  # /vsicurl?pc_url_signing=… has no .tif suffix
    try:
        yield emulator
    finally:
        emulator.stop()
        gdal.VSICurlClearCache()


@pytest.fixture
def qgis_log(qgis_app):
    """Every message QGIS's log receives (all tabs), with the plugin's handler installed as initGui does."""
    received: list[tuple[str, str]] = []

    def keep(message, tag, _level):
        received.append((tag, message))

    QgsApplication.messageLog().messageReceived.connect(keep)
    handler = message_log.install()
    try:
        yield received
    finally:
        message_log.uninstall(handler)
        QgsApplication.messageLog().messageReceived.disconnect(keep)


async def test_a_failed_signed_read_shows_no_signature_on_stderr_in_the_log_or_in_the_error(
        failing_store, tmp_path, capfd, qgis_log):
    config = CatalogConfig(name="Planetary Computer", url=str(tmp_path / "catalog.json"), kind="static",
                           access="planetary_computer", token_url=failing_store.token_url,
                           asset_hosts=[f"127.0.0.1:{failing_store.port}"])
    async with httpx.AsyncClient() as http:
        deps = ToolDeps.from_settings(Settings(catalogs=[config]), http=http, work_dir=str(tmp_path / "out"))
        client = OneShotClient(build_server(deps))
        result = await client.call_tool("get_raster_statistics", {"source": f"{failing_store.url}/B04.tif"})
        # an href the model was given already signed: GDAL's error names it whole
        signed = f"{failing_store.url}/B04.tif?st=now&sp=rl&sr=c&sig=c2VjcmV0LXNpZ25hdHVyZQ"
        named = await client.call_tool("get_raster_info", {"source": signed})
    assert failing_store.issued, "GDAL never asked for a token: the read was not signed"
    error = result.content[0].text
    assert result.is_error and "500" in error and not SIGNATURE.search(error), error
    assert named.is_error and "sig%3D…redacted" in named.content[0].text, named.content[0].text
    assert "c2VjcmV0" not in named.content[0].text
    stderr = capfd.readouterr().err
    assert not SIGNATURE.search(stderr), stderr
    QgsApplication.processEvents()  # the log's signal crosses from the read's worker thread
    logged = "\n".join(f"[{tag}] {message}" for tag, message in qgis_log)
    assert f"[{message_log.TAB}] " in logged and "sig=…redacted" in logged, logged
    assert not SIGNATURE.search(logged) and "c2VjcmV0" not in logged, logged
