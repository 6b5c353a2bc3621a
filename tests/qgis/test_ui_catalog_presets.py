"""Settings → Catalogs: the catalogs analysts use are added from a list with their access method, stay
editable, and Test searches then reads one asset's header, saying precisely what failed."""

from __future__ import annotations

import dataclasses
import re
import time

import pytest
from osgeo import gdal
from qgis.core import QgsApplication

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.host.settings_store import store_secret
from stacgis_agent.tools.stac.catalog_check import check_catalog_access
from stacgis_agent.ui.settings_dialog import SettingsDialog
from testkit.qgis_drivers.canvas_fixtures import make_canvas_data
from testkit.servers.canvas_servers import gdal_test_config
from testkit.servers.pc_sas import PlanetaryComputerEmulator
from testkit.servers.s3_server import S3Server
from testkit.worlds.stac_fixtures import write_static_catalog


@pytest.fixture
def dialog(qgis_app):
    dialog = SettingsDialog(Settings(ollama_url="http://127.0.0.1:11434", catalogs=[]), check_access=check_catalog_access)
    yield dialog
    dialog.close()


def _add_from_list(editor, label):
    [action] = [a for a in editor.preset_menu.actions() if a.text() == label]
    action.trigger()


def test_presets_carry_their_access_and_stay_editable(dialog):
    editor = dialog.catalogs
    labels = [a.text() for a in editor.preset_menu.actions()]
    assert labels == ["Earth Search (Element 84)", "Microsoft Planetary Computer", "USGS Landsat (requester-pays S3)",
                      "NASA CMR-STAC / LP DAAC (Earthdata login)", "Copernicus Data Space Ecosystem",
                      "A STAC API URL", "A static catalog (URL or folder)"]
    _add_from_list(editor, "Microsoft Planetary Computer")
    _add_from_list(editor, "USGS Landsat (requester-pays S3)")
    assert "AWS account pays" in editor.needs.text()
    pc, landsat = editor.catalogs()
    assert (pc.url, pc.access) == ("https://planetarycomputer.microsoft.com/api/stac/v1", "planetary_computer")
    assert (landsat.access, landsat.s3_requester_pays, landsat.asset_hosts) == ("s3", True, ["usgs-landsat"])
    assert editor.auth_cfg.isEnabled() and editor.region.isEnabled() and not editor.token_url.isEnabled()

    editor.region.setText("eu-central-1")  # edit the selected (Landsat) row's access
    editor.requester_pays.setChecked(False)
    editor.table.item(1, 0).setText("Landsat (team account)")
    editor.table.setCurrentCell(0, 0)
    assert editor.access.currentData() == "planetary_computer" and editor.token_url.isEnabled()
    editor.table.setCurrentCell(1, 0)
    assert editor.region.text() == "eu-central-1" and not editor.requester_pays.isChecked()
    landsat = editor.catalogs()[1]
    assert (landsat.name, landsat.s3_region, landsat.s3_requester_pays) == ("Landsat (team account)", "eu-central-1",
                                                                           False)
    _add_from_list(editor, "A static catalog (URL or folder)")
    assert editor.catalogs()[2].kind == "static" and editor.catalogs()[2].url == ""


async def test_test_button_reads_an_asset_header_and_names_a_failed_token_api(dialog, tmp_path):
    root = tmp_path / "blobs"
    root.mkdir()
    emulator = PlanetaryComputerEmulator(root, ttl_s=1.5)
    catalog = write_static_catalog(tmp_path / "catalog", make_canvas_data(root, emulator.url))
    emulator.start()
    config = CatalogConfig("PC", str(catalog), kind="static", access="planetary_computer",
                           token_url=emulator.token_url, asset_hosts=[f"127.0.0.1:{emulator.port}"])
    try:
        with gdal_test_config():
            gdal.SetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", None)
            await dialog.test_catalog(config)
            assert "read the header of asset" in dialog.catalog_result.text(), dialog.catalog_result.text()
            assert re.search(r"\d+×\d+, 1 band", dialog.catalog_result.text()) and emulator.served > 0
            emulator.token_api_up = False
            time.sleep(2)  # the cached token has expired and cannot be renewed
            gdal.VSICurlClearCache()
            await dialog.test_catalog(CatalogConfig(**{**config.__dict__, "name": "PC offline"}))
        text = dialog.catalog_result.text()
        assert "search works" in text and "SAS token" in text and "offline" in text
    finally:
        emulator.stop()


async def test_test_button_says_requester_pays_is_not_accepted(dialog, tmp_path):
    manager = QgsApplication.authManager()
    if not manager.masterPasswordIsSet():
        assert manager.setMasterPassword("stacgis-test-master", True)
    root = tmp_path / "bucket"
    root.mkdir()
    catalog = write_static_catalog(tmp_path / "catalog", make_canvas_data(root, "s3://rp-check"))
    server = S3Server(root, "rp-check", requester_pays=True).start()
    auth_cfg = store_secret("S3 keys", server.key_id, server.secret)
    config = CatalogConfig("Landsat", str(catalog), kind="static", access="s3", auth_cfg=auth_cfg,
                           s3_endpoint=server.endpoint, s3_region="us-west-2", asset_hosts=["rp-check"])
    try:
        with gdal_test_config():
            await dialog.test_catalog(config)
            assert "Requester pays" in dialog.catalog_result.text(), dialog.catalog_result.text()
            gdal.VSICurlClearCache()
            await dialog.test_catalog(CatalogConfig(**{**config.__dict__, "s3_requester_pays": True}))
            assert "read the header of asset" in dialog.catalog_result.text(), dialog.catalog_result.text()
    finally:
        gdal.ClearPathSpecificOptions("/vsis3/rp-check/")
        server.stop()


def test_preset_catalogs_round_trip_through_the_profile(tmp_path):
    from qgis.core import QgsSettings
    from qgis.PyQt.QtCore import QSettings

    from stacgis_agent.agent.catalog_presets import PRESETS
    from stacgis_agent.host.settings_store import load_settings, save_settings

    original = Settings(catalogs=[dataclasses.replace(p.new_config(), name=p.label, url=p.config.url or "/data")
                                  for p in PRESETS])
    profile = QgsSettings(str(tmp_path / "profile.ini"), QSettings.Format.IniFormat)
    save_settings(original, profile)
    loaded = load_settings(QgsSettings(str(tmp_path / "profile.ini"), QSettings.Format.IniFormat), apply_env=False)
    assert loaded.catalogs == original.catalogs
    assert loaded.catalogs[2].asset_hosts == ["usgs-landsat"] and loaded.catalogs[2].s3_requester_pays


async def test_test_button_names_a_missing_auth_config_and_an_unreachable_api(dialog):
    from testkit.servers.loopback import free_port

    await dialog.test_catalog(CatalogConfig("NASA", "https://cmr.earthdata.nasa.gov/stac/LPCLOUD", access="bearer"))
    assert "NASA" in dialog.catalog_result.text() and "no auth config" in dialog.catalog_result.text()
    manager = QgsApplication.authManager()
    if not manager.masterPasswordIsSet():
        assert manager.setMasterPassword("stacgis-test-master", True)
    nothing_there = f"http://127.0.0.1:{free_port()}/stac"
    await dialog.test_catalog(CatalogConfig("Team", nothing_there, access="bearer",
                                            auth_cfg=store_secret("token", "", "t0ken")))
    text = dialog.catalog_result.text()
    assert text.startswith("Team: search failed.") and "unreachable" in text, text
