"""The ReAct loop end to end: the emulator scripts the model, the real OllamaProvider talks
HTTP to it, tools run in a real in-process MCP server."""

from __future__ import annotations

import json

import pytest_asyncio

from stacgis_agent.agent.events import Content, Done, Thinking, ToolError, ToolResult, ToolStart
from stacgis_agent.agent.map_context import LayerInfo, MapContext
from stacgis_agent.agent.system_prompt import CONTINUE
from testkit.llm.agent_harness import chat_tools, harness_factory, kinds
from testkit.llm.ollama_emulator import Turn
from testkit.servers.inmemory_stores import InMemoryMemoryStore, InMemorySessionStore

LYON = [4.77, 45.70, 4.90, 45.80]

@pytest_asyncio.fixture
async def make_harness():
    async with harness_factory() as factory:
        yield factory


async def test_three_tool_calls_answered_end_to_end_with_the_exact_event_sequence(make_harness):
    h = make_harness()
    store = InMemorySessionStore()
    h.make_loop(session_store=store, session_id="s1")
    h.emu.script(
        Turn(thinking="Search Sentinel-2 over Lyon", tool_calls=[
            ("search_items", {"collection": "sentinel-2-l2a", "bbox": LYON, "datetime": "2024-06"})]),
        Turn(thinking="Load the clearest", tool_calls=[("load_item", {"item_id": "sentinel-2-l2a-item-1"})]),
        Turn(tool_calls=[("raster_stats", {"layer": "sentinel-2-l2a-item-1:visual"})]),
        Turn(thinking="Report", content="The mean is 0.42 over the scene."),
    )
    events = await h.run("Mean value of Sentinel-2 over Lyon in June 2024?")

    assert kinds(events) == ["thinking", "tool_start", "tool_result", "thinking", "tool_start", "tool_result",
                             "tool_start", "tool_result", "thinking", "content", "answer", "done"]
    starts = [e for e in events if isinstance(e, ToolStart)]
    results = [e for e in events if isinstance(e, ToolResult)]
    assert [(s.step, s.tool_name) for s in starts] == [(1, "search_items"), (2, "load_item"), (3, "raster_stats")]
    assert [r.call_id for r in results] == [s.call_id for s in starts]
    assert results[0].result["matched"] == 42 and results[2].result["mean"] == 0.42
    assert all(r.duration_ms >= 0 for r in results)
    assert "".join(e.text for e in events if isinstance(e, Thinking) and e.step == 2) == "Load the clearest"
    done = events[-1]
    assert done.content == "The mean is 0.42 over the scene." and not done.stopped
    assert done.usage.steps == 4 and done.usage.tool_calls == 3 and done.usage.context_window == 16384
    assert done.usage.prompt_tokens > 0 and done.usage.eval_tokens > 0
    assert [args["layer"] for args in h.world.ran("raster_stats")] == ["sentinel-2-l2a-item-1:visual"]

    requests = h.emu.chat_requests()
    assert len(requests) == 4
    # raster_stats needs a raster layer: listed from the start, the newest message says when it can run
    assert chat_tools(requests[0]) == chat_tools(requests[2]) and "raster_stats" in chat_tools(requests[0])
    assert "raster_stats will refuse" in requests[0]["messages"][-1]["content"]
    assert requests[2]["messages"][-1]["content"].endswith("[tools] every tool can run now.")
    tool_msg = requests[1]["messages"][-1]
    assert tool_msg["role"] == "tool" and tool_msg["tool_name"] == "search_items"
    assert json.loads(tool_msg["content"])["matched"] == 42
    assert requests[0]["options"]["num_ctx"] == 16384
    # saved after the user's message and after the answer
    assert len(store.saves) == 2
    assert store.saves[0][1]["messages"][-1]["role"] == "user"
    final_memory, final_log = store.saves[1][1], store.saves[1][2]
    assert final_memory["messages"][-1] == {"role": "assistant", "content": "The mean is 0.42 over the scene."}
    assert [e["type"] for e in final_log][:3] == ["user_message", "thinking", "tool_start"]
    assert final_log[-1]["type"] == "done"


async def test_state_is_refreshed_mid_turn_after_a_tool_that_loads_a_layer(make_harness):
    h = make_harness()
    h.emu.script(
        Turn(tool_calls=[("load_item", {"item_id": "x"}), ("raster_stats", {"layer": "x:visual"})]),
        Turn(content="Mean 0.42."))
    events = await h.run("Load x and give me its stats")
    assert [type(e).__name__ for e in events if isinstance(e, ToolStart | ToolResult | ToolError)] == [
        "ToolStart", "ToolResult", "ToolStart", "ToolResult"]
    assert h.world.ran("raster_stats") == [{"layer": "x:visual", "band": 1}]


async def test_layer_tools_open_up_after_a_tool_changed_the_project(make_harness):
    h = make_harness()
    h.emu.script(
        Turn(tool_calls=[("open_raster_file", {"path": "/data/dem.tif"}), ("raster_stats", {"layer": "/data/dem.tif"})]),
        Turn(content="Mean 0.17."))
    events = await h.run("Open dem.tif and give me its mean")
    assert [e.tool_name for e in events if isinstance(e, ToolResult)] == ["open_raster_file", "raster_stats"]
    assert "raster_stats" in chat_tools(h.emu.chat_requests()[1])  # still there at the next step


async def test_read_only_calls_of_one_turn_run_together_and_report_in_order(make_harness):
    h = make_harness()
    h.emu.script(
        Turn(tool_calls=[("describe_collection", {"collection": "landsat-c2-l2"}),
                         ("describe_collection", {"collection": "cop-dem-glo-30"})]),
        Turn(content="Both described."))
    events = await h.run("Describe Landsat and the DEM")
    tools = [(type(e).__name__, e.tool_args.get("collection") if isinstance(e, ToolStart) else e.result["id"])
             for e in events if isinstance(e, ToolStart | ToolResult)]
    assert tools == [("ToolStart", "landsat-c2-l2"), ("ToolStart", "cop-dem-glo-30"),
                     ("ToolResult", "landsat-c2-l2"), ("ToolResult", "cop-dem-glo-30")]


async def test_malformed_arguments_are_reported_and_corrected_on_the_next_step(make_harness):
    h = make_harness()
    h.emu.script(
        Turn(tool_calls=[("search_items", {"collection": "sentinel-2-l2a", "bbox": "Lyon"})]),
        Turn(tool_calls=[("search_items", {"collection": "sentinel-2-l2a", "bbox": LYON})]),
        Turn(content="Found 42 scenes."))
    events = await h.run("Sentinel-2 over Lyon")
    errors = [e for e in events if isinstance(e, ToolError)]
    assert len(errors) == 1 and "bbox: 'Lyon' is not of type 'array'" in errors[0].error
    assert [e.step for e in events if isinstance(e, ToolResult)] == [2]
    assert len(h.world.ran("search_items")) == 1  # the bad call never reached the tool
    observation = h.emu.chat_requests()[1]["messages"][-1]
    assert observation["role"] == "tool" and "Call it again with corrected arguments" in observation["content"]
    assert events[-1].content == "Found 42 scenes."


async def test_unknown_tool_becomes_an_observation_not_a_crash(make_harness):
    h = make_harness()
    h.emu.script(Turn(tool_calls=[("fly_to_the_moon", {"speed": 3})]), Turn(content="I cannot do that."))
    events = await h.run("Fly me to the moon")
    error = next(e for e in events if isinstance(e, ToolError))
    assert error.tool_name == "fly_to_the_moon" and error.error.startswith("Unknown tool 'fly_to_the_moon'")
    assert "list_collections" in error.error  # tells the model what exists
    assert "Unknown tool" in h.emu.chat_requests()[1]["messages"][-1]["content"]
    assert events[-1].content == "I cannot do that."


async def test_a_tool_that_raises_is_reported_and_the_model_goes_on(make_harness):
    h = make_harness()
    h.emu.script(Turn(tool_calls=[("geocode", {"place": "Atlantis"})]),
                 Turn(tool_calls=[("geocode", {"place": "Lyon"})]),
                 Turn(content="Lyon is at 45.75 N."))
    events = await h.run("Where is Atlantis, or else Lyon?")
    error = next(e for e in events if isinstance(e, ToolError))
    assert error.error.startswith("'geocode' stopped with an unexpected error inside the tool")
    assert "Error executing tool" not in error.error
    assert next(e for e in events if isinstance(e, ToolResult)).result["bbox"] == LYON
    assert events[-1].content == "Lyon is at 45.75 N."


async def test_leaked_tool_call_in_content_is_run_and_kept_out_of_the_answer(make_harness):
    h = make_harness()
    h.emu.script(Turn(leak="tool_call_tags", tool_calls=[("list_collections", {})]),
                 Turn(content="Three collections.", leak=None))
    events = await h.run("Which collections?")
    assert [e.tool_name for e in events if isinstance(e, ToolResult)] == ["list_collections"]
    assert all("<tool_call>" not in e.text for e in events if isinstance(e, Content))
    assert events[-1].content == "Three collections."


async def test_thinking_in_think_tags_becomes_thinking_events(make_harness):
    h = make_harness()
    h.emu.script(Turn(thinking="The user greets me.", content="Hello! Ask me about imagery.",
                      think_in_content=True))
    events = await h.run("hi")
    assert "".join(e.text for e in events if isinstance(e, Thinking)) == "The user greets me."
    assert all("think>" not in e.text for e in events if isinstance(e, Content))
    assert events[-2] == Content("Hello! Ask me about imagery.", is_complete=True)
    assert h.loop.memory.messages[-1]["content"] == "Hello! Ask me about imagery."


async def test_an_answer_cut_by_the_length_limit_is_continued_and_joined(make_harness):
    h = make_harness()
    h.emu.script(Turn(content="NDVI is the normalised ", done_reason="length"),
                 Turn(content="difference vegetation index."))
    events = await h.run("What is NDVI?")
    assert events[-1].content == "NDVI is the normalised difference vegetation index."
    second = h.emu.chat_requests()[1]["messages"]
    assert second[-2] == {"role": "assistant", "content": "NDVI is the normalised "}
    assert second[-1] == {"role": "user", "content": CONTINUE}
    assert h.loop.memory.messages[-1]["content"] == "NDVI is the normalised difference vegetation index."


async def test_map_context_long_term_memories_and_restored_session_reach_the_model(make_harness):
    h = make_harness()
    memories = InMemoryMemoryStore()
    for text in ("The user prefers Sentinel-2 over Landsat", "Parcels layer uses EPSG:2154",
                 "The user's farm is near Lyon"):
        await memories.add("ana", text, "preference", (await h.provider.embed([text]))[0])
    sessions = InMemorySessionStore()
    h.make_loop(session_id="chat-7", memory_store=memories, session_store=sessions, user="ana")
    ctx = MapContext(extent=(4.77, 45.7, 4.9, 45.8), crs="EPSG:4326", active_layer="parcels",
                     layers=(LayerInfo("parcels", "vector", geometry="Polygon"),))
    h.emu.script(Turn(content="Noted."))
    await h.run("Which imagery do I prefer, Sentinel-2 or Landsat?", ctx)
    first = h.emu.chat_requests()[0]["messages"]
    assert first[0]["role"] == "system" and "STAC GIS Agent" in first[0]["content"]
    assert "- toy: sentinel-2-l2a, landsat-c2-l2, cop-dem-glo-30" in first[0]["content"]  # preloaded
    # memories change with every message: they ride with it, after the history, not in the system prompt
    assert [m["role"] for m in first] == ["system", "user"]
    said, memories = first[-1]["content"].split("\n\n[memories] ", 1)
    assert said == "Which imagery do I prefer, Sentinel-2 or Landsat?"
    assert memories.splitlines()[1] == "- (preference) The user prefers Sentinel-2 over Landsat"
    assert "\n\n[map] extent:" in memories  # the map block ends the message
    assert "layers: parcels (vector, Polygon)" in first[-1]["content"]

    # a new loop on the same session id continues the saved conversation
    await h.loop.aclose()
    h.make_loop(session_id="chat-7", session_store=sessions, user="ana")
    h.emu.script(Turn(content="Sentinel-2."))
    events = await h.run("And again?")
    second = h.emu.chat_requests()[1]["messages"]
    assert [m["role"] for m in second] == ["system", "user", "assistant", "user"]
    assert second[2]["content"] == "Noted."
    assert isinstance(events[-1], Done) and events[-1].session_id == "chat-7"


async def test_memories_stored_with_the_embedding_model_are_recalled_from_the_real_store(make_harness, tmp_path):
    """The memory tools store vectors tagged with the embedding model; recall must search with the
    same model (the real stores never compare vectors across models)."""
    from stacgis_agent.agent.stores.sqlite import SqliteMemoryStore

    h = make_harness()
    store = SqliteMemoryStore(tmp_path / "memory.sqlite")
    text = "The user works in EPSG:2154"
    await store.add("ana", text, "fact", (await h.provider.embed([text]))[0], model=h.settings.embedding_model)
    h.make_loop(memory_store=store, user="ana")
    h.emu.script(Turn(content="EPSG:2154."))
    await h.run("Which EPSG do I work in?")
    first = h.emu.chat_requests()[0]["messages"]
    assert "[memories] " in first[-1]["content"] and "- (fact) The user works in EPSG:2154" in first[-1]["content"]
    await store.aclose()


def test_session_log_keeps_a_preview_of_a_huge_tool_result_not_all_of_it():
    from stacgis_agent.agent.loop import LOG_RESULT_CHARS, _loggable_result

    small = {"items": [{"id": "a"}]}
    assert _loggable_result(small) is small
    huge = {"assets": {f"B{i:05d}": {"href": "https://example.org/" + "x" * 300} for i in range(40_000)}}
    kept = _loggable_result(huge)
    assert kept["truncated"] is True and kept["size_chars"] > 10_000_000
    assert len(kept["preview"]) == LOG_RESULT_CHARS
