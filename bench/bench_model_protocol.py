"""A real model (Gemma 3 270M on llama-cpp-python's server, as in tests/model):

1. tokens/s seen through OpenAICompatProvider vs the server's own timing of the same request
   (llama.cpp's perf print): the provider must add nothing measurable;
2. prompt tokens per step spent on tools, constrained protocol vs native tools, for the same tool
   sets (the plugin's real tools), counted with the model's own tokenizer.

Native tools are rendered the way Ollama's templates (qwen3, llama3.1) put them in the prompt: an
instruction block and one JSON line per tool. The constrained schema costs no prompt tokens (it
becomes a grammar), only the system-prompt text does.
Run: .venv/bin/python bench/bench_model_protocol.py   (needs `make setup-test` for the model)
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import httpx  # noqa: E402
from mcp import Client  # noqa: E402

import conftest  # noqa: E402,F401 - makes the checkout importable as stacgis_agent
from stacgis_agent.agent.config import Settings  # noqa: E402
from stacgis_agent.agent.llm.constrained import system_text  # noqa: E402
from stacgis_agent.agent.llm.openai_compat import OpenAICompatProvider  # noqa: E402
from stacgis_agent.agent.llm.schema import format_tools  # noqa: E402
from stacgis_agent.agent.llm.types import ChatOptions, ContentChunk, FinalChunk  # noqa: E402
from stacgis_agent.tools.deps import ToolDeps  # noqa: E402
from stacgis_agent.tools.server import build_server  # noqa: E402
from testkit.llm.llama_server import MODEL_NAME, LlamaServer  # noqa: E402

RUNS = 5
NUM_PREDICT = 96
NATIVE_HEADER = (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n")
NATIVE_FOOTER = (
    "\n</tools>\n\nFor each function call, return a json object with function name and arguments within "
    "<tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}"
    "\n</tool_call>")


async def through_provider(provider: OpenAICompatProvider, messages: list) -> tuple[int, float, float]:
    first = last = 0.0
    tokens = 0
    usage = None
    async for chunk in provider.chat_stream(messages):
        if isinstance(chunk, ContentChunk):
            last = time.perf_counter()
            first = first or last
            tokens += 1
        elif isinstance(chunk, FinalChunk):
            usage = chunk.response.usage
    reported = usage.eval_count / (usage.eval_duration_ns / 1e9) if usage and usage.eval_duration_ns else 0.0
    return tokens, _rate(tokens, first, last), reported


async def through_bare_httpx(url: str, messages: list) -> tuple[int, float]:
    """The same request read with httpx + json.loads only: what HTTP and the server's streaming cost."""
    body = {"model": MODEL_NAME, "messages": messages, "stream": True, "temperature": 0.0, "max_tokens": NUM_PREDICT}
    first = last = 0.0
    tokens = 0
    async with httpx.AsyncClient(base_url=url, trust_env=False, timeout=300) as client:
        async with client.stream("POST", "/v1/chat/completions", json=body) as response:
            async for line in response.aiter_lines():
                if line.startswith("data: {"):
                    delta = json.loads(line[6:])["choices"][0].get("delta") or {}
                    if delta.get("content"):
                        last = time.perf_counter()
                        first = first or last
                        tokens += 1
    return tokens, _rate(tokens, first, last)


def _rate(tokens: int, first: float, last: float) -> float:
    # n tokens arrive over n-1 gaps as seen from the client
    return (tokens - 1) / (last - first) if tokens > 1 and last > first else 0.0


async def speed(server: LlamaServer) -> None:
    provider = OpenAICompatProvider(server.url, MODEL_NAME, timeout_s=300, options=ChatOptions(
        num_ctx=server.n_ctx, temperature=0.0, num_predict=NUM_PREDICT))
    messages = [{"role": "user", "content": "Write a long story about a cartographer in Lyon."}]
    ratios_server, ratios_bare, cpu_provider, cpu_bare, token_ms = [], [], [], [], []
    for _ in range(RUNS):  # interleaved, so load changes on a shared machine hit both alike
        offset, cpu = server.log_size(), time.process_time()
        tokens, seen, reported = await through_provider(provider, messages)
        cpu_provider.append((time.process_time() - cpu) / max(1, tokens))
        own = server.timings_since(offset)[-1]
        offset, cpu = server.log_size(), time.process_time()
        bare_tokens, bare = await through_bare_httpx(server.url, messages)
        cpu_bare.append((time.process_time() - cpu) / max(1, bare_tokens))
        own_bare = server.timings_since(offset)[-1]
        token_ms.append(own.eval_ms / max(1, own.eval_tokens))
        ratios_server.append(seen / own.tokens_per_s)
        ratios_bare.append((seen / own.tokens_per_s) / (bare / own_bare.tokens_per_s))
        print(f"  run: provider {tokens} tokens {seen:.1f} tok/s (its Usage says {reported:.1f}) vs server "
              f"{own.tokens_per_s:.1f} | bare httpx {bare_tokens} tokens {bare:.1f} tok/s vs server "
              f"{own_bare.tokens_per_s:.1f}")
    await provider.aclose()
    print(f"tokens/s seen / server's own timing (median of {RUNS}): provider "
          f"{statistics.median(ratios_server):.3f}; provider relative to bare httpx on the same server "
          f"{statistics.median(ratios_bare):.3f} (1.000 = the provider adds nothing)")
    cp, cb, tm = (statistics.median(v) for v in (cpu_provider, cpu_bare, token_ms))
    print(f"client CPU per token (median): provider {cp * 1e6:.0f} us | bare httpx {cb * 1e6:.0f} us | "
          f"the server takes {tm:.1f} ms per token: provider share {cp * 1e3 / tm:.2%} of a token's time")


async def real_tool_specs() -> list[dict]:
    async with httpx.AsyncClient() as http:
        deps = ToolDeps.from_settings(Settings(catalogs=[]), http=http)
        try:
            import qgis.core  # noqa: F401  (the canvas tools, the most used, need qgis)
            canvas = True
        except ImportError:
            canvas = False
        async with Client(build_server(deps, canvas=canvas)) as client:
            tools = (await client.list_tools()).tools
    return format_tools(tools)


def count(server: LlamaServer, text: str) -> int:
    response = httpx.post(server.url + "/extras/tokenize/count", json={"input": text}, timeout=60, trust_env=False)
    response.raise_for_status()
    return response.json()["count"]


async def prompt_tokens(server: LlamaServer) -> None:
    specs = await real_tool_specs()
    by_name = {s["function"]["name"]: s for s in specs}
    first = [n for n in ("zoom_to_location", "search_items", "load_stac_item", "raster_stats") if n in by_name]
    ordered = [by_name[n] for n in first] + [s for s in specs if s["function"]["name"] not in first]
    print(f"prompt tokens per step for the tools ({len(specs)} real tools available; Gemma 3 tokenizer):")
    print(f"  {'tools':>5} | {'native':>7} | {'constrained':>11} | ratio")
    for k in (1, 5, 10, 20):
        chosen = ordered[:k]
        native = count(server, NATIVE_HEADER + "\n".join(json.dumps(s) for s in chosen) + NATIVE_FOOTER)
        constrained = count(server, system_text(chosen))
        print(f"  {len(chosen):>5} | {native:>7} | {constrained:>11} | {constrained / native:.2f}")


async def main() -> None:
    server = LlamaServer(n_ctx=4096).start()
    try:
        await speed(server)
        await prompt_tokens(server)
    finally:
        server.stop()


if __name__ == "__main__":
    asyncio.run(main())
