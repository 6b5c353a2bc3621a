"""The loop with constrained tool calling, context-overflow notices and map views for vision models."""

import base64

import pytest
from mcp.server.mcpserver.utilities.types import Image

from stacgis_agent.agent.events import Content, Done, Notice, ToolResult, ToolStart
from stacgis_agent.agent.llm.tool_protocol import ToolProtocolProvider
from testkit.llm.agent_harness import harness_factory
from testkit.llm.ollama_emulator import Turn

PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")


@pytest.fixture
async def make_harness():
    async with harness_factory() as factory:
        yield factory


def kinds(events):
    return [type(e).__name__ for e in events]


async def test_a_constrained_turn_says_so_runs_the_call_and_answers(make_harness):
    h = make_harness(chat_model="gemma3:4b")  # the emulator's gemma3:4b has no tools capability
    h.provider = ToolProtocolProvider(h.provider)
    h.emu.script(Turn(tool_calls=[("geocode", {"place": "Lyon"})]), Turn(content="Lyon is at 45.76 N."))
    events = await h.run("Where is Lyon?")

    notices = [e.text for e in events if isinstance(e, Notice)]
    assert any("constrained JSON" in t and "gemma3:4b" in t for t in notices)
    order = [k for k in kinds(events) if k in ("Notice", "ToolStart", "ToolResult", "Done")]
    assert order.index("Notice") < order.index("ToolStart") < order.index("ToolResult") < order.index("Done")
    start = next(e for e in events if isinstance(e, ToolStart))
    assert (start.tool_name, start.tool_args) == ("geocode", {"place": "Lyon"})
    assert h.world.ran("geocode") == [{"place": "Lyon"}]
    assert isinstance(events[-1], Done) and events[-1].content == "Lyon is at 45.76 N."
    assert "".join(e.text for e in events if isinstance(e, Content) and not e.is_complete) == "Lyon is at 45.76 N."
    first, second = h.emu.chat_requests()
    assert "format" in first and "tools" not in first
    assert second["messages"][-1]["role"] == "user" and second["messages"][-1]["content"].startswith(
        "Result of geocode:"), "the tool result goes back as a plain user turn"
    # said once per chat, not on every step
    assert sum("constrained JSON" in t for t in notices) == 1


async def test_a_context_overflow_reported_by_the_provider_becomes_a_notice(make_harness):
    h = make_harness(num_ctx=4096)
    loop = h.make_loop()
    loop.estimator.factor = 0.5  # earlier answers made the loop believe text is cheaper than it is
    h.emu.script(Turn(content="Short answer.", prompt_eval_count=900))
    events = await h.run("Describe in detail " + "every band of Sentinel-2 " * 500)
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert any("context window (4096 tokens)" in t and "read only 900 tokens" in t for t in notices)
    assert isinstance(events[-1], Done) and events[-1].content == "Short answer."


async def test_a_map_view_image_goes_to_a_vision_model_as_ollama_images(make_harness):
    h = make_harness(chat_model="gemma3:4b")
    h.provider = ToolProtocolProvider(h.provider)

    @h.server.tool()
    def get_map_view() -> Image:
        """Render the current map canvas as a PNG picture."""
        return Image(data=PNG, format="png")

    # get_map_view is held back: a model on the constrained protocol can name it only through call_tool
    h.emu.script(Turn(tool_calls=[("call_tool", {"name": "get_map_view", "arguments": {}})]),
                 Turn(content="A small map."))
    events = await h.run("Look at the map view")
    assert any(isinstance(e, ToolResult) and e.tool_name == "get_map_view" for e in events)
    follow_up = h.emu.chat_requests()[1]
    with_images = [m for m in follow_up["messages"] if m.get("images")]
    assert [m["images"] for m in with_images] == [[base64.b64encode(PNG).decode()]]
    assert "[image image/png]" in with_images[0]["content"]
