"""Session save/load latency for a 50-message conversation, on each backend, side by side.

    .venv/bin/python bench/bench_stores_sessions.py

The conversation is saved after every message (as the agent loop does), with a growing event
log; then it is loaded back 50 times. Redis runs with its durable SQLite copy (write-through).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import conftest  # noqa: E402,F401  (makes the checkout importable as stacgis_agent)
from stacgis_agent.agent.stores.redis_sessions import RedisSessionStore  # noqa: E402
from stacgis_agent.agent.stores.resilient import ResilientSessionStore, ServerHealth  # noqa: E402
from stacgis_agent.agent.stores.sqlite import SqliteSessionStore  # noqa: E402
from testkit.servers.redis_server import RedisServer  # noqa: E402

MESSAGES = 50


def conversation(n: int) -> tuple[dict, list[dict]]:
    messages, events = [], []
    for i in range(n):
        if i % 2 == 0:
            messages.append({"role": "user", "content": f"Show Sentinel-2 over Lyon, June {i}, and mean NDVI"})
            events.append({"type": "user_message", "text": messages[-1]["content"]})
        else:
            messages.append({"role": "assistant", "content": "Mean NDVI is 0.62 over 4 scenes. " * 8,
                             "tool_calls": [{"function": {"name": "search_stac", "arguments": {"bbox": [4.7, 45.6,
                                                                                                      5.0, 45.9]}}}]})
            events += [{"type": "tool_start", "tool_name": "search_stac", "tool_args": {"q": "x" * 200}},
                       {"type": "tool_result", "tool_name": "search_stac", "result": {"items": ["y" * 80] * 10}},
                       {"type": "content", "text": messages[-1]["content"], "is_complete": True}]
    return {"version": 1, "messages": messages}, events


async def measure(store) -> tuple[list[float], list[float]]:
    saves, loads = [], []
    await store.get_or_create("bench", user="analyst")
    for n in range(1, MESSAGES + 1):
        memory, events = conversation(n)
        start = time.perf_counter()
        await store.save("bench", memory, events, user="analyst")
        saves.append((time.perf_counter() - start) * 1000)
    for _ in range(MESSAGES):
        start = time.perf_counter()
        record = await store.history("bench")
        loads.append((time.perf_counter() - start) * 1000)
    assert record is not None and len(record.memory["messages"]) == MESSAGES
    return saves, loads


def line(name: str, saves: list[float], loads: list[float]) -> str:
    return (f"{name:<26} {np.median(saves):9.2f} {np.percentile(saves, 95):9.2f} {saves[-1]:10.2f}"
            f" {np.median(loads):9.2f} {np.percentile(loads, 95):9.2f}")


async def main() -> None:
    server = RedisServer().start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            sqlite = SqliteSessionStore(folder / "a.sqlite")
            redis_store = RedisSessionStore(server.url, durable=SqliteSessionStore(folder / "b.sqlite"))
            durable = SqliteSessionStore(folder / "c.sqlite")
            resilient = ResilientSessionStore(RedisSessionStore(server.url, durable=durable, prefix="r:"),
                                              durable, ServerHealth("Redis", "conversations"))
            print(f"a {MESSAGES}-message conversation saved after every message, then loaded {MESSAGES} times (ms)")
            print(f"{'backend':<26} {'save p50':>9} {'save p95':>9} {'last save':>10} {'load p50':>9} {'load p95':>9}")
            for name, store in (("sqlite", sqlite), ("redis + sqlite durable", redis_store),
                                ("resilient(redis)", resilient)):
                saves, loads = await measure(store)
                print(line(name, saves, loads), flush=True)
                await store.aclose()
            size = len(conversation(MESSAGES)[0]["messages"])
            print(f"({size} messages; the record at the end is "
                  f"{len(str(conversation(MESSAGES))) / 1024:.0f} KiB of JSON)")
    finally:
        server.stop()


if __name__ == "__main__":
    asyncio.run(main())
