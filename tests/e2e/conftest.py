"""End-to-end fixtures: the plugin loaded through classFactory into pytest-qgis' iface, its data
folder in a temp dir, and the Ollama emulator (the only fake) scripting the model."""

from __future__ import annotations

import asyncio

import pytest
from qgis.core import QgsProject

import stacgis_agent
from testkit.ollama_emulator import OllamaEmulator
from testkit.plugin_driver import process_until


@pytest.fixture
def emu():
    with OllamaEmulator() as emulator:
        yield emulator


@pytest.fixture
def plugin(qgis_iface, qgis_new_project, emu, tmp_path, monkeypatch):
    window = qgis_iface.mainWindow()
    monkeypatch.setattr(qgis_iface, "addDockWidget", lambda area, dock: window.addDockWidget(area, dock),
                        raising=False)
    monkeypatch.setattr(qgis_iface, "removeDockWidget", window.removeDockWidget, raising=False)
    monkeypatch.setenv("STACGIS_OLLAMA_URL", emu.url)
    monkeypatch.setenv("STACGIS_DATA_DIR", str(tmp_path / "profile"))
    instance = stacgis_agent.classFactory(qgis_iface)
    instance.initGui()
    assert instance.runtime is not None, "the runtime did not start (requirements missing?)"
    yield instance
    if instance.runtime is not None and instance.runtime.session is not None:
        session = instance.runtime.session
        if session.busy:
            session.stop()
            process_until(lambda: not session.busy, 5)
    instance.unload()
    process_until(lambda: False, 0.3)  # let the background shutdown close connections
    QgsProject.instance().removeAllMapLayers()
    asyncio.events._set_running_loop(None)
