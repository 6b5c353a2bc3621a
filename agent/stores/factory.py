"""Builds the stores the settings ask for: embedded by default, servers with a local fallback."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from ..config import Settings
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


def build_stores(settings: Settings, profile_dir: Path, on_notice: NoticeCallback = None) -> Stores:
    """Nothing connects here: servers are reached on first use, so a down server never blocks
    the plugin from loading. `profile_dir` is the QGIS profile folder; files go in a subfolder.

    `settings.postgres_dsn` must already hold the password (resolved from the QGIS auth manager)."""
    folder = Path(profile_dir) / "stacgis_agent"
    local_sessions = SqliteSessionStore(folder / "sessions.sqlite")
    sessions: SessionStore = local_sessions
    gate: ConcurrencyGate = LocalConcurrencyGate(settings.max_concurrent_chats)
    if settings.redis_url:
        from .redis_gate import RedisConcurrencyGate
        from .redis_sessions import RedisSessionStore
        from .resilient import ResilientConcurrencyGate, ResilientSessionStore

        redis_health = ServerHealth("Redis", "conversations and chat slots", on_notice)  # one notice per outage
        sessions = ResilientSessionStore(
            RedisSessionStore(settings.redis_url, durable=local_sessions, ttl_s=settings.session_ttl_s),
            local_sessions, redis_health)
        gate = ResilientConcurrencyGate(
            RedisConcurrencyGate(settings.redis_url, settings.max_concurrent_chats, SLOT_TTL_S),
            gate, redis_health)

    memories: MemoryStore = SqliteMemoryStore(folder / "memory.sqlite", table="memories")
    knowledge: MemoryStore = SqliteMemoryStore(folder / "memory.sqlite", table="knowledge")
    if settings.postgres_dsn:
        from .pgvector_memory import PgVectorMemoryStore
        from .resilient import ResilientMemoryStore

        health = ServerHealth("PostgreSQL", "memories and notes", on_notice)
        outbox = folder / "memory-outbox.sqlite"
        memories = ResilientMemoryStore(PgVectorMemoryStore(settings.postgres_dsn, "memories"),
                                        SqliteMemoryStore(outbox, "memories"), health)
        knowledge = ResilientMemoryStore(PgVectorMemoryStore(settings.postgres_dsn, "knowledge"),
                                         SqliteMemoryStore(outbox, "knowledge"), health)
    return Stores(sessions=sessions, memories=memories, knowledge=knowledge, gate=gate)
