"""Contract of ConcurrencyGate, run against the in-process gate and the Redis sorted-set gate."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis

from stacgis_agent.agent.stores.base import Capacity
from stacgis_agent.agent.stores.redis_gate import RedisConcurrencyGate
from stacgis_agent.agent.stores.slot import NoSlotFree, holding_slot
from testkit.servers.redis_server import shared_redis
from testkit.servers.store_backends import GATE_BACKENDS, gate, unique

pytestmark = pytest.mark.server


@pytest.fixture(params=GATE_BACKENDS)
def kind(request):
    return request.param


async def test_fifty_sessions_racing_for_four_slots_never_exceed_four(kind):
    key = unique("chat:active_slots")
    # Redis: five gate objects stand for five QGIS on five laptops sharing one server.
    gates = [gate(kind, 4, key=key) for _ in range(5 if kind == "redis" else 1)]
    running, peak, done = 0, 0, []

    async def chat(i: int) -> None:
        nonlocal running, peak
        g = gates[i % len(gates)]
        assert await g.acquire(f"s{i}", timeout=30)
        running += 1
        peak = max(peak, running)
        assert (await g.capacity()).active <= 4
        await asyncio.sleep(0.01)
        running -= 1
        await g.release(f"s{i}")
        done.append(i)

    await asyncio.gather(*(chat(i) for i in range(50)))
    assert sorted(done) == list(range(50))
    assert peak == 4  # the slots were really used, and never more
    assert await gates[0].capacity() == Capacity(active=0, max=4, available=4)
    for g in gates:
        await g.aclose()


async def test_acquire_is_idempotent_and_capacity_counts_slots(kind):
    g = gate(kind, 2)
    assert await g.acquire("a", timeout=0) and await g.acquire("a", timeout=0)
    assert await g.capacity("a") == Capacity(active=1, max=2, available=1, queue_position=None)
    assert await g.acquire("b", timeout=0)
    assert await g.acquire("c", timeout=0) is False  # full: trying once does not wait
    await g.release("a")
    assert await g.capacity() == Capacity(active=1, max=2, available=1)
    await g.release("a")  # releasing twice is harmless
    assert (await g.capacity()).active == 1
    await g.aclose()


async def test_waiters_see_their_queue_position_and_are_served_in_order(kind):
    g = gate(kind, 1)
    assert await g.acquire("holder", timeout=0)
    order = []

    async def wait(name: str) -> None:
        assert await g.acquire(name, timeout=10)
        order.append(name)

    first = asyncio.create_task(wait("first"))
    await asyncio.sleep(0.1)
    second = asyncio.create_task(wait("second"))
    await asyncio.sleep(0.1)
    assert (await g.capacity("first")).queue_position == 1
    assert (await g.capacity("second")).queue_position == 2
    assert (await g.capacity("holder")).queue_position is None
    await g.release("holder")
    await asyncio.wait_for(first, 5)
    await g.release("first")
    await asyncio.wait_for(second, 5)
    assert order == ["first", "second"]
    await g.aclose()


async def test_a_timed_out_waiter_leaves_the_queue(kind):
    g = gate(kind, 1)
    assert await g.acquire("holder", timeout=0)
    assert await g.acquire("impatient", timeout=0.2) is False
    assert (await g.capacity("impatient")).queue_position is None
    await g.release("holder")
    assert await g.acquire("next", timeout=0)  # nobody invisible is ahead of it
    await g.aclose()


async def test_stale_slot_of_a_crashed_qgis_is_pruned_after_its_ttl():
    key = unique("chat:active_slots")
    crashed = RedisConcurrencyGate(shared_redis().url, 1, slot_ttl_s=0.5, key=key, poll_s=0.02)
    alive = RedisConcurrencyGate(shared_redis().url, 1, slot_ttl_s=0.5, key=key, poll_s=0.02)
    raw = aioredis.Redis.from_url(shared_redis().url)
    try:
        assert await crashed.acquire("crashed-session", timeout=0)
        assert await raw.zscore(key, "crashed-session") is not None  # member = session id
        await crashed.aclose()  # QGIS died without releasing
        assert await alive.acquire("other", timeout=0) is False
        loop = asyncio.get_running_loop()
        start = loop.time()
        assert await alive.acquire("other", timeout=5)
        assert 0.2 < loop.time() - start < 3
        assert await raw.zscore(key, "crashed-session") is None
        assert (await alive.capacity()).active == 1
    finally:
        await raw.aclose()
        await alive.aclose()


async def test_refresh_keeps_a_long_turn_from_being_pruned():
    key = unique("chat:active_slots")
    holder = RedisConcurrencyGate(shared_redis().url, 1, slot_ttl_s=0.4, key=key, poll_s=0.02)
    other = RedisConcurrencyGate(shared_redis().url, 1, slot_ttl_s=0.4, key=key, poll_s=0.02)
    try:
        assert await holder.acquire("long-turn", timeout=0)
        for _ in range(5):
            await asyncio.sleep(0.2)
            await holder.refresh("long-turn")
            assert await other.acquire("other", timeout=0) is False
    finally:
        await holder.aclose()
        await other.aclose()


async def test_holding_a_slot_refreshes_it_and_releases_it_even_when_cancelled(kind):
    key = unique("chat:active_slots")
    g = gate(kind, 1, slot_ttl_s=0.4, key=key)
    other = gate(kind, 1, slot_ttl_s=0.4, key=key) if kind == "redis" else g
    entered = asyncio.Event()

    async def long_turn() -> None:
        async with holding_slot(g, "turn", refresh_every_s=0.1):
            entered.set()
            await asyncio.sleep(30)

    task = asyncio.create_task(long_turn())
    await entered.wait()
    await asyncio.sleep(1.0)  # well past the slot TTL: only the refreshes keep it
    assert await other.acquire("other", timeout=0) is False
    with pytest.raises(NoSlotFree, match="try again"):
        async with holding_slot(other, "other", timeout=0.1):
            pass
    task.cancel()  # the user pressed Stop
    with pytest.raises(asyncio.CancelledError):
        await task
    assert (await other.capacity()).active == 0
    assert await other.acquire("other", timeout=0)
    for each in {id(g): g, id(other): other}.values():
        await each.aclose()
