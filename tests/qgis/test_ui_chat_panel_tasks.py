"""The panel's background work (open a stored chat, new chat) is held by the plugin's task
registry: it finishes, and unload can still cancel it — no task is left to vanish."""

from __future__ import annotations

import asyncio

from stacgis_agent.agent.events import Content, Done, UserMessage, event_to_dict
from stacgis_agent.agent.stores.sqlite import SqliteSessionStore
from stacgis_agent.host.qt_asyncio import TaskRegistry
from stacgis_agent.ui.chat_panel import ChatPanel
from stacgis_agent.ui.chat_session import ChatSession


def _never_called(session_id):
    raise AssertionError("no turn is run here")


async def _settled(registry: TaskRegistry) -> bool:
    for _ in range(200):
        if registry.active == 0:
            return True
        await asyncio.sleep(0.01)
    return False


async def test_opening_a_stored_chat_runs_in_a_held_task_and_unload_can_cancel_new_chat(qgis_app, tmp_path):
    store = SqliteSessionStore(tmp_path / "sessions.sqlite")
    await store.get_or_create("s1")
    await store.save("s1", {"messages": []}, [event_to_dict(e) for e in (
        UserMessage("Sentinel-2 over Lyon?"), Content("Found 3 scenes.", is_complete=True),
        Done("s1", "m1", "Found 3 scenes.", 1.0))])
    registry = TaskRegistry(asyncio.get_running_loop())
    panel = ChatPanel(ChatSession(_never_called), store, tasks=registry)
    try:
        await panel.sessions.refresh()
        panel.sessions.session_opened.emit(await store.history("s1"))
        assert registry.active == 1  # the restore is held while it runs
        assert await _settled(registry)
        assert [b.text() for b in panel.conversation.bubbles()] == ["Sentinel-2 over Lyon?", "Found 3 scenes."]

        panel.new_button.click()
        assert registry.active == 1
        registry.cancel_all()  # what unload does
        assert await _settled(registry)
        assert len(panel.conversation.bubbles()) == 2  # cancelled before it cleared the chat
    finally:
        panel.close()
        await store.aclose()
