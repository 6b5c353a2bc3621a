"""The dock's status line says whether Ollama is reachable and the model installed, with the
exact command that fixes it when not (checked against the Ollama emulator over real HTTP)."""

from __future__ import annotations

import socket

import pytest

import stacgis_agent
from testkit.llm.ollama_emulator import OllamaEmulator


@pytest.fixture
def emulator():
    with OllamaEmulator() as emu:
        yield emu


def _start_plugin(qgis_iface, monkeypatch, url, model):
    monkeypatch.setenv("STACGIS_OLLAMA_URL", url)
    monkeypatch.setenv("STACGIS_CHAT_MODEL", model)
    plugin = stacgis_agent.classFactory(qgis_iface)
    plugin.initGui()
    return plugin


def _status_after_check(plugin, process_until):
    assert process_until(lambda: not plugin.dock.status.text().startswith("Checking"), timeout=10)
    return plugin.dock.status.text()


def test_model_present_reports_ready(qgis_iface, monkeypatch, emulator, qt_process_until):
    plugin = _start_plugin(qgis_iface, monkeypatch, emulator.url, "qwen3:8b")
    try:
        text = _status_after_check(plugin, qt_process_until)
    finally:
        plugin.unload()
    assert "qwen3:8b ready" in text
    assert "0.33.0" in text


def test_missing_model_says_ollama_pull(qgis_iface, monkeypatch, emulator, qt_process_until):
    plugin = _start_plugin(qgis_iface, monkeypatch, emulator.url, "llama3.1:70b")
    try:
        text = _status_after_check(plugin, qt_process_until)
    finally:
        plugin.unload()
    assert "ollama pull llama3.1:70b" in text
    assert "qwen3:8b" in text  # lists what is installed


def test_server_down_says_ollama_serve(qgis_iface, monkeypatch, qt_process_until):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    plugin = _start_plugin(qgis_iface, monkeypatch, f"http://127.0.0.1:{port}", "qwen3:8b")
    try:
        text = _status_after_check(plugin, qt_process_until)
    finally:
        plugin.unload()
    assert "not reachable" in text and "ollama serve" in text
    assert "nothing answers at that address" in text and "Error" not in text  # words, not an exception name
