"""Conversations in Redis for a team (`session:{id}`, TTL refreshed on every message), written
through to a durable store so a session that expired from Redis is still listed and reopens."""

from __future__ import annotations

import logging
import time
from typing import Any, Sequence

from ..dock_text import translatable
from .base import SessionInfo, SessionRecord, SessionStore
from .redis_client import connect_redis, unavailable_as
from .session_data import record_from_json, record_to_json, updated_record

log = logging.getLogger(__name__)


class RedisSessionStore:
    """`SessionStore` on Redis plus a durable copy (SQLite or PostgreSQL).

    Keys: `session:{id}` holds the whole record as JSON with a TTL; `user_sessions:{user}` is a
    sorted set of that user's session ids by last update. Reads take whichever copy is newer."""

    def __init__(self, url: str, durable: SessionStore, ttl_s: int = 3600, *, timeout_s: float = 2.0,
                 prefix: str = ""):
        self.url = url
        self.durable = durable
        self.ttl_s = int(ttl_s)
        self._prefix = prefix
        self._redis = connect_redis(url, timeout_s)

    def _key(self, session_id: str) -> str:
        return f"{self._prefix}session:{session_id}"

    def _index(self, user: str) -> str:
        return f"{self._prefix}user_sessions:{user}"

    async def _cached(self, session_id: str) -> SessionRecord | None:
        with unavailable_as(translatable("reading a session"), self.url):
            raw = await self._redis.get(self._key(session_id))
        return record_from_json(raw) if raw else None

    async def _cache(self, record: SessionRecord) -> None:
        info = record.info
        with unavailable_as(translatable("saving a session"), self.url):
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.set(self._key(info.session_id), record_to_json(record), ex=self.ttl_s)
                pipe.zadd(self._index(info.user), {info.session_id: info.updated_at})
                pipe.expire(self._index(info.user), max(self.ttl_s, 30 * 86400))
                await pipe.execute()

    async def get_or_create(self, session_id: str, user: str = "default", title: str = "") -> SessionRecord:
        record = await self.history(session_id)
        if record is None:
            record = await self.durable.get_or_create(session_id, user=user, title=title)
            await self._cache(record)
        return record

    async def save(self, session_id: str, memory: dict[str, Any], events: Sequence[dict[str, Any]] = (),
                   user: str = "default") -> None:
        # Durable first: once it returns, a Redis failure can no longer lose the message.
        await self.durable.save(session_id, memory, events, user=user)
        current = await self._cached(session_id)
        if current is None:
            current = await self.durable.history(session_id)
        if current is None:  # the durable store always has it after save; this is belt and braces
            now = time.time()
            current = SessionRecord(info=SessionInfo(session_id, user, "", now, now, 0))
        await self._cache(updated_record(current, memory, events, time.time()))

    async def list(self, user: str = "default") -> list[SessionInfo]:
        with unavailable_as(translatable("listing sessions"), self.url):
            ids = await self._redis.zrevrange(self._index(user), 0, -1)
            raws = await self._redis.mget([self._key(i.decode()) for i in ids]) if ids else []
        merged: dict[str, SessionInfo] = {info.session_id: info for info in await self.durable.list(user)}
        expired = []
        for sid, raw in zip(ids, raws):
            if raw is None:
                expired.append(sid)
                continue
            info = record_from_json(raw).info
            known = merged.get(info.session_id)
            if known is None or info.updated_at >= known.updated_at:
                merged[info.session_id] = info
        if expired:  # the durable copy answers for these from now on
            with unavailable_as(translatable("listing sessions"), self.url):
                await self._redis.zrem(self._index(user), *expired)
        return sorted(merged.values(), key=lambda i: i.updated_at, reverse=True)

    async def rename(self, session_id: str, title: str) -> None:
        await self.durable.rename(session_id, title)
        record = await self._cached(session_id)
        if record is not None:
            info = record.info
            record.info = SessionInfo(info.session_id, info.user, title, info.created_at, info.updated_at,
                                      info.message_count)
            await self._cache(record)

    async def delete(self, session_id: str) -> None:
        record = await self._cached(session_id)
        await self.durable.delete(session_id)
        with unavailable_as(translatable("deleting a session"), self.url):
            await self._redis.delete(self._key(session_id))
            if record is not None:
                await self._redis.zrem(self._index(record.info.user), session_id)

    async def history(self, session_id: str) -> SessionRecord | None:
        cached = await self._cached(session_id)
        stored = await self.durable.history(session_id)
        if stored is not None and (cached is None or stored.info.updated_at > cached.info.updated_at):
            await self._cache(stored)  # reopened from the durable copy: warm Redis again
            return stored
        return cached

    async def aclose(self) -> None:
        """Closes the Redis pool and the durable store it was given."""
        await self._redis.aclose()
        await self.durable.aclose()
