"""A configured server that dies, stalls or comes back: the chat goes on, the user is told once,
and every message and memory ends up somewhere retrievable."""

from __future__ import annotations

import asyncio
import socket

import pytest
import redis.asyncio as aioredis

from stacgis_agent.agent.stores.local_gate import LocalConcurrencyGate
from stacgis_agent.agent.stores.pgvector_memory import PgVectorMemoryStore
from stacgis_agent.agent.stores.redis_gate import RedisConcurrencyGate
from stacgis_agent.agent.stores.redis_sessions import RedisSessionStore
from stacgis_agent.agent.stores.resilient import (
    ResilientConcurrencyGate,
    ResilientMemoryStore,
    ResilientSessionStore,
    ServerHealth,
)
from stacgis_agent.agent.stores.sqlite import SqliteMemoryStore, SqliteSessionStore
from testkit.servers.pg_server import own_pg, shared_pg
from testkit.servers.redis_server import own_redis
from testkit.servers.store_backends import unique

pytestmark = pytest.mark.server


def conversation(n: int) -> dict:
    return {"messages": [{"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i}"}
                         for i in range(n)]}


def health(name: str, notices: list[str]) -> ServerHealth:
    return ServerHealth(name, "conversations", notices.append, op_timeout_s=2.0, retry_after_s=0.2)


async def test_redis_killed_mid_conversation_loses_no_message(tmp_path):
    server = own_redis()
    notices: list[str] = []
    local = SqliteSessionStore(tmp_path / "sessions.sqlite")
    store = ResilientSessionStore(RedisSessionStore(server.url, durable=local, ttl_s=600, timeout_s=0.5),
                                  local, health("Redis", notices))
    raw = aioredis.Redis.from_url(server.url)
    try:
        await store.get_or_create("s1", user="ana")
        for n in range(1, 5):
            await store.save("s1", conversation(n), user="ana")
        server.kill()
        for n in range(5, 9):  # the conversation continues while Redis is gone
            await store.save("s1", conversation(n), user="ana")
        assert len(notices) == 1 and "Redis" in notices[0] and "nothing is lost" in notices[0]
        assert (await store.history("s1")).memory == conversation(8)
        assert [i.session_id for i in await store.list("ana")] == ["s1"]

        server.restart()  # empty: a crashed Redis without persistence forgot everything
        await asyncio.sleep(0.25)
        for n in range(9, 11):
            await store.save("s1", conversation(n), user="ana")
        assert len(notices) == 2 and "reachable again" in notices[1] and "1 session" in notices[1]
        assert (await store.history("s1")).memory == conversation(10)
        cached = await raw.get("session:s1")
        assert cached is not None and b"message 9" in cached  # Redis holds the whole conversation again
        assert (await local.history("s1")).memory == conversation(10)  # and so does the durable copy
    finally:
        await raw.aclose()
        await store.aclose()
        server.stop()


async def test_a_server_that_accepts_but_never_answers_does_not_freeze_the_chat(tmp_path):
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)  # connections complete in the backlog; nothing ever replies
    url = f"redis://127.0.0.1:{silent.getsockname()[1]}/0"
    notices: list[str] = []
    local = SqliteSessionStore(tmp_path / "sessions.sqlite")
    store = ResilientSessionStore(RedisSessionStore(url, durable=local, timeout_s=0.3), local,
                                  ServerHealth("Redis", "conversations", notices.append, op_timeout_s=1.0,
                                               retry_after_s=60))
    loop = asyncio.get_running_loop()
    try:
        start = loop.time()
        await store.save("s1", conversation(2), user="ana")
        await store.save("s1", conversation(4), user="ana")
        assert loop.time() - start < 2.0  # the second save did not wait for the server again
        assert len(notices) == 1
        assert (await local.history("s1")).memory == conversation(4)
    finally:
        await store.aclose()
        silent.close()


async def test_postgres_killed_mid_conversation_keeps_memories_and_sends_them_back(tmp_path):
    server = own_pg()
    notices: list[str] = []
    primary = PgVectorMemoryStore(server.dsn, "memories", timeout_s=2.0)
    outbox = SqliteMemoryStore(tmp_path / "outbox.sqlite")
    store = ResilientMemoryStore(primary, outbox, ServerHealth("PostgreSQL", "memories", notices.append,
                                                               op_timeout_s=3.0, retry_after_s=0.2))
    try:
        first = await store.add("ana", "parcel 42 is a vineyard", "fact", [1.0, 0.0, 0.0], model="m")
        server.kill()
        during = await store.add("ana", "prefers Sentinel-2", "preference", [0.0, 1.0, 0.0], model="m")
        hits = await store.search("ana", [0.0, 1.0, 0.0], k=5, model="m")
        assert [h.id for h in hits] == [during]  # this message still finds what it just saved
        assert len(notices) == 1 and "PostgreSQL" in notices[0]

        server.restart()
        await asyncio.sleep(0.25)
        hits = await store.search("ana", [1.0, 0.0, 0.0], k=5, model="m")
        assert [h.id for h in hits] == [first, during]  # same ids on the server
        assert await outbox.recent("ana", 10) == []
        assert "reachable again" in notices[-1] and len(notices) == 2
    finally:
        await store.aclose()
        server.stop()


async def test_memories_left_in_the_outbox_by_a_crash_reach_the_server_on_next_start(tmp_path):
    outbox = SqliteMemoryStore(tmp_path / "outbox.sqlite")
    left = await outbox.add("ana", "saved while offline, then QGIS crashed", "fact", [0.0, 0.0, 1.0], model="m")
    store = ResilientMemoryStore(PgVectorMemoryStore(shared_pg().dsn, unique("memories")), outbox,
                                 ServerHealth("PostgreSQL", "memories", None))
    try:
        assert [h.id for h in await store.recent("ana", 5)] == [left]
        assert await outbox.recent("ana", 5) == []
    finally:
        await store.aclose()


async def test_gate_falls_back_to_this_qgis_while_redis_is_away():
    server = own_redis()
    notices: list[str] = []
    gate = ResilientConcurrencyGate(
        RedisConcurrencyGate(server.url, 2, 30, timeout_s=0.5, poll_s=0.02), LocalConcurrencyGate(2),
        ServerHealth("Redis", "chat slots", notices.append, retry_after_s=0.2))
    raw = aioredis.Redis.from_url(server.url)
    try:
        assert await gate.acquire("a", timeout=1)
        assert await raw.zscore("chat:active_slots", "a") is not None
        await gate.release("a")
        server.kill()
        assert await gate.acquire("b", timeout=1) and await gate.acquire("c", timeout=1)
        assert await gate.acquire("d", timeout=0) is False  # the local limit still holds
        assert (await gate.capacity()).active == 2
        assert len(notices) == 1
        await gate.release("b")
        await gate.release("c")
        server.restart()
        await raw.aclose()
        raw = aioredis.Redis.from_url(server.url)
        await asyncio.sleep(0.25)
        assert await gate.acquire("e", timeout=1)
        assert await raw.zscore("chat:active_slots", "e") is not None  # back on the shared gate
        assert "reachable again" in notices[-1]
    finally:
        await raw.aclose()
        await gate.aclose()
        server.stop()
