"""Builders for every store backend, so one contract suite runs against each of them."""

from __future__ import annotations

import uuid
from pathlib import Path

from stacgis_agent.agent.stores.local_gate import LocalConcurrencyGate
from stacgis_agent.agent.stores.pg_sessions import PgSessionStore
from stacgis_agent.agent.stores.pgvector_memory import PgVectorMemoryStore
from stacgis_agent.agent.stores.redis_gate import RedisConcurrencyGate
from stacgis_agent.agent.stores.redis_sessions import RedisSessionStore
from stacgis_agent.agent.stores.sqlite import SqliteMemoryStore, SqliteSessionStore

from .pg_server import shared_pg
from .redis_server import shared_redis

SESSION_BACKENDS = ["sqlite", "postgres", "redis", "redis+postgres"]
MEMORY_BACKENDS = ["sqlite", "pgvector"]
GATE_BACKENDS = ["local", "redis"]


def unique(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:10]}"


def session_store(kind: str, folder: Path, ttl_s: int = 60):
    if kind.endswith("postgres"):
        durable = PgSessionStore(shared_pg().dsn, table=unique("sessions"))
    else:
        durable = SqliteSessionStore(folder / "sessions.sqlite")
    if kind in ("sqlite", "postgres"):
        return durable
    # A key prefix per test keeps tests apart on the shared server.
    return RedisSessionStore(shared_redis().url, durable=durable, ttl_s=ttl_s, prefix=unique("t") + ":")


def memory_store(kind: str, folder: Path, table: str = "memories"):
    if kind == "sqlite":
        return SqliteMemoryStore(folder / "memory.sqlite", table=table)
    return PgVectorMemoryStore(shared_pg().dsn, table=unique(table))


def gate(kind: str, max_concurrent: int, slot_ttl_s: float = 30.0, key: str | None = None):
    if kind == "local":
        return LocalConcurrencyGate(max_concurrent)
    return RedisConcurrencyGate(shared_redis().url, max_concurrent, slot_ttl_s,
                                key=key or unique("chat:active_slots"), poll_s=0.02)
