"""A new user's first questions, answered from the shipped offline demo catalog through the real
plugin: dock, chat panel, agent loop, MCP tools, stores — only the model is scripted."""

from __future__ import annotations

from testkit.llm.ollama_emulator import Turn
from testkit.qgis_drivers.plugin_driver import run_coroutine, send, wait_turn


def test_what_data_do_i_have(plugin, emu):
    emu.script(Turn(thinking="List the collections of the configured catalog.",
                    tool_calls=[("search_collections", {})]),
               Turn(content="You have three demo collections: demo-elevation, demo-rgb and demo-ndvi."))
    send(plugin, "What data do I have?")
    wait_turn(plugin)

    panel = plugin.runtime.panel
    bubbles = [(b.role, b.text()) for b in panel.conversation.bubbles()]
    assert bubbles == [("user", "What data do I have?"),
                       ("assistant", "You have three demo collections: demo-elevation, demo-rgb and demo-ndvi.")]
    entries = panel.feed.entries()
    assert "Calling search_collections" in entries
    assert any(e.startswith("search_collections completed (") for e in entries)

    # What the model was given back is the real tool result over the shipped demo catalog.
    tool_messages = [m for m in emu.chat_requests()[1]["messages"] if m["role"] == "tool"]
    assert tool_messages and tool_messages[0]["tool_name"] == "search_collections"
    for cid in ("demo-elevation", "demo-rgb", "demo-ndvi"):
        assert cid in tool_messages[0]["content"]

    # The conversation was saved in the embedded session store.
    store = plugin.runtime.stores.sessions
    sessions = run_coroutine(store.list(plugin.runtime.settings.user))
    assert len(sessions) == 1 and sessions[0].message_count >= 2
    record = run_coroutine(store.history(sessions[0].session_id))
    assert any(e.get("type") == "tool_result" and e.get("tool_name") == "search_collections" for e in record.events)


def test_new_settings_rebuild_the_agent_and_the_chat_goes_on(plugin, emu, monkeypatch):
    from testkit.qgis_drivers.plugin_driver import run_coroutine

    old_panel = plugin.runtime.panel
    monkeypatch.setenv("STACGIS_MAX_STEPS", "4")
    run_coroutine(plugin.runtime.restart())
    assert plugin.runtime.settings.max_steps == 4
    assert plugin.runtime.panel is not old_panel and plugin.dock.chat is plugin.runtime.panel
    emu.script(Turn(content="Still here."))
    send(plugin, "Hello again")
    wait_turn(plugin)
    assert [(b.role, b.text()) for b in plugin.runtime.panel.conversation.bubbles()][-1] == ("assistant", "Still here.")
