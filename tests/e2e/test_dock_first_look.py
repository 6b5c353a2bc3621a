"""What a new analyst sees in the dock: a welcome card instead of two blank panes (what the assistant
can do, example requests to click, the Ollama status with Retry and the command that fixes it), a feed
that says what will appear in it, and a status line that keeps saying whether the model can answer."""

from __future__ import annotations

from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest
from qgis.PyQt.QtWidgets import QApplication

from testkit.analyst_view import chat, dock_status, feed, status_lines
from testkit.ollama_emulator import Turn
from testkit.plugin_driver import process_until, run_coroutine, wait_turn


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
