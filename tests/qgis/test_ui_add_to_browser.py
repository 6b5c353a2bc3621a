"""The Settings dialog's Catalogs tab offers "Add to Browser" for the selected plugin catalog, with the function
plugin/runtime.py hands it: on QGIS 3.40+ it becomes a STAC connection of QGIS's Browser (URL and auth config, never the
catalog's headers); on older QGIS the button is greyed out and says it needs QGIS 3.40."""

from __future__ import annotations

import pytest
import qgis.core

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.tools.stac.browser_connections import (
    SettingsConnections,
    add_to_browser,
    browser_unavailable,
)
from stacgis_agent.ui.settings_dialog import SettingsDialog

BROWSER = qgis.core.Qgis.QGIS_VERSION_INT >= 34000
# PyQGIS has QgsStacConnection from 3.42; on 3.40 QGIS keeps them in settings the plugin reads and writes
Connections = getattr(qgis.core, "QgsStacConnection", None) or (SettingsConnections if BROWSER else None)
CATALOG = CatalogConfig(name="Team STAC", url="https://stac.example.org/api/v1", auth_cfg="abc1234",
                        access="qgis_auth", headers={"X-Api-Key": "not-for-the-browser"})


def _dialog() -> SettingsDialog:
    """As plugin/runtime.py's open_settings builds it."""
    dialog = SettingsDialog(Settings(catalogs=[CATALOG]), add_to_browser=add_to_browser,
                            browser_unavailable=browser_unavailable())
    dialog.catalogs.table.setCurrentCell(0, 0)
    return dialog


@pytest.mark.skipif(BROWSER, reason="QGIS 3.40+ has Browser STAC connections")
def test_before_qgis_3_40_the_button_is_greyed_out_and_says_why(qgis_app):
    dialog = _dialog()
    button = dialog.catalogs.browser_button
    assert button.text() == "Add to Browser" and not button.isEnabled()
    assert "need QGIS 3.40 or later" in button.toolTip() and "keep working" in button.toolTip()
    dialog.add_catalog_to_browser(CATALOG)  # asked anyway (it cannot be clicked): said, nothing written
    assert "3.40" in dialog.catalog_result.text()


@pytest.mark.skipif(not BROWSER, reason="QGIS Browser STAC connections exist from QGIS 3.40")
def test_the_selected_catalog_becomes_a_browser_stac_connection(qgis_app):
    assert "Team STAC" not in Connections.connectionList()
    dialog = _dialog()
    button = dialog.catalogs.browser_button
    assert button.isEnabled() and "STAC connection" in button.toolTip()
    try:
        button.click()
        assert "Team STAC" in Connections.connectionList()
        written = Connections.connection("Team STAC")
        assert written.url == CATALOG.url and written.authCfg == "abc1234"
        assert "not-for-the-browser" not in str(written.httpHeaders)
        assert "'Team STAC' is now a STAC connection in the QGIS Browser" in dialog.catalog_result.text()
        button.click()  # twice: the name is taken, said in words, nothing overwritten
        assert "already has a STAC connection named 'Team STAC'" in dialog.catalog_result.text()
    finally:
        Connections.deleteConnection("Team STAC")
