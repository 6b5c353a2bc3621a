"""Which tools the model sees across the steps and messages of a chat (agent/visible_tools.py)."""

from __future__ import annotations

import pytest_asyncio

from stacgis_agent.agent.tool_ranking import ToolSelector, ToolText
from stacgis_agent.agent.visible_tools import ToolSet
from testkit.llm.agent_harness import harness_factory
from testkit.llm.ollama_replies import embed_text

TOOLS = [ToolText("search_items", "Find satellite scenes (imagery) in a catalog by area and date."),
         ToolText("zoom_to_location", "Move the map to a place, a bbox or a layer."),
         ToolText("query_raster_point", "Elevation, NDVI or any raster value at one point."),
         ToolText("set_layer_style", "Colour ramp, hillshade or opacity of a layer."),
         ToolText("run_processing_algorithm", "Clip, buffer, reproject or compute slope with QGIS Processing."),
         ToolText("add_memory", "Remember a fact about the user.")]


@pytest_asyncio.fixture
async def make_harness():
    async with harness_factory() as factory:
        yield factory


async def _embed(texts):
    return [embed_text(t) for t in texts]


async def _tool_set(mode: str, top_k: int = 2) -> ToolSet:
    selector = ToolSelector(_embed)
    await selector.index(TOOLS)
    return ToolSet(selector, _embed, mode=mode, top_k=top_k)


async def test_all_tools_in_server_order_and_a_newly_allowed_tool_is_appended():
    tools = await _tool_set("all")
    allowed = {t.name for t in TOOLS} - {"query_raster_point"}
    first = await tools.for_step("zoom to Lyon", allowed=allowed)
    assert first == [t.name for t in TOOLS if t.name != "query_raster_point"]
    later = await tools.for_step("elevation here?", "a raster is loaded now", allowed=allowed | {"query_raster_point"})
    assert later == first + ["query_raster_point"]


async def test_per_chat_selection_keeps_its_order_and_appends_what_a_new_message_needs():
    tools = await _tool_set("chat")
    first = await tools.for_step("zoom to Lyon")
    assert first[0] == "zoom_to_location" and len(first) == 2
    assert await tools.for_step("zoom to Lyon", "now let me think about the style") == first  # steps: same list
    later = await tools.for_step("clip the DEM and compute the slope")
    assert later[:2] == first and "run_processing_algorithm" in later[2:]


async def test_per_message_selection_is_fixed_within_a_message_only():
    tools = await _tool_set("message")
    first = await tools.for_step("zoom to Lyon")
    assert await tools.for_step("zoom to Lyon", "thinking about colours and hillshade") == first
    assert (await tools.for_step("clip the DEM and compute the slope"))[0] == "run_processing_algorithm"


async def test_per_step_selection_follows_the_thinking():
    tools = await _tool_set("step", top_k=1)
    assert await tools.for_step("zoom to Lyon") == ["zoom_to_location"]
    assert await tools.for_step("zoom to Lyon", "Lyon is shown; now remember the user likes it, add a memory fact") \
        != ["zoom_to_location"]


async def test_auto_offers_everything_for_a_small_tool_set_and_selects_for_a_large_one():
    small = await _tool_set("auto")
    assert small.effective_mode == "all"
    assert len(await small.for_step("zoom to Lyon")) == len(TOOLS)
    large = await _tool_set("auto")
    large.all_tools_max = 3
    assert large.effective_mode == "chat" and len(await large.for_step("zoom to Lyon")) == 2


async def test_auto_selects_when_every_tool_would_fill_more_than_half_of_the_context_window():
    tools = await _tool_set("auto")
    tools.context_window, tools.all_tools_tokens = 8192, 7000  # 38 real tools in a small window
    assert tools.effective_mode == "chat" and len(await tools.for_step("zoom to Lyon")) == 2
    default = await _tool_set("auto")
    default.context_window, default.all_tools_tokens = 16384, 7000  # the default num_ctx: all of them
    assert default.effective_mode == "all"


async def test_the_loop_measures_its_tools_against_num_ctx(make_harness):
    """The toy tools take a few hundred tokens: all offered at 16k, selected in a 1k window."""
    from testkit.llm.agent_harness import chat_tools
    from testkit.llm.ollama_emulator import Turn

    roomy = make_harness(tool_top_k=2)
    roomy.emu.script(Turn(content="Hello."))
    await roomy.run("zoom to Lyon")
    assert len(chat_tools(roomy.emu.chat_requests()[-1])) > 3
    tight = make_harness(tool_top_k=2, num_ctx=1024)
    tight.emu.script(Turn(content="Hello."))
    await tight.run("what is in the catalog?")
    assert tight.loop.tool_set.effective_mode == "chat"
    assert len(chat_tools(tight.emu.chat_requests()[-1])) == 3  # the top 2 and ask_user


async def test_an_unknown_mode_from_a_hand_edited_setting_falls_back_to_auto():
    selector = ToolSelector(_embed)
    await selector.index(TOOLS)
    assert ToolSet(selector, _embed, mode="sometimes").mode == "auto"


async def test_a_tool_outside_the_selection_still_runs_when_the_model_names_it(make_harness):
    from testkit.llm.agent_harness import chat_tools
    from testkit.llm.ollama_emulator import Turn

    h = make_harness(tool_set="chat", tool_top_k=1)
    h.emu.script(Turn(tool_calls=[("describe_collection", {"collection": "cop-dem-glo-30"})]),
                 Turn(content="Copernicus DEM, 30 m."))
    await h.run("geocode Lyon")
    assert "describe_collection" not in chat_tools(h.emu.chat_requests()[0])
    assert h.world.ran("describe_collection") == [{"collection": "cop-dem-glo-30"}]
