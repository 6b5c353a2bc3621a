"""Agent overhead per step, excluding LLM and tool time: selection, context estimate and
fitting, policy, validation, events, memory. The LLM is an in-process scripted provider
(the only allowed fake) timed separately; tool calls are timed at the ToolHost boundary.
Run: .venv/bin/python bench/bench_agent_overhead.py
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
import conftest  # noqa: E402,F401
from stacgis_agent.agent.config import Settings  # noqa: E402
from stacgis_agent.agent.llm.types import (  # noqa: E402
    ChatResponse,
    ContentChunk,
    FinalChunk,
    LLMUsage,
    ThinkingChunk,
    ToolCall,
)
from stacgis_agent.agent.loop import AgentLoop  # noqa: E402
from stacgis_agent.agent.tool_host import ToolHost  # noqa: E402
from testkit.llm.ollama_replies import embed_text  # noqa: E402
from testkit.llm.toy_tools import build_toy_server  # noqa: E402

RUNS = 60
LYON = [4.77, 45.70, 4.90, 45.80]
SCRIPT = [
    ChatResponse("", "Search first", (ToolCall("c1", "search_items", {"collection": "sentinel-2-l2a", "bbox": LYON}),)),
    ChatResponse("", "Load it", (ToolCall("c2", "load_item", {"item_id": "sentinel-2-l2a-item-1"}),)),
    ChatResponse("", "", (ToolCall("c3", "raster_stats", {"layer": "sentinel-2-l2a-item-1:visual"}),)),
    ChatResponse("The mean is 0.42.", "Report", usage=LLMUsage(prompt_eval_count=900, eval_count=12)),
]


class ScriptedProvider:
    """Answers instantly from SCRIPT, in chunks like a server would; counts its own time."""

    name = "scripted"
    model = "scripted"

    def __init__(self) -> None:
        self.i = 0
        self.seconds = 0.0

    async def chat_stream(self, messages, tools=None, options=None):
        t0 = time.perf_counter()
        response = SCRIPT[self.i % len(SCRIPT)]
        self.i += 1
        chunks = [ThinkingChunk(response.thinking[j:j + 8]) for j in range(0, len(response.thinking), 8)]
        chunks += [ContentChunk(response.content[j:j + 8]) for j in range(0, len(response.content), 8)]
        chunks.append(FinalChunk(response))
        self.seconds += time.perf_counter() - t0
        for chunk in chunks:
            yield chunk

    async def chat(self, messages, tools=None, options=None):
        raise NotImplementedError

    async def embed(self, texts):
        t0 = time.perf_counter()
        out = [embed_text(t) for t in texts]
        self.seconds += time.perf_counter() - t0
        return out

    async def aclose(self):
        pass


async def main() -> None:
    tool_seconds = 0.0
    original_call = ToolHost.call

    async def timed_call(self, name, arguments):
        nonlocal tool_seconds
        t0 = time.perf_counter()
        try:
            return await original_call(self, name, arguments)
        finally:
            tool_seconds += time.perf_counter() - t0

    ToolHost.call = timed_call
    provider = ScriptedProvider()
    server, world = build_toy_server()
    loop = AgentLoop(provider, server, Settings())
    async for _ in loop.run("warm up"):
        pass
    per_step = []
    total_steps = 0
    for _ in range(RUNS):
        world.layers.clear()
        provider.seconds = tool_seconds = 0.0
        t0 = time.perf_counter()
        steps = 0
        async for event in loop.run("Mean value of Sentinel-2 over Lyon?"):
            if type(event).__name__ == "Done":
                steps = event.usage.steps
        wall = time.perf_counter() - t0
        per_step.append((wall - provider.seconds - tool_seconds) / steps * 1000)
        total_steps += steps
        loop.memory.clear()  # keep every run the same size
    await loop.aclose()
    ToolHost.call = original_call
    per_step.sort()
    print(f"{RUNS} runs x 4 steps (3 tool calls + answer), toy MCP server, {len(loop.tools.tools)} tools")
    print(f"{'agent overhead per step':<26} {'median ms':>10} {'p90 ms':>8} {'goal ms':>8}")
    print(f"{'(excl. LLM and tool time)':<26} {statistics.median(per_step):>10.3f} "
          f"{per_step[int(len(per_step) * 0.9)]:>8.3f} {2.0:>8.1f}")


if __name__ == "__main__":
    asyncio.run(main())
