"""Contract of SessionStore, run against the embedded SQLite store and Redis (+ durable copy)."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis

from stacgis_agent.agent.stores.redis_sessions import RedisSessionStore
from stacgis_agent.agent.stores.sqlite import SqliteSessionStore
from testkit.servers.redis_server import shared_redis
from testkit.servers.store_backends import SESSION_BACKENDS, session_store, unique

pytestmark = pytest.mark.server

INJECTION = "Robert'); DROP TABLE sessions; -- \" `rm -rf` ${HOME} 🛰️ Zürich"


def conversation(n: int) -> dict:
    msgs = []
    for i in range(n):
        role = "user" if i % 2 == 0 else "assistant"
        msgs.append({"role": role, "content": f"message {i}: NDVI over Lyon?" if role == "user" else f"answer {i}"})
    return {"messages": msgs, "summary": ""}


@pytest.fixture(params=SESSION_BACKENDS)
async def store(request, tmp_path):
    s = session_store(request.param, tmp_path)
    yield s
    await s.aclose()


async def test_new_session_is_empty_and_reopens_the_same(store):
    first = await store.get_or_create("s1", user="ana", title="Lyon")
    assert (first.info.session_id, first.info.user, first.info.title) == ("s1", "ana", "Lyon")
    assert first.memory == {} and first.events == [] and first.info.message_count == 0
    again = await store.get_or_create("s1", user="ana")
    assert again.info.created_at == first.info.created_at and again.info.title == "Lyon"


async def test_saved_messages_and_events_come_back_verbatim(store):
    memory = conversation(3)
    memory["messages"].append({"role": "user", "content": INJECTION})
    events = [{"type": "tool_start", "step": 1, "call_id": "c1", "tool_name": "search_stac",
               "tool_args": {"q": INJECTION}}, {"type": "content", "text": "done", "is_complete": True}]
    await store.get_or_create("s1", user="ana")
    await store.save("s1", memory, events, user="ana")
    record = await store.history("s1")
    assert record.memory == memory
    assert record.events == events
    assert record.info.message_count == 4
    assert record.info.title == "message 0: NDVI over Lyon?"  # the first thing the user asked


async def test_save_without_events_keeps_the_event_log(store):
    events = [{"type": "content", "text": "hi", "is_complete": True}]
    await store.save("s1", conversation(2), events, user="ana")
    await store.save("s1", conversation(4), user="ana")
    record = await store.history("s1")
    assert record.events == events and record.info.message_count == 4


async def test_list_is_per_user_and_newest_first(store):
    for sid in ("old", "mid", "new"):
        await store.save(sid, conversation(2), user="ana")
        await asyncio.sleep(0.01)
    await store.save("other", conversation(2), user="bob")
    assert [i.session_id for i in await store.list("ana")] == ["new", "mid", "old"]
    assert [i.session_id for i in await store.list("bob")] == ["other"]
    await store.save("old", conversation(6), user="ana")  # a new message moves it to the top
    infos = await store.list("ana")
    assert infos[0].session_id == "old" and infos[0].message_count == 6


async def test_rename_and_delete(store):
    await store.save("s1", conversation(2), user="ana")
    await store.save("s2", conversation(2), user="ana")
    await store.rename("s1", "Crop health, June")
    assert (await store.history("s1")).info.title == "Crop health, June"
    assert (await store.history("s1")).memory == conversation(2)
    await store.delete("s2")
    assert await store.history("s2") is None
    assert [i.session_id for i in await store.list("ana")] == ["s1"]
    assert (await store.list("ana"))[0].title == "Crop health, June"


async def test_every_message_survives_a_crash(tmp_path):
    """Saved after every message, then the process 'dies' (no close): a new store has them all."""
    path = tmp_path / "sessions.sqlite"
    crashed = SqliteSessionStore(path)
    for n in range(1, 21):
        await crashed.save("s1", conversation(n), user="ana")
    reopened = SqliteSessionStore(path)
    record = await reopened.history("s1")
    assert record.memory == conversation(20)
    await reopened.aclose()
    await crashed.aclose()


async def test_redis_keeps_the_session_under_its_key_with_a_refreshed_ttl(tmp_path):
    store = RedisSessionStore(shared_redis().url, durable=SqliteSessionStore(tmp_path / "d.sqlite"),
                              ttl_s=100, prefix="ttltest:")
    raw = aioredis.Redis.from_url(shared_redis().url)
    try:
        await store.save("abc", conversation(2), user="ana")
        await raw.expire("ttltest:session:abc", 10)
        await store.save("abc", conversation(4), user="ana")
        ttl = await raw.ttl("ttltest:session:abc")
        assert 90 < ttl <= 100  # refreshed by the new message
        assert await raw.zscore("ttltest:user_sessions:ana", "abc") is not None
    finally:
        await raw.aclose()
        await store.aclose()


@pytest.mark.parametrize("durable_kind", ["sqlite", "postgres"])
async def test_session_expired_from_redis_is_listed_and_reopened_from_the_durable_copy(tmp_path, durable_kind):
    durable = session_store(durable_kind, tmp_path)
    prefix = unique("expiry") + ":"
    store = RedisSessionStore(shared_redis().url, durable=durable, ttl_s=1, prefix=prefix)
    raw = aioredis.Redis.from_url(shared_redis().url)
    try:
        await store.save("gone", conversation(6), [{"type": "content", "text": "x", "is_complete": True}],
                         user="ana")
        await asyncio.sleep(1.2)
        assert await raw.exists(f"{prefix}session:gone") == 0  # Redis really forgot it
        assert [i.session_id for i in await store.list("ana")] == ["gone"]
        record = await store.get_or_create("gone", user="ana")
        assert record.memory == conversation(6) and len(record.events) == 1
        assert await raw.exists(f"{prefix}session:gone") == 1  # reopened: back in Redis
    finally:
        await raw.aclose()
        await store.aclose()


async def test_two_qgis_writing_the_same_file_at_once_lose_nothing(tmp_path):
    first, second = SqliteSessionStore(tmp_path / "s.sqlite"), SqliteSessionStore(tmp_path / "s.sqlite")
    try:
        await asyncio.gather(*(store.save(f"{name}-{i}", conversation(i + 1), user="ana")
                               for i in range(20) for name, store in (("a", first), ("b", second))))
        infos = await first.list("ana")
        assert len(infos) == 40
        assert (await second.history("a-19")).memory == conversation(20)
    finally:
        await first.aclose()
        await second.aclose()


async def test_an_unwritable_folder_says_what_to_do(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    store = SqliteSessionStore(blocker / "sessions.sqlite")
    with pytest.raises(OSError, match="check that the QGIS profile folder exists, is writable"):
        await store.list("ana")
