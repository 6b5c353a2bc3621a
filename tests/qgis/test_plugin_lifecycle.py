"""The plugin loads through classFactory, shows its dock and action, and unloading leaves
nothing behind — even after 20 load/unload cycles in one QGIS session."""

from __future__ import annotations

import asyncio
import gc
import logging

import pytest
from qgis.core import QgsApplication
from qgis.PyQt.QtCore import QEvent
from qgis.PyQt.QtWidgets import QAction, QApplication

import stacgis_agent
from stacgis_agent.host import message_log as log_handler
from stacgis_agent.ui.dock import OBJECT_NAME, StacAgentDock
from testkit.qgis_drivers.plugin_loader import dock_into_main_window


@pytest.fixture
def iface(qgis_iface, monkeypatch):
    """pytest-qgis' iface, with docks really added to its main window as QGIS does."""
    dock_into_main_window(qgis_iface, monkeypatch)
    window = qgis_iface.mainWindow()
    window.show()
    yield qgis_iface
    window.hide()


def _docks():
    return [w for w in QApplication.allWidgets() if isinstance(w, StacAgentDock)]


def _actions(iface):
    return [a for a in iface.mainWindow().findChildren(QAction) if a.objectName() == "StacGisAgentToggleDock"]


def _handlers():
    return [h for h in logging.getLogger(log_handler.PACKAGE_LOGGER).handlers
            if isinstance(h, log_handler.MessageLogHandler)]


def _plugin_tasks():
    try:
        loop = asyncio.get_event_loop()  # the policy API is deprecated in Python 3.14
    except RuntimeError:
        return []
    return [t for t in asyncio.all_tasks(loop) if t.get_name().startswith("stacgis_agent:") and not t.done()]


def _flush():
    for _ in range(3):
        QgsApplication.processEvents()
        QgsApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()


def test_load_shows_dock_and_action_and_unload_removes_them(iface):
    plugin = stacgis_agent.classFactory(iface)
    plugin.initGui()
    try:
        docks = _docks()
        assert len(docks) == 1
        dock = docks[0]
        assert dock.objectName() == OBJECT_NAME
        assert dock.windowTitle() == "STAC GIS Agent"
        assert len(_actions(iface)) == 1
        assert plugin.action.isChecked()
        # The action toggles the dock, and closing the dock unchecks the action.
        plugin.action.setChecked(False)
        assert dock.isHidden()
        plugin.action.setChecked(True)
        assert not dock.isHidden()
        dock.close()
        assert not plugin.action.isChecked()
        assert len(_handlers()) == 1
    finally:
        plugin.unload()
    _flush()
    assert _docks() == []
    assert _actions(iface) == []
    assert _handlers() == []


def test_twenty_load_unload_cycles_leave_nothing_behind(iface):
    for _ in range(20):
        plugin = stacgis_agent.classFactory(iface)
        plugin.initGui()
        assert len(_docks()) == 1
        plugin.unload()
        _flush()
    assert _docks() == []
    assert _actions(iface) == []
    assert _handlers() == []
    assert _plugin_tasks() == []


def test_log_records_reach_the_qgis_message_log(iface):
    seen = []

    def collect(message, tag, level):
        seen.append((message, tag))

    QgsApplication.messageLog().messageReceived.connect(collect)
    plugin = stacgis_agent.classFactory(iface)
    plugin.initGui()
    try:
        logging.getLogger(log_handler.PACKAGE_LOGGER + ".somewhere").warning("catalog unreachable")
        _flush()
    finally:
        plugin.unload()
        QgsApplication.messageLog().messageReceived.disconnect(collect)
    assert any(tag == "STAC GIS Agent" and "catalog unreachable" in msg for msg, tag in seen)


def test_missing_requirement_shows_install_panel_naming_it(iface, monkeypatch):
    from stacgis_agent.host import requirements as dependencies

    real_check = dependencies.check_requirements
    missing = dependencies.Requirement("no_such_module_xyz", "no-such-dist", "no-such-dist>=1", "1")
    monkeypatch.setattr(dependencies, "check_requirements",
                        lambda *a, **k: real_check((*dependencies.REQUIREMENTS, missing)))
    plugin = stacgis_agent.classFactory(iface)
    plugin.initGui()
    try:
        panel = plugin.dock.requirements_panel
        assert plugin.dock.pages.currentWidget() is panel
        assert "no-such-dist is not installed" in panel.summary.text()
        assert panel.install_button.isEnabled()
        assert plugin.runtime is None  # nothing that needs the missing package was started
    finally:
        plugin.unload()
