"""Wiring for agent-loop tests: the Ollama emulator (the only fake: the LLM), the real
OllamaProvider over HTTP, and the toy MCP server, in one object."""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Any, AsyncIterator, Callable

from stacgis_agent.agent.config import Settings
from stacgis_agent.agent.events import AskUser, Done
from stacgis_agent.agent.llm.ollama import OllamaProvider
from stacgis_agent.agent.llm.types import ChatOptions
from stacgis_agent.agent.loop import AgentLoop
from testkit.llm.ollama_emulator import OllamaEmulator
from testkit.llm.toy_tools import ToyWorld, build_toy_server


def settings(**overrides: Any) -> Settings:
    base = Settings(ollama_url="http://unused", chat_model="qwen3:8b", num_ctx=16384, max_steps=15,
                    ask_user_timeout_s=5.0)
    return dataclasses.replace(base, **overrides)


class Harness:
    def __init__(self, emu: OllamaEmulator, **setting_overrides: Any):
        self.emu = emu
        self.settings = settings(**setting_overrides)
        s = self.settings
        self.provider = OllamaProvider(emu.url, s.chat_model, options=ChatOptions(
            num_ctx=s.num_ctx, temperature=s.temperature, keep_alive=s.keep_alive), timeout_s=10)
        self.server, self.world = build_toy_server(ToyWorld())
        self.loop: AgentLoop | None = None

    def make_loop(self, **kwargs: Any) -> AgentLoop:
        self.loop = AgentLoop(self.provider, self.server, self.settings, **kwargs)
        return self.loop

    async def run(self, message: str, context: Any = None,
                  on_event: Callable[[Any, AgentLoop], Any] | None = None,
                  answers: dict[str, str] | None = None) -> list[Any]:
        """Runs one message and returns every event; AskUser events are answered from
        `answers` (matched on a word of the question or the request id prefix)."""
        loop = self.loop or self.make_loop()
        events = []
        async for event in loop.run(message, context):
            events.append(event)
            if isinstance(event, AskUser) and answers:
                for key, choice in answers.items():
                    if key in event.request_id or key in event.question:
                        loop.answer(event.request_id, choice)
                        break
            if on_event is not None:
                on_event(event, loop)
        assert isinstance(events[-1], Done)
        return events

    async def aclose(self) -> None:
        if self.loop is not None:
            await self.loop.aclose()
        await self.provider.aclose()


@contextlib.asynccontextmanager
async def harness_factory() -> AsyncIterator[Callable[..., Harness]]:
    """factory(**settings_overrides) -> Harness on a fresh emulator; all closed afterwards.
    Test files wrap it in a `make_harness` fixture."""
    made: list[Harness] = []
    with OllamaEmulator() as emu:
        def factory(**overrides: Any) -> Harness:
            harness = Harness(emu, **overrides)
            made.append(harness)
            return harness

        try:
            yield factory
        finally:
            for harness in made:
                await harness.aclose()


def kinds(events: list[Any]) -> list[str]:
    """Event sequence with streamed fragments folded: ["thinking", "tool_start", ...]."""
    from stacgis_agent.agent.events import event_to_dict

    out: list[str] = []
    for event in events:
        kind = event_to_dict(event)["type"]
        if kind == "content" and event.is_complete:
            kind = "answer"
        if out and out[-1] == kind and kind in ("thinking", "content"):
            continue
        out.append(kind)
    return out


def chat_tools(body: dict) -> list[str]:
    """Names of the tools offered in one recorded chat request."""
    return [t["function"]["name"] for t in body.get("tools") or ()]


def pairs_are_whole(messages: list[dict]) -> bool:
    calls = [c.get("id") for m in messages for c in m.get("tool_calls") or ()]
    results = [m.get("tool_call_id") for m in messages if m.get("role") == "tool"]
    return sorted(calls) == sorted(results)
