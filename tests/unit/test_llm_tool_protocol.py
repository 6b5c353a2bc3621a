"""Choosing native or constrained tool calling per model, against the Ollama emulator over HTTP."""

import json

import jsonschema
import pytest

from stacgis_agent.agent.config import Settings
from stacgis_agent.agent.llm.factory import provider_from_settings
from stacgis_agent.agent.llm.openai_compat import OpenAICompatProvider
from stacgis_agent.agent.llm.tool_protocol import PROTOCOL_FILE, ToolProtocolProvider
from stacgis_agent.agent.llm.types import (
    ContentChunk,
    FinalChunk,
    ProtocolChunk,
    ThinkingChunk,
    ToolCallChunk,
)
from testkit.llm.ollama_emulator import OllamaEmulator, Turn

ZOOM = {"type": "function", "function": {
    "name": "zoom_to_location", "description": "Zoom the map to a named place.",
    "parameters": {"type": "object", "properties": {"place": {"type": "string"}}, "required": ["place"]}}}
USER = [{"role": "system", "content": "You are a GIS assistant."}, {"role": "user", "content": "zoom to Lyon"}]


@pytest.fixture
def emu():
    with OllamaEmulator() as emulator:
        yield emulator


async def collect(provider, messages=USER, tools=(ZOOM,)):
    return [c async for c in provider.chat_stream(messages, list(tools) if tools else None)]


def paths(emu):
    return [r.path for r in emu.requests]


async def test_a_model_without_the_tools_capability_gets_the_constrained_protocol_remembered(emu, tmp_path):
    emu.script(Turn(thinking="", tool_calls=[("zoom_to_location", {"place": "Lyon"})]))
    settings = Settings(ollama_url=emu.url, chat_model="gemma3:4b")  # completion + vision, no tools
    provider = provider_from_settings(settings, protocol_folder=tmp_path)
    chunks = await collect(provider)
    await provider.aclose()

    assert isinstance(chunks[0], ProtocolChunk) and chunks[0].protocol == "constrained"
    assert "no tool calling" in chunks[0].reason
    calls = [c.call for c in chunks if isinstance(c, ToolCallChunk)]
    assert [(c.name, c.arguments) for c in calls] == [("zoom_to_location", {"place": "Lyon"})]
    assert chunks[-1].response.tool_calls == tuple(calls)
    body = emu.chat_requests()[0]
    assert "tools" not in body, "the server would answer 400"
    jsonschema.validate({"tool": "zoom_to_location", "arguments": {"place": "Lyon"}}, body["format"])
    assert "zoom_to_location(place: string)" in body["messages"][0]["content"]
    saved = json.loads((tmp_path / PROTOCOL_FILE).read_text())
    assert saved[f"{emu.url} gemma3:4b"]["protocol"] == "constrained"

    # a new session with the same model: no capability question, constrained from the first request
    emu.script(Turn(content="Done, the map shows Lyon."))
    again = provider_from_settings(settings, protocol_folder=tmp_path)
    before = len(emu.requests)
    chunks = await collect(again)
    await again.aclose()
    assert paths(emu)[before:] == ["/api/chat"]
    assert "".join(c.text for c in chunks if isinstance(c, ContentChunk)) == "Done, the map shows Lyon."
    assert chunks[-1].response.content == "Done, the map shows Lyon." and not chunks[-1].response.tool_calls


async def test_a_does_not_support_tools_answer_is_retried_constrained_without_an_error(emu):
    emu.script(Turn(tool_calls=[("zoom_to_location", {"place": "Lyon"})]))
    inner = OpenAICompatProvider(emu.url, "gemma3:4b", timeout_s=10)  # no /api/show on /v1 servers
    provider = ToolProtocolProvider(inner)
    chunks = await collect(provider)
    await provider.aclose()

    kinds = [type(c).__name__ for c in chunks]
    assert kinds == ["ProtocolChunk", "ProtocolChunk", "ToolCallChunk", "FinalChunk"]
    assert [c.protocol for c in chunks[:2]] == ["native", "constrained"]
    assert "does not support tools" in chunks[1].reason
    first, second = emu.chat_requests()
    assert "tools" in first and "response_format" not in first
    assert "tools" not in second and second["response_format"]["type"] == "json_schema"
    assert chunks[2].call.arguments == {"place": "Lyon"}


async def test_the_setting_forces_constrained_calls_and_thinking_keeps_streaming(emu):
    emu.script(Turn(thinking="The user wants Lyon.", tool_calls=[("zoom_to_location", {"place": "Lyon"})]))
    settings = Settings(ollama_url=emu.url, chat_model="qwen3:8b", constrained_tools=True)
    provider = provider_from_settings(settings)
    chunks = await collect(provider)
    await provider.aclose()
    assert "/api/show" not in paths(emu), "the user's choice needs no detection"
    assert chunks[0].protocol == "constrained" and "settings" in chunks[0].reason
    assert "".join(c.text for c in chunks if isinstance(c, ThinkingChunk)) == "The user wants Lyon."
    assert not [c for c in chunks if isinstance(c, ContentChunk)], "the JSON action is never shown as text"
    assert isinstance(chunks[-1], FinalChunk) and chunks[-1].response.thinking == "The user wants Lyon."


async def test_llama_cpp_python_schema_form_is_used_after_its_refusal(emu):
    """llama-cpp-python's server refuses {"type": "json_schema"} and names "json_object"."""
    emu.script(Turn(http_status=500, http_error="Input should be 'text' or 'json_object'"),
               Turn(content="Bonjour"))
    provider = ToolProtocolProvider(OpenAICompatProvider(emu.url, "qwen3:8b", timeout_s=10),
                                    force_constrained=True)
    chunks = await collect(provider, tools=None)
    await provider.aclose()
    first, second = emu.chat_requests()
    assert first["response_format"]["type"] == "json_schema"
    assert second["response_format"] == {"type": "json_object", "schema": first["response_format"]["json_schema"]["schema"]}
    assert chunks[-1].response.content == "Bonjour"


async def test_a_tool_capable_model_stays_native_and_images_reach_only_vision_models(emu):
    picture = {"role": "tool", "tool_name": "get_map_view", "tool_call_id": "c1", "content": "[image image/png]",
               "images": ["iVBORw0KGgo="]}
    history = [*USER, {"role": "assistant", "content": "", "tool_calls": [
        {"id": "c1", "function": {"name": "get_map_view", "arguments": {}}}]}, picture]
    emu.script(Turn(content="I see a river."), Turn(content="I see a river."))
    native = provider_from_settings(Settings(ollama_url=emu.url, chat_model="qwen3:8b"))
    chunks = await collect(native, history)
    vision = provider_from_settings(Settings(ollama_url=emu.url, chat_model="gemma3:4b"))
    await collect(vision, history, tools=None)
    await native.aclose()
    await vision.aclose()
    assert [c.protocol for c in chunks if isinstance(c, ProtocolChunk)] == ["native"]
    to_text_model, to_vision_model = emu.chat_requests()
    assert "tools" in to_text_model and "format" not in to_text_model
    assert "images" not in to_text_model["messages"][-1], "qwen3:8b cannot see: only the text goes"
    assert to_vision_model["messages"][-1]["images"] == ["iVBORw0KGgo="]
