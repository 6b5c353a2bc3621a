"""Concurrency gate throughput: acquire + release pairs per second on Redis (one client and
20 concurrent clients) next to the in-process gate, from one run.

    .venv/bin/python bench/bench_stores_gate.py [--pairs 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import conftest  # noqa: E402,F401  (makes the checkout importable as stacgis_agent)
from stacgis_agent.agent.stores.local_gate import LocalConcurrencyGate  # noqa: E402
from stacgis_agent.agent.stores.redis_gate import RedisConcurrencyGate  # noqa: E402
from testkit.servers.redis_server import RedisServer  # noqa: E402


async def sequential(gate, pairs: int) -> float:
    start = time.perf_counter()
    for i in range(pairs):
        assert await gate.acquire(f"s{i}", timeout=0)
        await gate.release(f"s{i}")
    return pairs / (time.perf_counter() - start)


async def contended(make_gate, pairs: int, clients: int, slots: int) -> tuple[float, int]:
    gates = [make_gate() for _ in range(clients)]
    running, peak = 0, 0

    async def client(c: int) -> None:
        nonlocal running, peak
        for i in range(pairs // clients):
            sid = f"c{c}-{i}"
            assert await gates[c].acquire(sid, timeout=60)
            running += 1
            peak = max(peak, running)
            await asyncio.sleep(0)  # hold the slot across one loop turn, as a real turn would
            running -= 1
            await gates[c].release(sid)

    start = time.perf_counter()
    await asyncio.gather(*(client(c) for c in range(clients)))
    rate = (pairs // clients) * clients / (time.perf_counter() - start)
    for g in set(gates):
        await g.aclose()
    return rate, peak


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=2000)
    args = parser.parse_args()
    server = RedisServer().start()
    try:
        local = LocalConcurrencyGate(4)
        redis_gate = RedisConcurrencyGate(server.url, 4, 300, key="bench:seq")
        print(f"acquire+release pairs per second ({args.pairs} pairs, 4 slots)")
        print(f"{'gate':<34} {'pairs/s':>10} {'peak holders':>13}")
        print(f"{'local, 1 client':<34} {await sequential(local, args.pairs):10.0f} {'':>13}")
        print(f"{'redis, 1 client':<34} {await sequential(redis_gate, args.pairs):10.0f} {'':>13}")
        shared_local = LocalConcurrencyGate(4)
        rate, peak = await contended(lambda: shared_local, args.pairs, 20, 4)
        print(f"{'local, 20 tasks racing':<34} {rate:10.0f} {peak:>13}")
        rate, peak = await contended(lambda: RedisConcurrencyGate(server.url, 4, 300, key="bench:many",
                                                                  poll_s=0.01), args.pairs, 20, 4)
        print(f"{'redis, 20 clients racing':<34} {rate:10.0f} {peak:>13}")
        await redis_gate.aclose()
    finally:
        server.stop()


if __name__ == "__main__":
    asyncio.run(main())
