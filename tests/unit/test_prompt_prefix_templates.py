"""Each request of a chat starts with the whole previous one, rendered with real chat templates
(Qwen3, Llama 3.2, Gemma 3): across steps, across a raster layer appearing, and across messages.

The tool list stays the same for the whole chat; what the project's state allows rides in the
newest message instead. The model's thinking is not sent back: Qwen3's own template renders an
earlier turn's thinking only until the next user message, so a history carrying it would read
differently at every new message (everything after the previous message's first step re-read)."""

from __future__ import annotations

import json

import pytest
import pytest_asyncio

from stacgis_agent.agent.map_context import LayerInfo, MapContext
from testkit.llm.agent_harness import harness_factory
from testkit.llm.chat_templates import RENDERERS, render
from testkit.llm.ollama_emulator import Turn
from testkit.llm.prompt_prefix import common_prefix as common


def _map() -> MapContext:
    return MapContext(extent=(4.77, 45.7, 4.9, 45.8), crs="EPSG:4326", center_lonlat=(4.83, 45.75),
                      active_layer="parcels", layers=(LayerInfo("parcels", "vector", geometry="Polygon"),))


@pytest_asyncio.fixture
async def chat():
    """A two-message chat in which a raster layer appears in the middle of the first message."""
    async with harness_factory() as factory:
        h = factory()
        h.emu.script(
            Turn(thinking="Load the June scene.", tool_calls=[("load_item", {"item_id": "S2B_31TFL_20250612"})]),
            Turn(thinking="Now its statistics.", tool_calls=[("raster_stats", {"layer": "S2B_31TFL_20250612"})]),
            Turn(content="Mean 0.41."),
            Turn(thinking="Collections again.", tool_calls=[("list_collections", {})]),
            Turn(content="Three collections."))
        await h.run("Load the June scene and give me its mean", _map())
        await h.run("Which collections are there?", _map())
        yield h.emu.chat_requests()


@pytest.mark.parametrize("template", sorted(RENDERERS))
async def test_every_step_starts_with_the_whole_previous_request(chat, template):
    prompts = [render(template, body) for body in chat]
    first_message, second_message = prompts[:3], prompts[3:]
    for steps in (first_message, second_message):  # the raster layer appears between steps 1 and 2
        for before, after in zip(steps, steps[1:]):
            assert after.startswith(before), f"{template}: re-read from {common(before, after)} of {len(before)}"


@pytest.mark.parametrize("template", sorted(RENDERERS))
async def test_the_next_message_starts_with_the_whole_previous_request(chat, template):
    before, after = render(template, chat[2]), render(template, chat[3])
    assert after.startswith(before), f"{template}: re-read from {common(before, after)} of {len(before)}"


async def test_the_plugin_sends_history_exactly_as_it_sent_it(chat):
    """Whatever a template does with it, the messages themselves never change behind the model's back."""
    for before, after in zip(chat, chat[1:]):
        if before["messages"][-1]["role"] == "system":  # "answer now" rides only at the end of its step
            before = dict(before, messages=before["messages"][:-1])
        sent = [json.dumps(m, sort_keys=True) for m in before["messages"]]
        again = [json.dumps(m, sort_keys=True) for m in after["messages"]][:len(sent)]
        assert again == sent
        assert before["tools"] == after["tools"]


async def test_the_model_reads_what_it_said_and_called_but_not_its_thinking(chat):
    """The thinking is shown in the dock as it streams; the history the model reads again holds the calls,
    their results and the answers, so no template has anything to drop at the next message."""
    assert not any(m.get("thinking") for body in chat for m in body["messages"])
    calls = [c["function"]["name"] for m in chat[-1]["messages"] for c in m.get("tool_calls") or ()]
    assert calls == ["load_item", "raster_stats", "list_collections"]
    answers = [m["content"] for m in chat[-1]["messages"] if m["role"] == "assistant" and m["content"]]
    assert answers == ["Mean 0.41."]
