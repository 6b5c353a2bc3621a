"""Conversations in a SQLite file in the QGIS profile folder, written after every message."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any, Sequence

from .base import SessionInfo, SessionRecord
from .session_data import message_count, title_from_memory
from .sqlite_db import SqliteDatabase

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    session_id TEXT PRIMARY KEY,
    user TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0,
    memory TEXT NOT NULL DEFAULT '{}',
    events TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS sessions_by_user ON sessions (user, updated_at DESC);
"""


class SqliteSessionStore:
    """Embedded `SessionStore`. `save` replaces the memory and, when events are given, the
    whole event log (pass every event shown so far); without events the log is kept."""

    def __init__(self, path: str | Path):
        self._db = SqliteDatabase(path, _SCHEMA)

    @property
    def path(self) -> Path:
        return self._db.path

    async def get_or_create(self, session_id: str, user: str = "default", title: str = "") -> SessionRecord:
        def work(conn: sqlite3.Connection) -> SessionRecord:
            record = _load(conn, session_id)
            if record is not None:
                return record
            now = time.time()
            conn.execute("INSERT INTO sessions (session_id, user, title, created_at, updated_at) "
                         "VALUES (?, ?, ?, ?, ?)", (session_id, user, title, now, now))
            return SessionRecord(info=SessionInfo(session_id, user, title, now, now, 0))

        return await self._db.run(work)

    async def save(self, session_id: str, memory: dict[str, Any], events: Sequence[dict[str, Any]] = (),
                   user: str = "default") -> None:
        memory_json = json.dumps(memory, ensure_ascii=False)
        events_json = json.dumps(list(events), ensure_ascii=False) if events else None
        count, derived_title = message_count(memory), title_from_memory(memory)

        def work(conn: sqlite3.Connection) -> None:
            now = time.time()
            conn.execute(
                "INSERT INTO sessions (session_id, user, title, created_at, updated_at, message_count,"
                " memory, events) VALUES (?, ?, ?, ?, ?, ?, ?, COALESCE(?, '[]'))"
                " ON CONFLICT (session_id) DO UPDATE SET"
                " title = CASE WHEN sessions.title = '' THEN excluded.title ELSE sessions.title END,"
                " updated_at = excluded.updated_at, message_count = excluded.message_count,"
                " memory = excluded.memory, events = COALESCE(?, sessions.events)",
                (session_id, user, derived_title, now, now, count, memory_json, events_json, events_json))

        await self._db.run(work)

    async def put(self, record: SessionRecord) -> None:
        """Stores a whole record as it is (timestamps included): used to copy between backends."""
        info = record.info

        def work(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT OR REPLACE INTO sessions (session_id, user, title, created_at, updated_at,"
                " message_count, memory, events) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (info.session_id, info.user, info.title, info.created_at, info.updated_at,
                 info.message_count, json.dumps(record.memory, ensure_ascii=False),
                 json.dumps(record.events, ensure_ascii=False)))

        await self._db.run(work)

    async def list(self, user: str = "default") -> list[SessionInfo]:
        def work(conn: sqlite3.Connection) -> list[SessionInfo]:
            rows = conn.execute("SELECT session_id, user, title, created_at, updated_at, message_count"
                                " FROM sessions WHERE user = ? ORDER BY updated_at DESC", (user,)).fetchall()
            return [SessionInfo(*row) for row in rows]

        return await self._db.run(work)

    async def rename(self, session_id: str, title: str) -> None:
        def work(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE sessions SET title = ? WHERE session_id = ?", (title, session_id))

        await self._db.run(work)

    async def delete(self, session_id: str) -> None:
        def work(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM sessions WHERE session_id = ?", (session_id,))

        await self._db.run(work)

    async def history(self, session_id: str) -> SessionRecord | None:
        def work(conn: sqlite3.Connection) -> SessionRecord | None:
            return _load(conn, session_id)

        return await self._db.run(work)

    async def aclose(self) -> None:
        self._db.close()


def _load(conn: sqlite3.Connection, session_id: str) -> SessionRecord | None:
    row = conn.execute("SELECT session_id, user, title, created_at, updated_at, message_count, memory, events"
                       " FROM sessions WHERE session_id = ?", (session_id,)).fetchone()
    if row is None:
        return None
    return SessionRecord(info=SessionInfo(*row[:6]), memory=json.loads(row[6]), events=json.loads(row[7]))
