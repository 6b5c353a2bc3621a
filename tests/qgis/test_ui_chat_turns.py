"""Whole turns through the dock's chat: real AgentLoop, real HTTP to the Ollama emulator (the
only fake), a real MCP server, on the qasync loop the plugin uses."""

from __future__ import annotations

import asyncio
import time

import pytest
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest

from stacgis_agent.agent.map_context import LayerInfo, MapContext
from stacgis_agent.agent.stores.sqlite import SqliteSessionStore
from stacgis_agent.ui.ask_user_widget import AskUserWidget
from stacgis_agent.ui.chat_panel import ChatPanel
from stacgis_agent.ui.chat_session import ChatSession
from testkit.llm.agent_harness import Harness
from testkit.llm.ollama_emulator import OllamaEmulator, Turn
from testkit.qgis_drivers.plugin_driver import until

LYON = MapContext(extent=(4.7, 45.6, 5.0, 45.9), crs="EPSG:4326", center_lonlat=(4.85, 45.75), scale=50000,
                  active_layer="parcels", layers=(LayerInfo("parcels", "vector", geometry="Polygon"),))




@pytest.fixture
def emu():
    with OllamaEmulator() as emulator:
        yield emulator


@pytest.fixture
def chat(qloop, emu, tmp_path):
    """(panel, harness) — the panel drives AgentLoops made like the plugin makes them."""
    harness = Harness(emu)
    store = SqliteSessionStore(tmp_path / "sessions.sqlite")
    session = ChatSession(lambda sid: harness.make_loop(session_id=sid, session_store=store),
                          context_source=lambda: LYON, changes_map=lambda name: name in ("load_item", "remove_layer"))
    panel = ChatPanel(session, store)
    panel.resize(520, 760)
    panel.show()
    yield panel, harness
    qloop.run_until_complete(session.close_agent())
    qloop.run_until_complete(harness.aclose())
    qloop.run_until_complete(store.aclose())
    panel.close()




def type_and_enter(panel: ChatPanel, text: str) -> None:
    panel.input.setFocus()
    QTest.keyClicks(panel.input, text)
    QTest.keyClick(panel.input, Qt.Key.Key_Return)


def test_enter_sends_and_bubbles_feed_and_stats_follow_the_stream(chat, qloop, emu):
    panel, harness = chat
    emu.script(Turn(thinking="The user wants coordinates of Lyon.", tool_calls=[("geocode", {"place": "Lyon"})]),
               Turn(content="**Lyon** is at 45.76 N, 4.84 E.", prompt_eval_count=1500, eval_count=20))

    async def scenario():
        type_and_enter(panel, "Where is Lyon?")
        assert panel.send_button.text() == "Stop" and panel.input.toPlainText() == ""
        await until(lambda: not panel.session.busy)

    qloop.run_until_complete(scenario())
    bubbles = panel.conversation.bubbles()
    assert [(b.role, b.text()) for b in bubbles] == [
        ("user", "Where is Lyon?"), ("assistant", "**Lyon** is at 45.76 N, 4.84 E.")]
    assert "Lyon is at 45.76 N" in bubbles[1].rendered_text()
    entries = panel.feed.entries()
    assert entries[:3] == ["Thinking (1)", "Calling geocode", entries[2]]
    assert entries[2].startswith("geocode completed (") and entries[-1].startswith("Done · ")
    assert panel.feed.topLevelItem(0).child(0).text(0) == "The user wants coordinates of Lyon."
    stats = panel.stats.text()  # both steps: the emulator's count + 1500 prompt tokens, 27 + 20 generated
    tokens_in = int(stats.split(" tokens in")[0].replace("\u202f", ""))
    assert tokens_in > 1500 and " · 47 out · " in stats and stats.endswith("2 steps · 1 tool call")
    # the second step started with the whole first request: only what it added was re-read
    reread = int(stats.split(" tokens in (")[1].split(" re-read")[0].replace("\u202f", ""))
    assert reread == 1500 and " first token " in stats
    assert panel.send_button.text() == "Send"
    sent = emu.chat_requests()[0]["messages"][-1]["content"]
    assert sent.startswith("Where is Lyon?") and "active layer: parcels" in sent
    assert panel.map_chip.text() == "Map: EPSG:4326 · 1:50\u202f000 · 45.75°N 4.85°E · parcels"

    # Up recalls the last message; the chip switched off sends no map context
    QTest.keyClick(panel.input, Qt.Key.Key_Up)
    assert panel.input.toPlainText() == "Where is Lyon?"
    panel.input.clear()
    panel.map_chip.click()
    emu.script(Turn(content="Done."))

    async def second():
        type_and_enter(panel, "Thanks")
        await until(lambda: not panel.session.busy)

    qloop.run_until_complete(second())
    assert emu.chat_requests()[-1]["messages"][-1]["content"].split("\n\n[tools] ")[0] == "Thanks"


def test_stop_mid_stream_cancels_quickly_and_says_so(chat, qloop, emu):
    panel, _harness = chat
    emu.script(Turn(content="word " * 400, chunk_chars=5, chunk_delay_s=0.02))
    timings = {}

    async def scenario():
        type_and_enter(panel, "Tell me a long story")
        await until(lambda: len(panel.conversation.bubbles()) == 2 and panel.conversation.bubbles()[1].text())
        start = time.monotonic()
        panel.send_button.click()  # the Send button is Stop now
        await until(lambda: not panel.session.busy, timeout=3)
        timings["stop_s"] = time.monotonic() - start

    qloop.run_until_complete(scenario())
    assert timings["stop_s"] < 0.5
    assert emu.wait_for_disconnect(3)  # the HTTP stream was closed, so Ollama stops generating
    assert panel.conversation.items()[-1].text().startswith("Stopped.")
    assert panel.feed.entries()[-1].startswith("Stopped") and "0 tokens in" not in panel.feed.entries()[-1]
    assert panel.send_button.text() == "Send"
    assert len(panel.conversation.bubbles()[1].text()) < len("word " * 400)


def test_destructive_action_waits_for_a_click_and_shows_what_changes(chat, qloop, emu):
    panel, harness = chat
    emu.script(Turn(tool_calls=[("remove_layer", {"layer": "roads"})]), Turn(content="Removed roads."))
    undo_asked = []
    panel.undo_requested.connect(undo_asked.append)

    async def scenario():
        type_and_enter(panel, "Remove the roads layer")
        await until(lambda: any(isinstance(w, AskUserWidget) for w in panel.conversation.items()))
        question = [w for w in panel.conversation.items() if isinstance(w, AskUserWidget)][0]
        await asyncio.sleep(0.1)
        assert harness.world.ran("remove_layer") == []  # nothing happens before the OK
        assert "roads" in question.details.text()
        question.buttons[0].click()
        await until(lambda: not panel.session.busy)
        return question

    question = qloop.run_until_complete(scenario())
    assert question.outcome.text() == f"You answered: {question.buttons[0].text()}"
    assert harness.world.ran("remove_layer") == [{"layer": "roads"}]
    answer = panel.conversation.bubbles()[-1]
    assert answer.text() == "Removed roads." and not answer.undo_button.isHidden()
    answer.undo_button.click()
    assert undo_asked == [answer.message_id] and answer.message_id


def test_dock_survives_ollama_going_away_mid_turn_with_a_clear_message(chat, qloop, emu):
    panel, _harness = chat
    emu.script(Turn(content="Looking at the parcel now and " * 5, drop_after=3))

    async def scenario():
        type_and_enter(panel, "NDVI of the parcel?")
        await until(lambda: not panel.session.busy)

    qloop.run_until_complete(scenario())
    errors = [w for w in panel.conversation.items() if "be1e1e" in w.styleSheet()]
    assert errors, "the user is told the turn failed"
    assert "ollama" in errors[-1].text().lower()
    assert panel.send_button.text() == "Send"

    emu.script(Turn(content="Back again."))  # the server is back: the same dock keeps working

    async def again():
        type_and_enter(panel, "Try again")
        await until(lambda: not panel.session.busy)

    qloop.run_until_complete(again())
    assert panel.conversation.bubbles()[-1].text() == "Back again."


def test_sessions_tab_lists_the_saved_turn_and_reopening_restores_it(chat, qloop, emu):
    panel, _harness = chat
    emu.script(Turn(content="Hello from the past."))

    async def scenario():
        type_and_enter(panel, "Remember me")
        await until(lambda: not panel.session.busy)
        await panel.sessions.refresh()
        first_id = panel.session.session_id
        await panel.new_session()
        assert panel.conversation.bubbles() == []
        panel.sessions.select(first_id)
        opened = asyncio.get_running_loop().create_future()
        panel.sessions.session_opened.connect(lambda r: opened.done() or opened.set_result(r))
        await panel.sessions.open_selected()
        await panel.restore(await opened)
        return first_id

    first_id = qloop.run_until_complete(scenario())
    # (the store titles a session from the first user message, map context included for now)
    assert len(panel.sessions.titles()) == 1 and panel.sessions.titles()[0].startswith("Remember me")
    assert [(b.role, b.text()) for b in panel.conversation.bubbles()] == [
        ("user", "Remember me"), ("assistant", "Hello from the past.")]
    assert panel.session.session_id == first_id

    emu.script(Turn(content="I remember."))  # the agent continues the reopened conversation

    async def follow_up():
        type_and_enter(panel, "Do you remember?")
        await until(lambda: not panel.session.busy)

    qloop.run_until_complete(follow_up())
    sent = [(m["role"], m["content"]) for m in emu.chat_requests()[-1]["messages"] if m["role"] != "system"]
    assert sent[0][0] == "user" and sent[0][1].startswith("Remember me")
    assert sent[1] == ("assistant", "Hello from the past.") and sent[-1][1].startswith("Do you remember?")


def test_unload_mid_turn_stops_the_stream_and_closes_the_agent(chat, qloop, emu):
    panel, harness = chat
    emu.script(Turn(content="word " * 400, chunk_chars=5, chunk_delay_s=0.02))

    async def scenario():
        type_and_enter(panel, "Long answer please")
        await until(lambda: len(panel.conversation.bubbles()) == 2)
        closing = panel.session.shutdown()  # what the plugin's unload calls
        await asyncio.wait_for(closing, 3)
        await until(lambda: not panel.session.busy, timeout=2)

    qloop.run_until_complete(scenario())
    assert emu.wait_for_disconnect(3)


def test_the_stream_opens_with_the_message_and_every_turn_event_carries_its_id(chat, qloop, emu):
    """One id per message: the UserMessage the dock shows, the turn's Done, the session log and the
    reopened chat agree; the map context is read once per send; a replayed chat reaches the widgets
    only, never what listens to the live turn (the undo history)."""
    panel, _harness = chat
    reads = []
    source = panel.session._context_source
    panel.session._context_source = lambda: reads.append(1) or source()
    live, shown = [], []
    panel.session.bridge.user_message.connect(live.append)
    panel.session.bridge.done.connect(live.append)
    panel.view.user_message.connect(shown.append)
    emu.script(Turn(content="Lyon is in France."))

    async def scenario():
        type_and_enter(panel, "Where is Lyon?")
        await until(lambda: not panel.session.busy)
        first_id = panel.session.session_id
        await panel.new_session()
        return first_id

    first_id = qloop.run_until_complete(scenario())
    said, done = live
    assert said.kind == "user_message" and said.text == "Where is Lyon?" and len(said.message_id) == 32
    assert done.kind == "done" and done.message_id == said.message_id
    assert len(reads) == 1  # the chip and the model got the same reading of the map
    sent = emu.chat_requests()[-1]["messages"][-1]["content"]
    assert "45.75" in sent or "Lyon" in sent  # that reading went to the model

    async def reopen():  # as the analyst does: the Sessions tab's Open, which the panel restores
        await panel.sessions.refresh()
        panel.sessions.select(first_id)
        await panel.sessions.open_selected()
        await until(lambda: len(panel.conversation.bubbles()) == 2)

    qloop.run_until_complete(reopen())
    assert len(live) == 2  # the replay reached no live listener
    assert [e.message_id for e in shown] == [said.message_id, said.message_id]  # shown live, then replayed
    assert [(b.role, b.text()) for b in panel.conversation.bubbles()] == [
        ("user", "Where is Lyon?"), ("assistant", "Lyon is in France.")]
