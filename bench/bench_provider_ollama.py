"""End-to-end streaming through OllamaProvider vs reading the same stream with bare httpx +
json.loads, both against the Ollama emulator on loopback. Prints chunks/s and the ratio: what the
provider (parsing, thinking split, tool-call recovery, typed chunks) costs on top of HTTP itself.
Run: .venv/bin/python bench/bench_provider_ollama.py
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import httpx  # noqa: E402

import conftest  # noqa: E402,F401 - makes the checkout importable as stacgis_agent
from stacgis_agent.agent.llm.ollama import OllamaProvider  # noqa: E402
from testkit.llm.ollama_emulator import OllamaEmulator, Turn  # noqa: E402

CHUNKS = 5_000
USER = [{"role": "user", "content": "Describe the parcel"}]


def turn() -> Turn:
    return Turn(content="word " * CHUNKS, chunk_chars=5)


async def bare(url: str) -> int:
    count = 0
    async with httpx.AsyncClient(base_url=url, trust_env=False) as client:
        body = {"model": "qwen3:8b", "messages": USER, "stream": True}
        async with client.stream("POST", "/api/chat", json=body) as response:
            async for line in response.aiter_lines():
                if line:
                    json.loads(line)
                    count += 1
    return count


async def provider(url: str) -> int:
    p = OllamaProvider(url, "qwen3:8b")
    count = 0
    async for _chunk in p.chat_stream(USER):
        count += 1
    await p.aclose()
    return count


async def main() -> None:
    best = {"bare httpx + json.loads": float("inf"), "OllamaProvider.chat_stream": float("inf")}
    with OllamaEmulator(default_turn=turn()) as emu:
        for _ in range(5):  # interleaved so that load from other processes hits both alike
            for label, fn in (("bare httpx + json.loads", bare), ("OllamaProvider.chat_stream", provider)):
                start = time.perf_counter()
                n = await fn(emu.url)
                best[label] = min(best[label], time.perf_counter() - start)
                assert n >= CHUNKS
    print(f"{CHUNKS:,} content chunks over loopback HTTP from the emulator, best of 5")
    for label, seconds in best.items():
        print(f"{label:<28} {CHUNKS / seconds:>10,.0f} chunks/s")
    ratio = best["OllamaProvider.chat_stream"] / best["bare httpx + json.loads"]
    print(f"provider/bare time ratio {ratio:.2f} (the emulator's own cost is in both)")


if __name__ == "__main__":
    asyncio.run(main())
