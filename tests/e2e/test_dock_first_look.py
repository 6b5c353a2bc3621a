"""What a new analyst sees in the dock: a welcome card instead of two blank panes (what the assistant
can do, example requests to click, the Ollama status with Retry and the command that fixes it), a feed
that says what will appear in it, and a status line that keeps saying whether the model can answer."""

from __future__ import annotations

from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest
from qgis.PyQt.QtWidgets import QApplication

from testkit.llm.ollama_emulator import Turn
from testkit.qgis_drivers.analyst_view import chat, dock_status, feed, status_lines
from testkit.qgis_drivers.plugin_driver import process_until, run_coroutine, wait_turn


def _click(button) -> None:
    assert button.isVisibleTo(button.window()) and button.isEnabled(), button.text()
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)


def _shown(widget) -> bool:
    return widget.isVisibleTo(widget.window())


def test_first_start_shows_what_to_ask_and_an_example_click_asks_it(plugin, emu):
    panel = plugin.runtime.panel
    welcome = panel.welcome
    assert panel.chat_pages.currentWidget() is welcome and _shown(welcome)
    assert "STAC catalogs" in welcome.capabilities.text() and "Undo" in welcome.capabilities.text()
    examples = [b.text() for b in welcome.example_buttons]
    assert len(examples) == 4 and "What data do I have?" in examples
    assert _shown(panel.feed.placeholder) and "will appear here" in panel.feed.placeholder.text()
    # the Ollama check ran against the emulator: the card says the model is ready, no fix to copy
    assert process_until(lambda: "ready" in welcome.connection.text(), 10), welcome.connection.text()
    assert not _shown(welcome.command) and not _shown(welcome.retry_button)

    emu.script(Turn(tool_calls=[("search_collections", {})]),
               Turn(content="You have demo-elevation, demo-rgb and demo-ndvi."))
    _click(next(b for b in welcome.example_buttons if b.text() == "What data do I have?"))
    wait_turn(plugin)
    assert chat(plugin) == [("user", "What data do I have?"),
                            ("assistant", "You have demo-elevation, demo-rgb and demo-ndvi.")]
    assert panel.chat_pages.currentWidget() is panel.conversation
    assert "Calling search_collections" in feed(plugin) and not _shown(panel.feed.placeholder)
    # the example is answered from the shipped demo catalog, offline
    tool_text = [m["content"] for m in emu.chat_requests()[1]["messages"] if m["role"] == "tool"][0]
    assert all(cid in tool_text for cid in ("demo-elevation", "demo-rgb", "demo-ndvi"))

    _click(panel.new_button)
    assert process_until(lambda: panel.chat_pages.currentWidget() is welcome, 5)
    assert _shown(panel.feed.placeholder)


def test_missing_model_shows_the_command_to_copy_and_retry_finds_it_once_pulled(plugin, emu):
    welcome = plugin.runtime.panel.welcome
    assert process_until(lambda: "ready" in welcome.connection.text(), 10)
    emu.remove_model("qwen3:8b")
    plugin.runtime.tasks.start(plugin.runtime.refresh_connection(), name="recheck")
    assert process_until(lambda: "not installed" in welcome.connection.text(), 10), welcome.connection.text()
    assert welcome.command.text() == "ollama pull qwen3:8b" and _shown(welcome.command)
    _click(welcome.copy_button)
    assert QApplication.clipboard().text() == "ollama pull qwen3:8b"

    emu.add_model("qwen3:8b", ("completion", "tools", "thinking"), 40960)  # the analyst ran the command
    _click(welcome.retry_button)
    assert process_until(lambda: "ready" in welcome.connection.text(), 10), welcome.connection.text()
    assert not _shown(welcome.command) and "ready" in dock_status(plugin)


def test_ollama_down_shows_ollama_serve(make_plugin):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    plugin = make_plugin(ollama_url=f"http://127.0.0.1:{port}")
    welcome = plugin.runtime.panel.welcome
    assert process_until(lambda: "not reachable" in welcome.connection.text(), 10), welcome.connection.text()
    assert welcome.command.text() == "ollama serve" and _shown(welcome.retry_button)


def test_undo_says_what_it_did_in_the_chat_and_the_status_line_still_tells_the_connection(plugin, emu):
    from qgis.core import QgsProject, QgsVectorLayer

    QgsProject.instance().addMapLayer(QgsVectorLayer("Point?crs=EPSG:4326", "parcels", "memory"))
    assert process_until(lambda: "ready" in dock_status(plugin), 10)
    connected = dock_status(plugin)
    emu.script(Turn(tool_calls=[("set_layer_style", {"layer": "parcels", "color": "#ff0000"})]),
               Turn(content="Parcels are red."))
    panel = plugin.runtime.panel
    panel.input.setPlainText("Make the parcels red")
    panel.input.submit()
    wait_turn(plugin)
    answer = panel.conversation.bubbles()[-1]
    assert process_until(lambda: not answer.undo_button.isHidden(), 5), chat(plugin)
    _click(answer.undo_button)
    assert process_until(lambda: any(line.startswith("Undid") for line in status_lines(plugin)), 5), \
        status_lines(plugin)
    assert any(entry.startswith("Undid") for entry in feed(plugin))
    assert dock_status(plugin) == connected


def test_a_store_notice_goes_to_the_feed_not_the_status_line(plugin):
    assert process_until(lambda: "ready" in dock_status(plugin), 10)
    plugin.runtime._notice("The session store is not reachable; sessions are kept on this computer.")
    assert "The session store is not reachable; sessions are kept on this computer." in feed(plugin)
    assert "ready" in dock_status(plugin)
    run_coroutine(plugin.runtime.refresh_connection())
    assert "ready" in dock_status(plugin)


def test_the_status_line_turns_red_when_ollama_goes_away_during_a_session(make_plugin):
    from testkit.llm.ollama_emulator import OllamaEmulator

    emu = OllamaEmulator().start()
    try:
        plugin = make_plugin(ollama_url=emu.url)
        assert process_until(lambda: "ready" in dock_status(plugin), 10), dock_status(plugin)
    finally:
        emu.stop()  # Ollama quits while QGIS stays open
    panel = plugin.runtime.panel
    panel.input.setPlainText("What data do I have?")
    panel.input.submit()
    wait_turn(plugin, 30)
    assert process_until(lambda: "not reachable" in dock_status(plugin), 10), dock_status(plugin)
    assert "ollama serve" in dock_status(plugin)


EXAMPLE_CALLS = {  # what a capable model calls for each example; the tools must manage it offline
    "Show the June RGB scene in true colour": [
        ("load_stac_asset", {"collection": "demo-rgb", "item_id": "demo-rgb-2025-06-15"})],
    "Show the June NDVI and give me its mean": [
        ("load_stac_asset", {"collection": "demo-ndvi", "item_id": "demo-ndvi-2025-06-15"}),
        ("get_raster_statistics", {"source": "demo-ndvi demo-ndvi-2025-06-15", "exact": True})],
    "Show the elevation with a terrain ramp": [
        ("load_stac_asset", {"collection": "demo-elevation", "item_id": "demo-elevation-lyon"}),
        ("set_layer_style", {"layer": "demo-elevation demo-elevation-lyon", "ramp": "terrain"})],
}


def test_every_example_request_can_be_done_offline_on_the_demo_catalog(plugin, emu):
    from qgis.core import QgsProject

    welcome = plugin.runtime.panel.welcome
    assert set(EXAMPLE_CALLS) | {"What data do I have?"} == {b.text() for b in welcome.example_buttons}
    for text, calls in EXAMPLE_CALLS.items():
        _click(plugin.runtime.panel.new_button)
        assert process_until(lambda: plugin.runtime.panel.chat_pages.currentWidget() is welcome, 5)
        emu.script(*[Turn(tool_calls=[call]) for call in calls], Turn(content="Done."))
        _click(next(b for b in welcome.example_buttons if b.text() == text))
        wait_turn(plugin, 30)
        entries = feed(plugin)
        for name, _args in calls:
            assert any(e.startswith(f"{name} completed") for e in entries), (text, entries)
        assert not any(" failed" in e for e in entries), (text, entries)
    renderers = sorted(layer.renderer().type() for layer in QgsProject.instance().mapLayers().values())
    assert renderers == ["multibandcolor", "singlebandpseudocolor", "singlebandpseudocolor"], renderers


def test_without_the_demo_catalog_the_examples_say_how_to_get_it_back(make_plugin):
    import json

    plugin = make_plugin(catalogs=json.dumps([{"name": "Earth Search", "url": "https://earth-search.aws.element84.com/v1",
                                               "kind": "api"}]))
    welcome = plugin.runtime.panel.welcome
    assert "Settings… ▸ Catalogs" in welcome.try_one.text() and "Demo (offline)" in welcome.try_one.text()
    assert not any(button.isEnabled() for button in welcome.example_buttons)
