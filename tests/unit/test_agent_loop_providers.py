"""What the user sees when the model server changes or fails during a request."""

from __future__ import annotations

import socket

import pytest_asyncio

from stacgis_agent.agent.events import Done, Error, ProviderSwitched
from stacgis_agent.agent.llm.fallback import FallbackProvider
from stacgis_agent.agent.llm.ollama import OllamaProvider
from stacgis_agent.agent.loop import AgentLoop
from testkit.llm.agent_harness import harness_factory, kinds
from testkit.llm.ollama_emulator import Turn


@pytest_asyncio.fixture
async def make_harness():
    async with harness_factory() as factory:
        yield factory


def _closed_port_url() -> str:
    with socket.socket() as s:  # bound then closed: nothing listens there
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


async def test_fallback_to_the_backup_server_is_an_event_and_the_answer_still_comes(make_harness):
    h = make_harness()
    primary = OllamaProvider(_closed_port_url(), "qwen3:8b", timeout_s=5, connect_timeout_s=1)
    provider = FallbackProvider(primary, h.provider)
    h.loop = AgentLoop(provider, h.server, h.settings, embed=h.provider.embed)
    h.emu.script(Turn(content="Answer from the backup."))
    events = await h.run("hello")
    switch = next(e for e in events if isinstance(e, ProviderSwitched))
    assert switch.from_provider == primary.name and switch.to_provider == h.provider.name
    assert switch.reason  # says why, in words
    assert kinds(events) == ["provider_switched", "content", "answer", "done"]
    assert events[-1].content == "Answer from the backup."
    await primary.aclose()


async def test_a_missing_model_ends_the_turn_with_an_actionable_error(make_harness):
    h = make_harness()
    h.emu.remove_model("qwen3:8b")
    events = await h.run("hello")
    error = next(e for e in events if isinstance(e, Error))
    assert "ollama pull qwen3:8b" in error.message and error.recoverable
    assert isinstance(events[-1], Done) and events[-1].content == ""
    assert h.loop.memory.messages[-1]["role"] == "user"  # the question is kept for a retry
    h.emu.add_model("qwen3:8b")
    h.emu.script(Turn(content="Back."))
    assert (await h.run("again"))[-1].content == "Back."


async def test_a_stream_error_after_a_tool_call_keeps_the_history_valid(make_harness):
    h = make_harness()
    h.emu.script(Turn(tool_calls=[("list_collections", {})]),
                 Turn(content="partial answer that breaks", error_line_after=1))
    events = await h.run("collections?")
    assert kinds(events)[:2] == ["tool_start", "tool_result"]
    assert isinstance(events[-2], Error) and isinstance(events[-1], Done)
    assert h.loop.memory.pending_calls() == []
    assert h.loop.memory.messages[-1]["content"] == "partial [interrupted by an error]"
