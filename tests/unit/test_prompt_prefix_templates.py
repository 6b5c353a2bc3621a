"""Each request of a chat starts with the whole previous one, rendered with real chat templates
(Qwen3, Llama 3.2, Gemma 3): across steps, across a raster layer appearing, and across messages.

The tool list stays the same for the whole chat; what the project's state allows rides in the
newest message instead. Where a model's own template rewrites history (Qwen3 drops an earlier
turn's thinking once a new user message exists), the test measures what that costs and checks
that the plugin itself sent the history exactly as before."""

from __future__ import annotations

import json
from pathlib import Path

import jinja2
import pytest
import pytest_asyncio

from stacgis_agent.agent.map_context import LayerInfo, MapContext
from testkit.llm.agent_harness import harness_factory
from testkit.llm.llama_server import GEMMA_TEMPLATE
from testkit.llm.ollama_emulator import Turn
from testkit.llm.prompt_prefix import common_prefix as common

TEMPLATES = Path(__file__).resolve().parents[1] / "data" / "chat_templates"


def _raise(message: str):
    raise jinja2.TemplateError(message)


def _template(source: str) -> jinja2.Template:
    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True)
    env.globals.update(raise_exception=_raise, strftime_now=lambda fmt: "01 Dec 2026")
    return env.from_string(source)


RENDERERS = {
    "qwen3": _template((TEMPLATES / "Qwen-Qwen3-0.6B.jinja").read_text()),
    "llama3.2": _template((TEMPLATES / "meta-llama-Llama-3.2-3B-Instruct.jinja").read_text()),
    "gemma3": _template(GEMMA_TEMPLATE),
}


def as_hf_messages(body: dict) -> list[dict]:
    """Ollama's /api/chat messages as the Hugging Face templates read them (thinking → reasoning_content)."""
    out = []
    for m in body["messages"]:
        msg = {"role": m["role"], "content": m.get("content") or ""}
        if m.get("thinking"):
            msg["reasoning_content"] = m["thinking"]
        if m.get("tool_calls"):
            msg["tool_calls"] = [{"type": "function", "function": {
                "name": c["function"]["name"], "arguments": c["function"]["arguments"]}} for c in m["tool_calls"]]
        out.append(msg)
    return out


def render(name: str, body: dict) -> str:
    return RENDERERS[name].render(messages=as_hf_messages(body), tools=body.get("tools") or None,
                                  add_generation_prompt=True, bos_token="<bos>")


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


@pytest.mark.parametrize("template", ["llama3.2", "gemma3"])
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


async def test_qwen3_drops_the_earlier_thinking_at_the_next_message_and_that_is_all(chat):
    """Qwen3's own template renders an earlier turn's thinking only until the next user message;
    the re-read then starts at the first assistant step of the previous message, never earlier."""
    before, after = render("qwen3", chat[2]), render("qwen3", chat[3])
    shared = common(before, after)
    assert not after.startswith(before)
    think = before.index("<think>")
    assert think <= shared < think + len("<think>")  # the thinking block is what the template dropped
    stripped = before.replace("<think>\nLoad the June scene.\n</think>\n\n", "").replace(
        "<think>\nNow its statistics.\n</think>\n\n", "")
    assert after.startswith(stripped)
