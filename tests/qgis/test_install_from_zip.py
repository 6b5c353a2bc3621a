"""A first install from the ZIP: the dock lists what is missing, one click runs a real pip (offline,
from a local wheel) into the plugin's private folder, and the chat appears at once — no restart.
Without pip (Debian's qgis does not depend on python3-pip) the dock says what to install."""

from __future__ import annotations

import sys

import pytest

import stacgis_agent
from stacgis_agent.host import requirements
from stacgis_agent.plugin import StacGisAgentPlugin
from testkit.plugin_driver import process_until
from testkit.plugin_loader import dock_into_main_window, forget_loop, unload_plugin
from testkit.probe_wheel import NAME, build_probe_wheel

PROBE = requirements.Requirement(NAME, "stacgis-probe-pkg", "stacgis-probe-pkg>=1.0", "1.0")


@pytest.fixture
def fresh_profile(qgis_iface, tmp_path, monkeypatch):
    """A QGIS profile where the plugin's private package folder does not exist yet, and one more
    requirement (the probe) that only a real pip install can satisfy."""
    dock_into_main_window(qgis_iface, monkeypatch)
    private = requirements.private_site_dir(tmp_path / "qgis-profile")
    monkeypatch.setattr(StacGisAgentPlugin, "_private_dir", lambda self: private)
    real_check = requirements.check_requirements
    monkeypatch.setattr(requirements, "check_requirements",
                        lambda *a, **k: real_check((*requirements.REQUIREMENTS, PROBE)))
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delitem(sys.modules, NAME, raising=False)
    monkeypatch.setenv("STACGIS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("STACGIS_OLLAMA_URL", "http://127.0.0.1:9")  # nothing listens: no model needed here
    yield private
    sys.modules.pop(NAME, None)
    forget_loop()


def test_install_dependencies_then_the_chat_appears_without_restart(qgis_iface, fresh_profile, tmp_path,
                                                                    monkeypatch):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    build_probe_wheel(wheels)
    monkeypatch.setenv("PIP_NO_INDEX", "1")  # pip (a child process) reads these: offline, local wheel
    monkeypatch.setenv("PIP_FIND_LINKS", str(wheels))
    plugin = stacgis_agent.classFactory(qgis_iface)
    plugin.initGui()
    try:
        panel = plugin.dock.requirements_panel
        assert plugin.dock.pages.currentWidget() is panel
        assert "stacgis-probe-pkg is not installed" in panel.summary.text()
        assert not fresh_profile.exists()  # on sys.path before it existed: the case that needed a restart

        panel.install_button.click()
        assert process_until(lambda: plugin.runtime is not None or panel.install_button.isEnabled(), 120), \
            "pip did not finish"
        output = panel.output.toPlainText()
        assert "Successfully installed stacgis-probe-pkg" in output, output
        assert plugin.runtime is not None, plugin.dock.status.text()
        assert plugin.dock.pages.currentWidget() is not panel  # the chat, at once
        assert (fresh_profile / NAME / "__init__.py").exists()
    finally:
        unload_plugin(plugin)


def test_without_pip_the_dock_says_what_to_install(qgis_iface, fresh_profile, monkeypatch):
    monkeypatch.setattr(requirements, "pip_available", lambda: False)
    plugin = stacgis_agent.classFactory(qgis_iface)
    plugin.initGui()
    try:
        panel = plugin.dock.requirements_panel
        assert requirements.pip_missing_advice() in panel.summary.text()
        assert "sudo apt install python3-pip" in panel.summary.text()  # the tests run on Linux
        assert not panel.install_button.isEnabled()  # a button that could only fail is not offered
        assert plugin.runtime is None
    finally:
        unload_plugin(plugin)
