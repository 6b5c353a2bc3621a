"""A long tool's MCP progress notifications reach the agent's event stream as ToolProgress, between the call's
start and its result, live only (not in the saved session)."""

from __future__ import annotations

import pytest_asyncio
from mcp.server.mcpserver import Context

from stacgis_agent.agent.events import ToolProgress, ToolResult, ToolStart, event_to_dict
from testkit.llm.agent_harness import harness_factory
from testkit.llm.ollama_emulator import Turn
from testkit.servers.inmemory_stores import InMemorySessionStore


@pytest_asyncio.fixture
async def make_harness():
    async with harness_factory() as factory:
        yield factory


async def test_progress_notifications_become_tool_progress_events_in_order(make_harness):
    h = make_harness()

    @h.server.tool()
    async def summarise_items(count: int, ctx: Context = None) -> dict:
        """Summarise many items, reporting progress."""
        for done in range(1, count + 1):
            await ctx.report_progress(done, count, f"{done} / {count} items, {done * 0.5:.1f} MB read")
        return {"items": count}

    store = InMemorySessionStore()
    h.make_loop(session_store=store, session_id="p1")
    h.emu.script(Turn(tool_calls=[("summarise_items", {"count": 3})]), Turn(content="Three items summarised."))
    events = await h.run("Summarise the items")

    kinds = [type(e).__name__ for e in events if isinstance(e, (ToolStart, ToolProgress, ToolResult))]
    assert kinds == ["ToolStart", "ToolProgress", "ToolProgress", "ToolProgress", "ToolResult"]
    progress = [e for e in events if isinstance(e, ToolProgress)]
    start = next(e for e in events if isinstance(e, ToolStart))
    assert [(p.progress, p.total) for p in progress] == [(1, 3), (2, 3), (3, 3)]
    assert progress[-1].message == "3 / 3 items, 1.5 MB read"
    assert {p.call_id for p in progress} == {start.call_id} and progress[0].tool_name == "summarise_items"
    assert event_to_dict(progress[0])["type"] == "tool_progress"
    saved = await store.history("p1")
    assert any(e.get("type") == "tool_result" for e in saved.events)
    assert not any(e.get("type") == "tool_progress" for e in saved.events)  # live only
