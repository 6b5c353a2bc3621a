"""End-to-end fixtures: the plugin loaded through classFactory into pytest-qgis' iface, its data
folder in a temp dir, the Ollama emulator (the only fake) scripting the model, and — for the
scenarios — a real STAC API over Lyon with COGs over HTTP."""

from __future__ import annotations

import gc

import pytest

from testkit.llm.reactive_emulator import ReactiveEmulator
from testkit.qgis_drivers.plugin_loader import dock_into_main_window, forget_loop, load_plugin, unload_plugin
from testkit.worlds.e2e_world import lyon_world


@pytest.fixture(autouse=True)
def _collect_widgets_now():
    """Free unparented widgets at the end of each test, not inside a later Qt virtual call (see
    tests/qgis/conftest.py)."""
    yield
    gc.collect()


@pytest.fixture
def emu():
    with ReactiveEmulator() as emulator:
        yield emulator


@pytest.fixture(scope="session")
def world(tmp_path_factory):
    with lyon_world(tmp_path_factory.mktemp("lyon-cogs")) as w:
        yield w


@pytest.fixture
def make_plugin(qgis_iface, qgis_new_project, emu, tmp_path, monkeypatch):
    """make_plugin(**env) loads the plugin with STACGIS_<NAME>=value overrides; unloaded after the test."""
    dock_into_main_window(qgis_iface, monkeypatch)
    loaded = []

    def make(**env):
        settings = {"OLLAMA_URL": emu.url, "DATA_DIR": str(tmp_path / "profile"), **env}
        for name, value in settings.items():
            monkeypatch.setenv("STACGIS_" + name.upper(), str(value))
        instance = load_plugin(qgis_iface)
        loaded.append(instance)
        return instance

    yield make
    for instance in loaded:
        if instance.runtime is not None or instance.dock is not None:
            unload_plugin(instance)
    forget_loop()


@pytest.fixture
def plugin(make_plugin):
    return make_plugin()


@pytest.fixture
def lyon_plugin(make_plugin, world):
    return make_plugin(catalogs=world.catalogs_env)
