"""Primary/backup fallback and the provider built from settings, against two emulators."""

from __future__ import annotations

import socket

import pytest

from stacgis_agent.agent.config import Settings
from stacgis_agent.agent.llm.errors import ModelNotFound, StreamError
from stacgis_agent.agent.llm.factory import provider_from_settings
from stacgis_agent.agent.llm.fallback import FallbackProvider
from stacgis_agent.agent.llm.ollama import OllamaProvider
from stacgis_agent.agent.llm.openai_compat import OpenAICompatProvider
from stacgis_agent.agent.llm.tool_protocol import ToolProtocolProvider
from stacgis_agent.agent.llm.types import ContentChunk, FinalChunk, ProviderSwitchChunk
from testkit.llm.ollama_emulator import OllamaEmulator, Turn

USER = [{"role": "user", "content": "hello"}]


@pytest.fixture
def primary_emu():
    with OllamaEmulator() as emulator:
        yield emulator


@pytest.fixture
def backup_emu():
    with OllamaEmulator() as emulator:
        yield emulator


def dead_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


async def collect(provider, tools=None):
    try:
        return [c async for c in provider.chat_stream(USER, tools)]
    finally:
        await provider.aclose()


@pytest.mark.parametrize("failure", ["missing model", "unreachable", "server error"])
async def test_backup_answers_when_the_primary_fails_before_output_and_the_switch_is_said(
        primary_emu, backup_emu, failure):
    url, model = primary_emu.url, "qwen3:8b"
    if failure == "missing model":
        primary_emu.remove_model("qwen3:8b")
    elif failure == "unreachable":
        url = dead_url()
    else:
        primary_emu.script(Turn(http_status=500, http_error="runner crashed"))
    backup_emu.script(Turn(content="Hello from the backup"))
    provider = FallbackProvider(OllamaProvider(url, model), OllamaProvider(backup_emu.url, "qwen3:8b"))
    chunks = await collect(provider)
    switch = chunks[0]
    assert isinstance(switch, ProviderSwitchChunk)
    assert switch.from_provider == f"ollama qwen3:8b @ {url}"
    assert switch.to_provider == f"ollama qwen3:8b @ {backup_emu.url}"
    expected = {"missing model": "ollama pull qwen3:8b", "unreachable": "ollama serve",
                "server error": "runner crashed"}[failure]
    assert expected in switch.reason
    assert "".join(c.text for c in chunks if isinstance(c, ContentChunk)) == "Hello from the backup"
    assert isinstance(chunks[-1], FinalChunk) and len(backup_emu.chat_requests()) == 1


async def test_no_switch_once_the_primary_has_spoken(primary_emu, backup_emu):
    primary_emu.script(Turn(content="a" * 32, error_line_after=2))
    provider = FallbackProvider(OllamaProvider(primary_emu.url, "qwen3:8b"),
                                OllamaProvider(backup_emu.url, "qwen3:8b"))
    with pytest.raises(StreamError):
        await collect(provider)
    assert backup_emu.requests == []


async def test_healthy_primary_is_used_alone_and_missing_backup_means_the_error_surfaces(primary_emu, backup_emu):
    primary_emu.script(Turn(content="primary"))
    provider = FallbackProvider(OllamaProvider(primary_emu.url, "qwen3:8b"),
                                OllamaProvider(backup_emu.url, "qwen3:8b"))
    chunks = await collect(provider)
    assert not any(isinstance(c, ProviderSwitchChunk) for c in chunks) and backup_emu.requests == []
    alone = FallbackProvider(OllamaProvider(primary_emu.url, "llama9:1b"), None)
    with pytest.raises(ModelNotFound):
        await collect(alone)


async def test_backup_model_on_the_same_server_takes_over_when_tools_are_unsupported(primary_emu):
    primary_emu.script(Turn(tool_calls=[("zoom_to", {"layer_id": "roads"})]))
    tool = {"type": "function", "function": {"name": "zoom_to", "parameters": {"type": "object", "properties": {}}}}
    provider = FallbackProvider(OllamaProvider(primary_emu.url, "gemma3:4b"),
                                OllamaProvider(primary_emu.url, "qwen3:8b"))
    chunks = await collect(provider, tools=[tool])
    assert "cannot call tools" in chunks[0].reason
    assert chunks[-1].response.tool_calls[0].name == "zoom_to"
    assert [b["model"] for b in primary_emu.chat_requests()] == ["gemma3:4b", "qwen3:8b"]


async def test_chat_and_embed_fall_back_too_and_remember_the_switch(backup_emu):
    backup_emu.script(Turn(content="whole answer"))
    provider = FallbackProvider(OllamaProvider(dead_url(), "qwen3:8b"), OllamaProvider(backup_emu.url, "qwen3:8b"))
    assert (await provider.chat(USER)).content == "whole answer"
    assert provider.last_switch is not None and "ollama serve" in provider.last_switch.reason
    assert len((await provider.embed(["a b"]))[0]) == 256
    await provider.aclose()


def test_settings_without_backup_give_a_plain_ollama_provider():
    settings = Settings(ollama_url="http://gpu-box:11434", chat_model="qwen3:14b", num_ctx=32768,
                        temperature=0.0, keep_alive="1h", request_timeout_s=90.0, embedding_model="bge-m3")
    wrapped = provider_from_settings(settings)
    assert isinstance(wrapped, ToolProtocolProvider)  # chooses native or constrained tool calls
    provider = wrapped.inner
    assert isinstance(provider, OllamaProvider)
    assert (provider.base_url, provider.model, provider.embed_model, provider.timeout_s) == (
        "http://gpu-box:11434", "qwen3:14b", "bge-m3", 90.0)
    assert (provider.options.num_ctx, provider.options.temperature, provider.options.keep_alive) == (
        32768, 0.0, "1h")
    same = Settings(ollama_url="http://gpu-box:11434", chat_model="m", backup_model="m")
    assert isinstance(provider_from_settings(same).inner, OllamaProvider)


async def test_settings_with_an_openai_backup_fall_back_over_v1(backup_emu):
    backup_emu.script(Turn(content="via v1"))
    settings = Settings(ollama_url=dead_url(), backup_provider_url=backup_emu.url + "/v1",
                        backup_model="qwen3:8b", backup_kind="openai")
    provider = provider_from_settings(settings, backup_api_key="secret")
    assert isinstance(provider, FallbackProvider) and isinstance(provider.backup.inner, OpenAICompatProvider)
    chunks = await collect(provider)
    assert isinstance(chunks[0], ProviderSwitchChunk) and chunks[0].to_provider.startswith("openai qwen3:8b")
    assert chunks[-1].response.content == "via v1"
    assert backup_emu.requests[0].path == "/v1/chat/completions"
    assert backup_emu.requests[0].headers["Authorization"] == "Bearer secret"
