"""The prompt is laid out for the model's KV cache: each request of a chat starts with the whole
previous request, token for token, while nothing changed the tool set.

Ollama (llama.cpp) re-reads only what follows the longest common prefix with the previous
request; the chat template puts the tool list at the very top. The recorded /api/chat
requests are rendered with a real chat template (Qwen's, tools in the system block) and
compared as text."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest_asyncio

from stacgis_agent.agent.map_context import LayerInfo, MapContext
from testkit.llm.agent_harness import chat_tools, harness_factory
from testkit.llm.ollama_emulator import Turn
from testkit.llm.prompt_prefix import common_prefix
from testkit.servers.inmemory_stores import InMemoryMemoryStore

TEMPLATE = jinja2.Environment().from_string(
    (Path(__file__).resolve().parents[1] / "data" / "qwen_chat_template.jinja").read_text())
LYON = [4.77, 45.70, 4.90, 45.80]


def render(body: dict) -> str:
    """What the model reads for one recorded request."""
    tools = body.get("tools") or None
    return TEMPLATE.render(messages=body["messages"], tools=tools, add_generation_prompt=True)


reused = common_prefix  # characters of `after` the cache holds from `before`


@pytest_asyncio.fixture
async def make_harness():
    async with harness_factory() as factory:
        yield factory


def _map(active: str) -> MapContext:
    return MapContext(extent=(4.77, 45.7, 4.9, 45.8), crs="EPSG:4326", center_lonlat=(4.83, 45.75),
                      active_layer=active, layers=(LayerInfo(active, "vector", geometry="Polygon"),))


async def _two_turn_chat(h, **loop_kwargs) -> list[str]:
    memories = InMemoryMemoryStore()
    text = "The user prefers Sentinel-2 over Landsat"
    await memories.add("ana", text, "preference", (await h.provider.embed([text]))[0])
    h.make_loop(memory_store=memories, user="ana", **loop_kwargs)
    h.emu.script(
        Turn(thinking="Which collections?", tool_calls=[("list_collections", {})]),
        Turn(thinking="Search Sentinel-2 over the map", tool_calls=[
            ("search_items", {"collection": "sentinel-2-l2a", "bbox": LYON, "datetime": "2025-06"})]),
        Turn(content="Two Sentinel-2 scenes over Lyon in June."),
        Turn(thinking="Describe the DEM", tool_calls=[("describe_collection", {"collection": "cop-dem-glo-30"})]),
        Turn(content="The DEM is Copernicus 30 m."))
    await h.run("Find Sentinel-2 over Lyon in June", _map("parcels"))
    # the analyst moved the map and changed the active layer between the two messages
    await h.run("And which elevation model is there?", _map("rivers"))
    return [render(body) for body in h.emu.chat_requests()]


async def test_every_request_of_a_chat_starts_with_the_whole_previous_request(make_harness):
    prompts = await _two_turn_chat(make_harness())
    assert len(prompts) == 5
    for before, after in zip(prompts, prompts[1:]):
        assert after.startswith(before), f"cache broken after {reused(before, after)} of {len(before)} chars"
    # the second message re-reads only what it adds: the answer, the question, its memories and map
    added = len(prompts[3]) - len(prompts[2])
    assert added < 0.2 * len(prompts[2])


async def test_volatile_parts_come_after_the_history(make_harness):
    h = make_harness()
    await _two_turn_chat(h)
    first, later = h.emu.chat_requests()[0], h.emu.chat_requests()[3]
    system = first["messages"][0]["content"]
    assert first["messages"][0]["role"] == "system" and later["messages"][0] == first["messages"][0]
    assert "active layer:" not in system and "Sentinel-2 over Landsat" not in system
    # memories and the map ride with the user's message, the last one before the model speaks
    question = later["messages"][-1]
    assert question["role"] == "user" and question["content"].startswith("And which elevation model is there?")
    assert "active layer: rivers" in question["content"]
    asked = first["messages"][-1]
    assert asked["role"] == "user" and "[memories] " in asked["content"] and "[map] " in asked["content"]


async def test_per_step_selection_breaks_the_cache_at_the_top_of_the_prompt(make_harness):
    """The same chat with tools re-selected at every step (the old behaviour): the tool list at
    the top changes, so nearly nothing of the previous request is reused."""
    prompts = await _two_turn_chat(make_harness(tool_set="step", tool_top_k=2))
    # a step whose tool list changed is re-read from inside the system block (which holds the tools) on: the history after it too
    breaks = [reused(a, b) < a.index("<|im_end|>") for a, b in zip(prompts, prompts[1:])]
    assert any(breaks)  # (with the tool set kept, every request starts with the whole previous one: above)


async def test_the_tool_list_stays_when_a_layer_appears_and_the_state_rides_in_the_newest_message(make_harness):
    h = make_harness()
    h.emu.script(
        Turn(tool_calls=[("load_item", {"item_id": "S2B_31TFL_20250612"})]),
        Turn(tool_calls=[("raster_stats", {"layer": "S2B_31TFL_20250612"})]),
        Turn(content="Mean 0.41."))
    await h.run("Load the June scene and give me its mean", _map("parcels"))
    bodies = h.emu.chat_requests()
    first, second, third = (chat_tools(b) for b in bodies)
    assert "raster_stats" in first and second == first and third == first  # listed from the start, never moved
    assert "no raster layer yet, so raster_stats will refuse" in bodies[0]["messages"][-1]["content"]
    loaded = bodies[1]["messages"][-1]
    assert loaded["role"] == "tool" and loaded["content"].endswith("[tools] every tool can run now.")
    assert h.world.ran("raster_stats")
    prompts = [render(b) for b in bodies]
    for before, after in zip(prompts, prompts[1:]):  # the layer appearing re-reads only what was added
        assert after.startswith(before), f"cache broken after {reused(before, after)} of {len(before)} chars"


async def test_a_tool_the_state_does_not_allow_yet_refuses_with_one_sentence(make_harness):
    h = make_harness()
    h.emu.script(Turn(tool_calls=[("raster_stats", {"layer": "dem"})]), Turn(content="I need a raster first."))
    await h.run("Mean of the DEM?", _map("parcels"))
    refused = h.emu.chat_requests()[1]["messages"][-1]
    assert refused["role"] == "tool" and "not available yet: it needs raster layer" in refused["content"]
    assert "load_item" in refused["content"] and not h.world.ran("raster_stats")


async def test_a_new_chat_starts_with_the_same_system_prompt_and_tools_as_the_last_one(make_harness):
    """Nothing volatile (a time, a session id) at the top: a new chat reuses the cached tools block."""
    h = make_harness()
    h.emu.script(Turn(content="Hello."), Turn(content="Hello again."))
    h.make_loop()
    await h.run("hi", _map("parcels"))
    await h.loop.aclose()
    h.make_loop()
    await h.run("Good morning", _map("rivers"))
    first, second = (render(body) for body in h.emu.chat_requests())
    shared = reused(first, second)
    assert first[:shared].endswith("<|im_end|>\n<|im_start|>user\n")  # all but the user's message itself
