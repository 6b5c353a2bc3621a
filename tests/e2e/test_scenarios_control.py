"""Scenarios 6–8: the analyst stays in control — a destructive request waits for the OK (No keeps the
layers, Yes removes them, Undo brings them back), a sloppy model is corrected and recovers, and Stop ends a
turn mid-stream or mid-tool with QGIS responsive and nothing half done."""

from __future__ import annotations

import time

import pytest
from qgis.core import QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import Qt, QTimer
from qgis.PyQt.QtTest import QTest

from stacgis_agent.ui.ask_user_widget import AskUserWidget
from testkit.llm.ollama_emulator import Turn
from testkit.llm.reactive_emulator import tool_messages
from testkit.qgis_drivers.analyst_view import chat, feed, saved_events, status_lines
from testkit.qgis_drivers.plugin_driver import process_until, send, wait_turn
from testkit.servers.faulty_stac import FaultyStac


def _add_layers(*names: str) -> None:
    for name in names:
        QgsProject.instance().addMapLayer(QgsVectorLayer("Point?crs=EPSG:4326", name, "memory"))


def _names() -> list[str]:
    return sorted(lyr.name() for lyr in QgsProject.instance().mapLayers().values())


def _question(plugin) -> AskUserWidget:
    conversation = plugin.runtime.panel.conversation
    assert process_until(lambda: any(isinstance(w, AskUserWidget) and w.buttons[0].isEnabled()
                                     for w in conversation.items()), 10), "no question was asked"
    return [w for w in conversation.items() if isinstance(w, AskUserWidget) and w.buttons[0].isEnabled()][-1]


def _click(widget: AskUserWidget, label: str) -> None:
    button = next(b for b in widget.buttons if b.text() == label)
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)


def test_remove_all_layers_waits_for_the_ok_and_can_be_undone(plugin, emu):
    _add_layers("parcels", "roads")
    removal = [("remove_layer", {"layer": "parcels"}), ("remove_layer", {"layer": "roads"})]
    emu.script(Turn(tool_calls=removal), Turn(content="I did not remove anything."))
    send(plugin, "Remove all layers")
    question = _question(plugin)
    # one card for the step's two removals, listing both, and saying truthfully that undo helps
    assert question.question.text() == "Run these 2 actions? Undo in the chat brings it back."
    details = question.details.text()
    assert "Remove layer 'parcels' (0 features) from the project:" in details  # each removal in words (27.1)
    assert "Remove layer 'roads' (0 features) from the project:" in details and "cannot be undone" not in details
    _click(question, "No")
    wait_turn(plugin)
    cards = [w for w in plugin.runtime.panel.conversation.items() if isinstance(w, AskUserWidget)]
    assert len(cards) == 1
    assert _names() == ["parcels", "roads"]
    assert chat(plugin)[-1] == ("assistant", "I did not remove anything.")
    refused = [m["content"] for m in tool_messages(emu.chat_requests()[-1], "remove_layer")]
    assert len(refused) == 2 and all("did not approve" in text for text in refused)

    emu.script(Turn(tool_calls=removal), Turn(content="Removed parcels and roads."))
    send(plugin, "Yes, remove them all")
    _click(_question(plugin), "Yes, run it")
    wait_turn(plugin)
    assert _names() == []
    answer = plugin.runtime.panel.conversation.bubbles()[-1]
    assert answer.text() == "Removed parcels and roads." and not answer.undo_button.isHidden()

    QTest.mouseClick(answer.undo_button, Qt.MouseButton.LeftButton)
    assert process_until(lambda: _names() == ["parcels", "roads"], 5)
    said = status_lines(plugin)  # the history's own words: which turn, and what came back
    assert any(line.startswith("Undid turn") and "parcels" in line and "roads" in line for line in said), said


def test_a_model_that_leaks_a_call_then_sends_bad_arguments_recovers(plugin, emu):
    emu.script(
        Turn(content="Let me look. ", leak="tool_call_tags", tool_calls=[("search_collections", {"query": "elevation"})]),
        Turn(tool_calls=[("search_items", {"collections": "demo-elevation", "limit": "all of them"})]),
        Turn(tool_calls=[("search_items", {"collections": ["demo-elevation"], "limit": 5})]),
        Turn(content="There is one elevation item in the demo catalog."))
    send(plugin, "What elevation data is there?")
    wait_turn(plugin)

    entries = feed(plugin)
    calls = [e for e in entries if e.startswith("Calling")]
    assert calls == ["Calling search_collections", "Calling search_items", "Calling search_items"]
    last = emu.chat_requests()[-1]["messages"]
    invalid = [m["content"] for m in last if m["role"] == "tool" and m["tool_name"] == "search_items"][0]
    assert "Invalid arguments" in invalid and "limit" in invalid
    # The leaked call was run as a real call; its tags never reach the analyst.
    assert "demo-elevation" in [m["content"] for m in last if m.get("tool_name") == "search_collections"][0]
    answer = chat(plugin)[-1]
    assert answer[0] == "assistant" and "<tool_call>" not in answer[1]
    assert answer[1].endswith("There is one elevation item in the demo catalog.")
    events = [e["type"] for e in saved_events(plugin)]
    assert events.count("tool_error") == 1 and events[-1] == "done"


def _ticks_while(predicate, timeout: float) -> int:
    """Counts a 20 ms Qt timer while waiting: QGIS's event loop kept running if it ticked."""
    ticks = [0]
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.__setitem__(0, ticks[0] + 1))
    timer.start(20)
    process_until(predicate, timeout)
    timer.stop()
    return ticks[0]


def test_stop_mid_stream_keeps_qgis_responsive_and_the_session_consistent(plugin, emu):
    emu.script(Turn(content="word " * 400, chunk_chars=5, chunk_delay_s=0.02), Turn(content="Still here."))
    send(plugin, "Write me a long story")
    panel = plugin.runtime.panel
    assert process_until(lambda: len(chat(plugin)) == 2 and len(chat(plugin)[1][1]) > 20, 10)
    assert _ticks_while(lambda: False, 0.3) >= 8  # Qt kept running while the answer streamed
    QTest.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)  # the Send button is Stop while busy
    started = time.monotonic()
    assert process_until(lambda: not plugin.runtime.session.busy, 5)
    assert time.monotonic() - started < 3
    assert emu.wait_for_disconnect(3), "the HTTP stream to the model was not closed"
    assert "Stopped. Nothing more will be done for this message." in status_lines(plugin)
    partial = chat(plugin)[1][1]
    assert 0 < len(partial) < len("word " * 400)

    send(plugin, "Are you there?")
    wait_turn(plugin)
    assert chat(plugin)[-1] == ("assistant", "Still here.")
    done = [e for e in saved_events(plugin) if e["type"] == "done"]
    assert [d["stopped"] for d in done] == [True, False]


@pytest.fixture
def slow_stac(tmp_path):
    server = FaultyStac(tmp_path / "slow").start()
    yield server
    server.stop()


def test_stop_mid_tool_leaves_no_half_added_layer(make_plugin, emu, slow_stac):
    plugin = make_plugin(catalogs=slow_stac.catalogs_env())
    _add_layers("parcels")
    emu.script(Turn(tool_calls=[("load_stac_asset", {"collection": "scenes", "item_id": "scene-1", "asset": "data"})]))
    slow_stac.faults.delay_s = 2.0
    send(plugin, "Show the scene")
    assert process_until(lambda: "Calling load_stac_asset" in feed(plugin), 10)
    assert _ticks_while(lambda: False, 0.3) >= 8  # Qt kept running while the tool waited on the catalog
    assert plugin.runtime.session.busy
    QTest.mouseClick(plugin.runtime.panel.send_button, Qt.MouseButton.LeftButton)
    assert process_until(lambda: not plugin.runtime.session.busy, 3)
    process_until(lambda: False, 2.5)  # let the slow answer arrive after the stop: it must not land
    assert _names() == ["parcels"] and QgsProject.instance().layerTreeRoot().findGroups() == []
    assert "Stopped. Nothing more will be done for this message." in status_lines(plugin)

    slow_stac.faults.delay_s = 0.0
    emu.script(Turn(content="Ready when you are."))
    send(plugin, "Hello again")
    wait_turn(plugin)
    assert chat(plugin)[-1] == ("assistant", "Ready when you are.")
    assert emu.pending_turns == 0 and len(emu.chat_requests()) == 2  # the stopped turn asked the model once

    # Not stopped, the same call does add the layer.
    emu.script(Turn(tool_calls=[("load_stac_asset", {"collection": "scenes", "item_id": "scene-1", "asset": "data"})]),
               Turn(content="Loaded."))
    send(plugin, "Show the scene")
    wait_turn(plugin)
    assert len(_names()) == 2 and chat(plugin)[-1] == ("assistant", "Loaded.")
