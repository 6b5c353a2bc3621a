"""A long tool's progress shows in the activity feed as one line and one bar per call, updated in place; the
Dask scheduler for scale-out is set (and checked) in the settings dialog."""

from __future__ import annotations

from qgis.PyQt.QtWidgets import QProgressBar

from stacgis_agent.agent.events import ToolProgress, ToolResult, ToolStart
from stacgis_agent.ui.activity_feed import ActivityFeed
from stacgis_agent.ui.event_bridge import EventBridge


def test_progress_is_one_line_and_bar_updated_in_place_until_the_result(qgis_app):
    feed, bridge = ActivityFeed(), EventBridge()
    feed.connect_bridge(bridge)
    feed.resize(400, 300)
    feed.show()
    bridge.emit_event(ToolStart(1, "c1", "collection_statistics", {"collection": "sentinel-2-l2a"}))
    bridge.emit_event(ToolProgress(1, "c1", "collection_statistics", 37, 412, "37 / 412 items, 2.1 MB read, ~40 s left"))
    assert feed.entries()[-1] == "collection_statistics: 37 / 412 items, 2.1 MB read, ~40 s left"
    assert feed.progress_of("c1") == ("collection_statistics: 37 / 412 items, 2.1 MB read, ~40 s left", 9)
    bar = feed.itemWidget(feed.topLevelItem(feed.topLevelItemCount() - 1).child(0), 0)
    assert isinstance(bar, QProgressBar) and bar.isVisible()
    rows = feed.topLevelItemCount()
    bridge.emit_event(ToolProgress(1, "c1", "collection_statistics", 412, 412, "412 / 412 items, 23.4 MB read"))
    assert feed.topLevelItemCount() == rows  # updated, not appended
    assert feed.progress_of("c1") == ("collection_statistics: 412 / 412 items, 23.4 MB read", 100)
    bridge.emit_event(ToolResult(1, "c1", "collection_statistics", {"rows": []}, 41000.0))
    assert feed.entries()[-2:] == ["collection_statistics: 412 / 412 items, 23.4 MB read",
                                   "collection_statistics completed (41000 ms)"]


def test_the_dask_scheduler_is_set_in_the_settings_dialog_and_a_wrong_address_refused(qgis_app):
    from qgis.PyQt.QtWidgets import QDialog

    from stacgis_agent.agent.config import Settings
    from stacgis_agent.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(Settings(ollama_url="http://127.0.0.1:11434"))
    try:
        dialog.dask_scheduler.setText("scheduler:8786")
        dialog.accept()
        assert dialog.result() != QDialog.DialogCode.Accepted
        assert "Dask scheduler must be tcp://host:8786" in dialog.problems.text()
        dialog.dask_scheduler.setText(" tcp://10.0.0.5:8786 ")
        dialog.accept()
        assert dialog.result() == QDialog.DialogCode.Accepted
        assert dialog.settings().dask_scheduler == "tcp://10.0.0.5:8786"
    finally:
        dialog.close()


def test_a_configured_dask_scheduler_makes_the_plugin_offer_to_install_scale_out(qgis_iface, monkeypatch, tmp_path):
    import stacgis_agent
    from stacgis_agent.host import requirements as dependencies
    from testkit.qgis_drivers.plugin_loader import dock_into_main_window

    dock_into_main_window(qgis_iface, monkeypatch)

    absent = dependencies.Requirement("no_such_dask_xyz", "no-such-dask", "no-such-dask>=1", "1")
    monkeypatch.setattr(dependencies, "SCALE_OUT", (absent,))  # as if dask were not installed
    monkeypatch.setenv("STACGIS_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("STACGIS_DASK_SCHEDULER", raising=False)
    plugin = stacgis_agent.classFactory(qgis_iface)
    plugin.initGui()
    try:
        assert plugin.runtime is not None  # no scheduler: scale-out packages are not asked for
    finally:
        plugin.unload()
    monkeypatch.setenv("STACGIS_DASK_SCHEDULER", "tcp://127.0.0.1:8786")
    plugin = stacgis_agent.classFactory(qgis_iface)
    plugin.initGui()
    try:
        panel = plugin.dock.requirements_panel
        assert plugin.dock.pages.currentWidget() is panel
        assert "no-such-dask is not installed" in panel.summary.text() and panel.install_button.isEnabled()
    finally:
        plugin.unload()
