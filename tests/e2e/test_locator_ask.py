"""The locator bar (Ctrl+K): "ask <question>" reaches the chat, through QGIS's own QgsLocator
(which runs the filter's search on a worker thread) and the plugin's registration."""

from __future__ import annotations

from qgis.core import QgsLocator, QgsLocatorContext, QgsLocatorResult

from testkit.llm.ollama_emulator import Turn
from testkit.qgis_drivers.analyst_view import chat
from testkit.qgis_drivers.plugin_driver import process_until, wait_turn


def _search(locator: QgsLocator, text: str) -> list:
    """Copies of what the locator shows (a signal's argument lives only while its slot runs)."""
    found = []

    def keep(result) -> None:
        copy = QgsLocatorResult(result.filter, result.displayString, result.userData)
        found.append(copy)

    locator.foundResult.connect(keep)
    locator.fetchResults(text, QgsLocatorContext())
    assert process_until(lambda: not locator.isRunning(), 10)
    process_until(lambda: bool(found), 2)
    return found


def test_ask_in_the_locator_sends_the_question_to_the_chat(make_plugin, qgis_iface, monkeypatch, emu):
    locator = QgsLocator()
    monkeypatch.setattr(qgis_iface, "registerLocatorFilter", locator.registerFilter, raising=False)
    monkeypatch.setattr(qgis_iface, "deregisterLocatorFilter", locator.deregisterFilter, raising=False)
    plugin = make_plugin()
    assert plugin.locator_filter is not None and plugin.locator_filter in locator.filters()

    results = _search(locator, "ask zoom to Lyon")
    assert [r.displayString for r in results] == ["Ask the assistant: zoom to Lyon"]
    assert _search(locator, "ask   ") == []  # nothing typed after the prefix: nothing offered

    emu.script(Turn(content="Lyon is on the map."))
    plugin.dock.setUserVisible(False)  # the analyst had closed the dock
    plugin.locator_filter.triggerResult(results[0])
    assert not plugin.dock.isHidden()
    wait_turn(plugin, 30)
    assert chat(plugin)[0] == ("user", "zoom to Lyon")
    assert chat(plugin)[-1] == ("assistant", "Lyon is on the map.")


def test_the_plugin_adds_its_processing_provider_and_takes_it_away(make_plugin):
    from qgis.core import QgsApplication

    from testkit.qgis_drivers.plugin_loader import unload_plugin

    plugin = make_plugin()
    registry = QgsApplication.processingRegistry()
    provider = registry.providerById("stacgis")
    assert provider is not None and provider.name() == "STAC GIS Agent"
    assert registry.algorithmById("stacgis:collectionstatistics") is not None
    unload_plugin(plugin)
    assert registry.providerById("stacgis") is None
