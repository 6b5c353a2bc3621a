"""Sessions from the real embedded store: list newest first, rename, delete, reopen into the view."""

from __future__ import annotations

import asyncio

import pytest

from stacgis_agent.agent.events import Content, Done, Thinking, ToolResult, ToolStart, Usage, event_to_dict
from stacgis_agent.agent.stores.sqlite import SqliteSessionStore
from stacgis_agent.ui.chat_panel import ChatPanel
from stacgis_agent.ui.chat_session import ChatSession


def _never_called(session_id):
    raise AssertionError("no turn is run in these tests")


def _log(question: str, answer: str, tool: str = "search_items") -> tuple[dict, list[dict]]:
    memory = {"messages": [{"role": "user", "content": question},
                           {"role": "assistant", "content": answer}]}
    events = [{"type": "user", "text": question}] + [event_to_dict(e) for e in (
        Thinking(1, "Let me "), Thinking(1, "search."),
        ToolStart(1, "c1", tool, {"collections": ["sentinel-2-l2a"]}),
        ToolResult(1, "c1", tool, {"count": 3}, 120.0),
        Content(answer[:5]), Content(answer[5:]),
        Done("x", "m1", answer, 1.0, Usage(prompt_tokens=900, eval_tokens=40, wall_ms=2000)),
    )]
    return memory, events


@pytest.fixture
async def store(tmp_path):
    store = SqliteSessionStore(tmp_path / "sessions.sqlite")
    for sid, question in (("s-old", "Sentinel-2 over Lyon"), ("s-new", "Landsat over Nantes")):
        await store.get_or_create(sid)
        memory, events = _log(question, f"Found 3 scenes for {question}.")
        await store.save(sid, memory, events)
        await asyncio.sleep(0.01)  # distinct updated_at
    yield store
    await store.aclose()


@pytest.fixture
async def panel(qgis_app, store):
    session = ChatSession(_never_called)
    panel = ChatPanel(session, store)
    panel.resize(480, 700)
    panel.show()
    await panel.sessions.refresh()
    yield panel
    panel.close()


async def test_list_is_newest_first_and_rename_and_delete_with_confirmation(panel, store):
    sessions = panel.sessions
    assert sessions.titles() == ["Landsat over Nantes", "Sentinel-2 over Lyon"]

    sessions.select("s-old")
    sessions.ask_title = lambda current: "Lyon June NDVI" if current == "Sentinel-2 over Lyon" else None
    await sessions.rename_selected()
    assert "Lyon June NDVI" in sessions.titles()
    assert (await store.history("s-old")).info.title == "Lyon June NDVI"

    asked = []
    sessions.select("s-new")
    sessions.confirm_delete = lambda title: asked.append(title) or False  # the user says No
    await sessions.delete_selected()
    assert asked == ["Landsat over Nantes"] and len(await store.list()) == 2

    sessions.confirm_delete = lambda title: True
    await sessions.delete_selected()
    assert [i.session_id for i in await store.list()] == ["s-old"]
    assert sessions.titles() == ["Lyon June NDVI"]


async def test_opening_a_session_restores_conversation_and_feed_and_the_agent_session(panel):
    panel.sessions.select("s-old")
    opened = asyncio.get_running_loop().create_future()
    panel.sessions.session_opened.connect(lambda record: opened.set_result(record))
    await panel.sessions.open_selected()
    await panel.restore(await opened)

    bubbles = panel.conversation.bubbles()
    assert [(b.role, b.text()) for b in bubbles] == [
        ("user", "Sentinel-2 over Lyon"), ("assistant", "Found 3 scenes for Sentinel-2 over Lyon.")]
    assert panel.feed.entries()[:3] == ["Thinking (1)", "Calling search_items", "search_items completed (120 ms)"]
    assert panel.feed.topLevelItem(0).child(0).text(0) == "Let me search."
    assert panel.session.session_id == "s-old"
    assert panel.stats.text().startswith("900 tokens in")

    await panel.new_session()
    assert panel.conversation.bubbles() == [] and panel.session.session_id is None


async def test_deleting_the_open_session_starts_a_new_one(panel):
    await panel.restore(await panel.sessions.store.history("s-new"))
    panel.sessions.select("s-new")
    panel.sessions.confirm_delete = lambda title: True
    await panel.sessions.delete_selected()
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert panel.session.session_id is None and panel.conversation.bubbles() == []


async def test_export_markdown_and_pyqgis_write_files(panel, tmp_path):
    panel.sessions.select("s-old")
    panel.sessions.ask_export_path = lambda suggested, suffix: str(tmp_path / suggested.name)
    markdown = await panel.sessions.export_selected("markdown")
    assert markdown.name == "Sentinel-2 over Lyon.md"
    text = markdown.read_text()
    assert text.startswith("# Sentinel-2 over Lyon\n") and "> Called `search_items`" in text
    script = await panel.sessions.export_selected("pyqgis")
    assert script.name == "Sentinel-2 over Lyon.py" and "from qgis.core import" in script.read_text()


async def test_export_report_writes_a_pdf_from_the_sessions_tab(panel, tmp_path):
    panel.sessions.select("s-old")
    panel.sessions.ask_export_path = lambda suggested, suffix: str(tmp_path / suggested.name)
    assert panel.sessions.buttons["report"].text() == "Export report (PDF)…"
    report = await panel.sessions.export_selected("report")
    assert report.name == "Sentinel-2 over Lyon.pdf" and report.read_bytes().startswith(b"%PDF")
    assert "Saved the report to" in panel.sessions.message.text()


async def test_restore_from_memory_when_the_log_has_no_user_messages(panel, store):
    await store.get_or_create("s-mem")
    await store.save("s-mem", {"messages": [
        {"role": "user", "content": "Zoom to Lyon"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "c9", "function": {"name": "zoom_to", "arguments": {"place": "Lyon"}}}]},
        {"role": "tool", "tool_name": "zoom_to", "tool_call_id": "c9", "content": "{\"ok\": true}"},
        {"role": "assistant", "content": "Zoomed to Lyon."}]}, [])
    await panel.restore(await store.history("s-mem"))
    assert [(b.role, b.text()) for b in panel.conversation.bubbles()] == [
        ("user", "Zoom to Lyon"), ("assistant", "Zoomed to Lyon.")]
    assert panel.feed.entries()[:2] == ["Calling zoom_to", "zoom_to completed (0 ms)"]


async def test_sessions_tab_lists_what_the_store_holds_when_opened(qgis_app, store):
    panel = ChatPanel(ChatSession(_never_called), store)
    assert panel.sessions.titles() == []
    panel.tabs.setCurrentWidget(panel.sessions)
    for _ in range(50):
        await asyncio.sleep(0.01)
        if panel.sessions.titles():
            break
    assert panel.sessions.titles() == ["Landsat over Nantes", "Sentinel-2 over Lyon"]
    panel.close()


async def test_a_row_picked_while_the_list_refreshes_stays_picked_and_what_an_export_said_stays(panel, store,
                                                                                              tmp_path, monkeypatch):
    """A turn's end refreshes the list while the analyst works in it: the row they picked while the store answered
    stays picked (it was lost, so Export did nothing), and "Saved the conversation to …" is not wiped by the
    refresh that follows (it was, leaving an empty line)."""
    sessions = panel.sessions
    answered, real_list = asyncio.Event(), store.list

    async def list_when_answered(*args, **kwargs):
        await answered.wait()
        return await real_list(*args, **kwargs)

    monkeypatch.setattr(store, "list", list_when_answered)
    refreshing = asyncio.ensure_future(sessions.refresh())
    await asyncio.sleep(0.01)
    sessions.select("s-old")  # picked while the store answers
    answered.set()
    await refreshing
    assert sessions.selected_id() == "s-old"

    sessions.ask_export_path = lambda suggested, suffix: str(tmp_path / "chat.md")
    await sessions.export_selected("markdown")
    assert sessions.message.text().startswith("Saved the conversation to")
    await sessions.refresh()  # the next turn's end
    assert sessions.message.text().startswith("Saved the conversation to")
    assert (tmp_path / "chat.md").read_text(encoding="utf-8").count("Sentinel-2 over Lyon") >= 1
