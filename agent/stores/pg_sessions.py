"""Conversations in PostgreSQL: the durable copy behind Redis when a team has both servers."""

from __future__ import annotations

import json
import time
from typing import Any, Sequence

import psycopg
from psycopg import sql
from psycopg.types.json import Jsonb

from ..dock_text import translatable
from .base import SessionInfo, SessionRecord
from .memory_data import checked_table_name
from .pg_connection import PgConnection
from .session_data import message_count, title_from_memory

_SCHEMA = """
CREATE TABLE IF NOT EXISTS {t} (
    session_id text PRIMARY KEY,
    user_id text NOT NULL,
    title text NOT NULL DEFAULT '',
    created_at double precision NOT NULL,
    updated_at double precision NOT NULL,
    message_count integer NOT NULL DEFAULT 0,
    memory jsonb NOT NULL DEFAULT '{{}}',
    events jsonb NOT NULL DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS {by_user} ON {t} (user_id, updated_at DESC);
"""
_INFO_COLUMNS = "session_id, user_id, title, created_at, updated_at, message_count"


class PgSessionStore:
    """`SessionStore` on PostgreSQL, same semantics as the SQLite one (see base.SessionStore)."""

    def __init__(self, dsn: str, table: str = "sessions", *, timeout_s: float = 3.0):
        self.table = checked_table_name(table)
        self._t = sql.Identifier(self.table)
        self._db = PgConnection(dsn, timeout_s)
        self._ready_done = False

    async def _ready(self, conn: psycopg.AsyncConnection) -> None:
        if self._ready_done:
            return
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext('stacgis_schema'))")
            await conn.execute(sql.SQL(_SCHEMA).format(t=self._t, by_user=sql.Identifier(self.table + "_by_user")))
        self._ready_done = True

    async def get_or_create(self, session_id: str, user: str = "default", title: str = "") -> SessionRecord:
        async def work(conn: psycopg.AsyncConnection) -> SessionRecord:
            await self._ready(conn)
            now = time.time()
            await conn.execute(sql.SQL("INSERT INTO {t} (session_id, user_id, title, created_at, updated_at)"
                                       " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (session_id) DO NOTHING")
                               .format(t=self._t), (session_id, user, title, now, now))
            record = await self._load(conn, session_id)
            if record is None:  # another QGIS deleted it between the two statements: a new one, as SQLite gives
                return SessionRecord(info=SessionInfo(session_id, user, title, now, now, 0))
            return record

        return await self._db.run(translatable("opening a session"), work)

    async def save(self, session_id: str, memory: dict[str, Any], events: Sequence[dict[str, Any]] = (),
                   user: str = "default") -> None:
        events_json = Jsonb(list(events)) if events else None

        async def work(conn: psycopg.AsyncConnection) -> None:
            await self._ready(conn)
            now = time.time()
            await conn.execute(sql.SQL(
                "INSERT INTO {t} (session_id, user_id, title, created_at, updated_at, message_count, memory, events)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, COALESCE(%s, '[]'::jsonb)) ON CONFLICT (session_id) DO UPDATE"
                " SET title = CASE WHEN {t}.title = '' THEN excluded.title ELSE {t}.title END,"
                " updated_at = excluded.updated_at, message_count = excluded.message_count,"
                " memory = excluded.memory, events = COALESCE(%s, {t}.events)").format(t=self._t),
                (session_id, user, title_from_memory(memory), now, now, message_count(memory), Jsonb(memory),
                 events_json, events_json))

        await self._db.run(translatable("saving a session"), work)

    async def list(self, user: str = "default") -> list[SessionInfo]:
        async def work(conn: psycopg.AsyncConnection) -> list[SessionInfo]:
            await self._ready(conn)
            cur = await conn.execute(sql.SQL("SELECT {cols} FROM {t} WHERE user_id = %s ORDER BY updated_at DESC")
                                     .format(cols=sql.SQL(_INFO_COLUMNS), t=self._t), (user,))
            return [SessionInfo(*row) for row in await cur.fetchall()]

        return await self._db.run(translatable("listing sessions"), work)

    async def rename(self, session_id: str, title: str) -> None:
        async def work(conn: psycopg.AsyncConnection) -> None:
            await self._ready(conn)
            await conn.execute(sql.SQL("UPDATE {t} SET title = %s WHERE session_id = %s").format(t=self._t),
                               (title, session_id))

        await self._db.run(translatable("renaming a session"), work)

    async def delete(self, session_id: str) -> None:
        async def work(conn: psycopg.AsyncConnection) -> None:
            await self._ready(conn)
            await conn.execute(sql.SQL("DELETE FROM {t} WHERE session_id = %s").format(t=self._t), (session_id,))

        await self._db.run(translatable("deleting a session"), work)

    async def history(self, session_id: str) -> SessionRecord | None:
        async def work(conn: psycopg.AsyncConnection) -> SessionRecord | None:
            await self._ready(conn)
            return await self._load(conn, session_id)

        return await self._db.run(translatable("reading a session"), work)

    async def _load(self, conn: psycopg.AsyncConnection, session_id: str) -> SessionRecord | None:
        cur = await conn.execute(sql.SQL("SELECT {cols}, memory, events FROM {t} WHERE session_id = %s")
                                 .format(cols=sql.SQL(_INFO_COLUMNS), t=self._t), (session_id,))
        row = await cur.fetchone()
        if row is None:
            return None
        memory, events = row[6], row[7]
        return SessionRecord(info=SessionInfo(*row[:6]),
                             memory=json.loads(memory) if isinstance(memory, str) else memory,
                             events=json.loads(events) if isinstance(events, str) else events)

    async def aclose(self) -> None:
        await self._db.aclose()
