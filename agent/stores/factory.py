"""Builds the stores the settings ask for: embedded by default, servers with a local fallback."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from ..config import Settings
from ..dock_text import Translate, as_written, translatable
from .base import ConcurrencyGate, MemoryStore, SessionStore
from .local_gate import LocalConcurrencyGate
from .server_health import NoticeCallback, ServerHealth
from .sqlite_memory import SqliteMemoryStore
from .sqlite_sessions import SqliteSessionStore

log = logging.getLogger(__name__)

SLOT_TTL_S = 300.0  # a slot not refreshed for this long belongs to a QGIS that is gone


@dataclass
class Stores:
    sessions: SessionStore
    memories: MemoryStore
    knowledge: MemoryStore
    gate: ConcurrencyGate

    async def aclose(self) -> None:
        for store in (self.sessions, self.memories, self.knowledge, self.gate):
            try:
                await store.aclose()
            except Exception:
                log.exception("closing %r failed", store)


def build_stores(settings: Settings, profile_dir: Path, on_notice: NoticeCallback = None,
                 tr: Translate = as_written) -> Stores:
    """Nothing connects here: servers are reached on first use, so a down server never blocks
    the plugin from loading. `profile_dir` is the QGIS profile folder; files go in a subfolder.
    `on_notice` is told of an outage and a recovery in the dock's language (`tr`, agent/dock_text.py).

    `settings.postgres_dsn` must already hold the password (resolved from the QGIS auth manager)."""
    folder = Path(profile_dir) / "stacgis_agent"
    local_sessions = SqliteSessionStore(folder / "sessions.sqlite")
    pg_health = None
    if settings.postgres_dsn:
        what = (translatable("memories, notes and conversation copies") if settings.redis_url
                else translatable("memories and notes"))
        pg_health = ServerHealth("PostgreSQL", what, on_notice, tr=tr)  # one notice per outage for all tables

    sessions: SessionStore = local_sessions
    gate: ConcurrencyGate = LocalConcurrencyGate(settings.max_concurrent_chats)
    if settings.redis_url:
        from .redis_gate import RedisConcurrencyGate
        from .redis_sessions import RedisSessionStore
        from .resilient import ResilientConcurrencyGate, ResilientSessionStore

        durable: SessionStore = local_sessions
        if pg_health is not None:  # a team with both servers keeps the durable copy on PostgreSQL
            from .pg_sessions import PgSessionStore

            durable = ResilientSessionStore(PgSessionStore(settings.postgres_dsn), local_sessions, pg_health)
        redis_health = ServerHealth("Redis", translatable("conversations and chat slots"), on_notice, tr=tr)
        sessions = ResilientSessionStore(
            RedisSessionStore(settings.redis_url, durable=durable, ttl_s=settings.session_ttl_s),
            durable, redis_health)
        gate = ResilientConcurrencyGate(
            RedisConcurrencyGate(settings.redis_url, settings.max_concurrent_chats, SLOT_TTL_S),
            gate, redis_health)

    memories: MemoryStore = SqliteMemoryStore(folder / "memory.sqlite", table="memories")
    knowledge: MemoryStore = SqliteMemoryStore(folder / "memory.sqlite", table="knowledge")
    if pg_health is not None:
        from .pgvector_memory import PgVectorMemoryStore
        from .resilient import ResilientMemoryStore

        outbox = folder / "memory-outbox.sqlite"
        memories = ResilientMemoryStore(PgVectorMemoryStore(settings.postgres_dsn, "memories"),
                                        SqliteMemoryStore(outbox, "memories"), pg_health)
        knowledge = ResilientMemoryStore(PgVectorMemoryStore(settings.postgres_dsn, "knowledge"),
                                         SqliteMemoryStore(outbox, "knowledge"), pg_health)
    return Stores(sessions=sessions, memories=memories, knowledge=knowledge, gate=gate)
