"""Tools held back from the first prompt (agent/visible_tools.py HELD_BACK) are named in call_tool's
description; a call through call_tool is the named tool's call: its schema validates it, the project's
state may refuse it, and a destructive one waits for the user's OK exactly as a direct call does."""

from __future__ import annotations

import pytest_asyncio

from stacgis_agent.agent.events import AskUser, ToolError, ToolResult, ToolStart
from stacgis_agent.agent.llm.types import ToolCall
from stacgis_agent.agent.map_context import LayerInfo, MapContext
from stacgis_agent.agent.visible_tools import CALL_TOOL, HELD_BACK, unwrap_call
from testkit.llm.agent_harness import chat_tools, harness_factory, kinds
from testkit.llm.ollama_emulator import Turn

WITH_LAYER = MapContext(layers=(LayerInfo("roads", "vector", geometry="LineString"),))


@pytest_asyncio.fixture
async def make_harness():
    async with harness_factory() as factory:
        yield lambda **kw: factory(**{"tool_set": "compact", **kw})  # the opt-in mode that holds tools back


def _call_tool_spec(body: dict) -> dict:
    return next(t["function"] for t in body["tools"] if t["function"]["name"] == CALL_TOOL)


async def test_a_held_back_tool_is_named_with_its_parameters_in_call_tool_not_listed_alone(make_harness):
    assert "remove_layer" in HELD_BACK  # the toy server's destructive tool has a plugin tool's name
    h = make_harness()
    h.emu.script(Turn(content="Hello."))
    await h.run("hello", WITH_LAYER)
    body = h.emu.chat_requests()[0]
    assert "remove_layer" not in chat_tools(body) and CALL_TOOL == chat_tools(body)[-1]
    assert "remove_layer(layer): Remove a layer from the QGIS project" in _call_tool_spec(body)["description"]
    assert "search_items" in chat_tools(body)  # not held back: listed with its own schema


async def test_explicit_all_lists_every_tool_with_its_own_schema(make_harness):
    h = make_harness(tool_set="all")
    h.emu.script(Turn(content="Hello."))
    await h.run("hello", WITH_LAYER)
    names = chat_tools(h.emu.chat_requests()[0])
    assert "remove_layer" in names and CALL_TOOL not in names


async def test_a_destructive_tool_through_call_tool_asks_first_and_no_means_it_does_not_run(make_harness):
    h = make_harness()
    h.emu.script(Turn(tool_calls=[(CALL_TOOL, {"name": "remove_layer", "arguments": {"layer": "roads"},
                                               "confirmed": True})]),
                 Turn(content="I left the layer alone."))
    ran_before_answer = []

    def watch(event, loop):
        if isinstance(event, AskUser):
            ran_before_answer.extend(h.world.ran("remove_layer"))
            loop.answer(event.request_id, "No")

    events = await h.run("Delete the roads layer", WITH_LAYER, on_event=watch)
    assert kinds(events)[:3] == ["tool_start", "ask_user", "tool_error"]
    start = next(e for e in events if isinstance(e, ToolStart))
    assert start.tool_name == "remove_layer"  # the feed shows the real tool, not call_tool
    ask = next(e for e in events if isinstance(e, AskUser))
    assert ask.question == "Run 'remove_layer'? It cannot be undone."
    assert ran_before_answer == [] and h.world.ran("remove_layer") == []
    assert next(e for e in events if isinstance(e, ToolError)).error.startswith("Not run: the user did not approve")


async def test_a_destructive_tool_through_call_tool_runs_after_an_explicit_ok(make_harness):
    h = make_harness()
    h.world.layers["roads"] = {"kind": "vector"}
    h.emu.script(Turn(tool_calls=[(CALL_TOOL, {"name": "remove_layer", "arguments": {"layer": "roads"}})]),
                 Turn(content="Removed."))
    events = await h.run("Remove roads", WITH_LAYER, answers={"confirm-": "Yes, run it"})
    assert kinds(events)[:3] == ["tool_start", "ask_user", "tool_result"]
    assert h.world.ran("remove_layer") == [{"layer": "roads"}] and "roads" not in h.world.layers
    # the history keeps the call as the model wrote it, so the next request starts with the previous one
    sent = h.emu.chat_requests()[1]["messages"]
    assert any(c["function"]["name"] == CALL_TOOL for m in sent for c in m.get("tool_calls") or ())


async def test_a_call_through_call_tool_is_validated_against_the_named_tools_schema(make_harness):
    h = make_harness()
    h.emu.script(Turn(tool_calls=[(CALL_TOOL, {"name": "remove_layer", "arguments": {"name": "roads"}})]),
                 Turn(content="Sorry."))
    events = await h.run("Remove roads", WITH_LAYER, answers={"confirm-": "Yes, run it"})
    assert not any(isinstance(e, AskUser) for e in events)  # an invalid call is never asked about, never run
    error = next(e for e in events if isinstance(e, ToolError))
    assert "Invalid arguments for 'remove_layer'" in error.error and "'layer' is a required property" in error.error
    assert h.world.ran("remove_layer") == []


async def test_a_call_through_call_tool_is_refused_when_the_state_does_not_allow_the_tool(make_harness):
    h = make_harness()  # the toy remove_layer requires a layer: none on this map
    h.emu.script(Turn(tool_calls=[(CALL_TOOL, {"name": "remove_layer", "arguments": {"layer": "roads"}})]),
                 Turn(content="There is no layer."))
    events = await h.run("Remove roads", MapContext(), answers={"confirm-": "Yes, run it"})
    assert not any(isinstance(e, AskUser) for e in events) and h.world.ran("remove_layer") == []
    assert any(isinstance(e, ToolError) for e in events)


async def test_an_unknown_name_through_call_tool_is_an_unknown_tool(make_harness):
    h = make_harness()
    h.emu.script(Turn(tool_calls=[(CALL_TOOL, {"name": "format_disk", "arguments": {}})]), Turn(content="No."))
    events = await h.run("hello", WITH_LAYER)
    assert next(e for e in events if isinstance(e, ToolError)).error.startswith("Unknown tool 'format_disk'")
    assert not any(isinstance(e, ToolResult) for e in events)


def test_small_models_ways_of_writing_the_arguments_are_read():
    flat = unwrap_call(ToolCall("1", CALL_TOOL, {"name": "remove_layer", "layer": "roads"}))
    assert (flat.id, flat.name, flat.arguments) == ("1", "remove_layer", {"layer": "roads"})
    text = unwrap_call(ToolCall("2", CALL_TOOL, {"name": "remove_layer", "arguments": '{"layer": "roads"}'}))
    assert text.arguments == {"layer": "roads"}
    nested = ToolCall("3", CALL_TOOL, {"name": CALL_TOOL, "arguments": {"name": "remove_layer"}})
    assert unwrap_call(nested) == nested  # call_tool never names itself: refused as unknown
    direct = ToolCall("4", "remove_layer", {"layer": "roads"})
    assert unwrap_call(direct) is direct


async def _plugin_chat(tmp_path, answer: str):
    """The plugin's own server (no QGIS): delete_memory is held back and destructive."""
    import dataclasses

    import httpx

    from stacgis_agent.agent.config import Settings
    from stacgis_agent.agent.llm.ollama import OllamaProvider
    from stacgis_agent.agent.llm.types import ChatOptions
    from stacgis_agent.agent.loop import AgentLoop
    from stacgis_agent.agent.stores.sqlite import SqliteMemoryStore
    from stacgis_agent.tools.deps import ToolDeps
    from stacgis_agent.tools.server import build_server
    from testkit.llm.ollama_emulator import OllamaEmulator
    from testkit.llm.ollama_replies import embed_text

    async def embed(texts):
        return [embed_text(t) for t in texts]

    store = SqliteMemoryStore(tmp_path / "m.db")
    memory_id = await store.add("ana", "The user works in EPSG:2154", "fact", embed_text("EPSG:2154"))
    with OllamaEmulator() as emu:
        settings = dataclasses.replace(Settings(catalogs=[], user="ana", tool_set="compact"), ollama_url=emu.url,
                                       ask_user_timeout_s=5.0)
        provider = OllamaProvider(emu.url, "qwen3:8b", options=ChatOptions(num_ctx=16384), timeout_s=10)
        deps = ToolDeps.from_settings(settings, http=httpx.AsyncClient(), work_dir=str(tmp_path / "out"),
                                      memory_store=store, embed=embed)
        loop = AgentLoop(provider, build_server(deps), settings, embed=embed)
        emu.script(Turn(tool_calls=[(CALL_TOOL, {"name": "delete_memory", "arguments": {"memory_id": memory_id}})]),
                   Turn(content="Done."))
        events = []
        try:
            async for event in loop.run("forget that I work in Lambert 93"):
                events.append(event)
                if isinstance(event, AskUser):
                    loop.answer(event.request_id, answer)
            body = emu.chat_requests()[0]
        finally:
            await loop.aclose()
            await provider.aclose()
            await deps.http.aclose()
    left = [hit.content for hit in await store.recent("ana")]
    await store.aclose()
    return events, body, left


async def test_the_plugins_held_back_delete_memory_through_call_tool_asks_and_no_keeps_the_memory(tmp_path):
    events, body, left = await _plugin_chat(tmp_path, "No")
    assert "delete_memory" not in chat_tools(body) and "delete_memory(memory_id)" in _call_tool_spec(body)["description"]
    assert kinds(events)[:3] == ["tool_start", "ask_user", "tool_error"]
    assert left == ["The user works in EPSG:2154"]


async def test_the_plugins_held_back_delete_memory_through_call_tool_runs_after_yes(tmp_path):
    events, _, left = await _plugin_chat(tmp_path, "Yes, run it")
    assert kinds(events)[:3] == ["tool_start", "ask_user", "tool_result"]
    assert left == []


async def test_list_available_tools_gives_a_held_back_tools_parameters(tmp_path):
    import httpx
    from mcp import Client

    from stacgis_agent.agent.config import Settings
    from stacgis_agent.tools.deps import ToolDeps
    from stacgis_agent.tools.server import build_server

    deps = ToolDeps.from_settings(Settings(catalogs=[]), http=httpx.AsyncClient(), work_dir=str(tmp_path))
    try:
        async with Client(build_server(deps)) as client:
            result = await client.call_tool("list_available_tools", {"keyword": "get_timeseries"})
    finally:
        await deps.http.aclose()
    row = next(r for r in result.structured_content["tools"] if r["name"] == "get_timeseries")
    assert {"collection", "asset", "lon", "lat", "datetime"} <= set(row["parameters"]["properties"])
