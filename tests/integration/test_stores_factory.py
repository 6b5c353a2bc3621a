"""build_stores picks the backends the settings name, and a fresh install needs no server."""

from __future__ import annotations

import pytest

from stacgis_agent.agent.config import Settings
from stacgis_agent.agent.stores.factory import build_stores
from stacgis_agent.agent.stores.local_gate import LocalConcurrencyGate
from stacgis_agent.agent.stores.pg_sessions import PgSessionStore
from stacgis_agent.agent.stores.resilient import (
    ResilientConcurrencyGate,
    ResilientMemoryStore,
    ResilientSessionStore,
)
from stacgis_agent.agent.stores.sqlite import SqliteMemoryStore, SqliteSessionStore
from testkit.servers.pg_server import shared_pg
from testkit.servers.redis_server import shared_redis

pytestmark = pytest.mark.server


async def test_default_settings_give_embedded_stores_in_the_profile_folder(tmp_path):
    stores = build_stores(Settings(), tmp_path)
    try:
        assert isinstance(stores.sessions, SqliteSessionStore)
        assert isinstance(stores.memories, SqliteMemoryStore) and isinstance(stores.knowledge, SqliteMemoryStore)
        assert isinstance(stores.gate, LocalConcurrencyGate) and stores.gate.max_concurrent == 4
        await stores.sessions.save("s1", {"messages": [{"role": "user", "content": "hi"}]})
        await stores.knowledge.add("default", "a note", "note", [1.0, 0.0])
        assert await stores.memories.search("default", [1.0, 0.0]) == []  # knowledge is its own table
        assert (tmp_path / "stacgis_agent" / "sessions.sqlite").exists()
        assert (tmp_path / "stacgis_agent" / "memory.sqlite").exists()
    finally:
        await stores.aclose()


async def test_servers_in_the_settings_are_used_with_a_local_fallback(tmp_path):
    settings = Settings(redis_url=shared_redis().url, postgres_dsn=shared_pg().dsn, max_concurrent_chats=3,
                        user="ana")
    notices: list[str] = []
    stores = build_stores(settings, tmp_path, notices.append)
    try:
        assert isinstance(stores.sessions, ResilientSessionStore)
        assert isinstance(stores.memories, ResilientMemoryStore)
        assert isinstance(stores.gate, ResilientConcurrencyGate)
        await stores.sessions.save("factory-s1", {"messages": [{"role": "user", "content": "NDVI?"}]}, user="ana")
        assert [i.title for i in await stores.sessions.list("ana")] == ["NDVI?"]
        mid = await stores.memories.add("ana", "likes Sentinel-2", "preference", [0.0, 1.0], model="m")
        assert [h.id for h in await stores.memories.search("ana", [0.0, 1.0], model="m")] == [mid]
        assert (await stores.gate.capacity()).max == 3
        durable = stores.sessions.primary.durable  # Redis' durable copy lives on PostgreSQL
        assert isinstance(durable.primary, PgSessionStore)
        assert (await durable.primary.history("factory-s1")).info.title == "NDVI?"
        assert notices == []  # both servers answered
    finally:
        await stores.aclose()


async def test_a_redis_that_is_down_at_start_is_one_notice_and_the_chat_still_works(tmp_path):
    from testkit.servers.loopback import free_port

    settings = Settings(redis_url=f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    notices: list[str] = []
    stores = build_stores(settings, tmp_path, notices.append)
    try:
        assert await stores.gate.acquire("s1", timeout=1)
        await stores.sessions.save("s1", {"messages": [{"role": "user", "content": "hello"}]})
        await stores.sessions.save("s1", {"messages": [{"role": "user", "content": "hello"}] * 2})
        await stores.gate.release("s1")
        assert (await stores.sessions.history("s1")).info.message_count == 2
        assert len(notices) == 1, notices
        assert "Redis" in notices[0] and "conversations and chat slots" in notices[0]
    finally:
        await stores.aclose()
