"""Long-term memory (or the knowledge base) in SQLite, searched with numpy cosine similarity.

Vectors are float32 blobs. Each (user, model, dimension) group is loaded once into a
normalised matrix and kept until a write changes it, so a search is one matrix product.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .base import MemoryHit
from .memory_data import StoredMemory, as_vector, checked_table_name, new_memory_id, normalised_rows, top_k
from .sqlite_db import SqliteDatabase

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS {t} (
    id TEXT PRIMARY KEY,
    user TEXT NOT NULL,
    content TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT '',
    model TEXT NOT NULL DEFAULT '',
    dim INTEGER NOT NULL,
    embedding BLOB NOT NULL,
    metadata TEXT NOT NULL DEFAULT '{{}}',
    created_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS {t}_by_group ON {t} (user, model, dim);
CREATE INDEX IF NOT EXISTS {t}_by_time ON {t} (user, created_at DESC);
"""
# Every statement on a memory table. Its name cannot be a bound parameter: _statements() puts it in, once per
# store and only after checked_table_name accepted it; every value is bound (?).
_STATEMENTS = {
    "add": "INSERT OR IGNORE INTO {t} (id, user, content, kind, model, dim, embedding, metadata, created_at)"
           " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "add_many": "INSERT INTO {t} (id, user, content, kind, model, dim, embedding, metadata, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "hit_by_id": "SELECT id, user, content, kind, created_at, metadata FROM {t} WHERE id = ?",
    "recent": "SELECT id, user, content, kind, created_at, metadata FROM {t} WHERE user = ?"
              " ORDER BY created_at DESC LIMIT ?",
    "group_of": "SELECT model, dim FROM {t} WHERE id = ? AND user = ?",
    "delete": "DELETE FROM {t} WHERE id = ? AND user = ?",
    "models": "SELECT model, dim, COUNT(*) FROM {t} WHERE user = ? GROUP BY model, dim",
    "stale": "SELECT id, content FROM {t} WHERE user = ? AND (model != ? OR dim != ?) ORDER BY created_at LIMIT ?",
    "replace_embedding": "UPDATE {t} SET model = ?, dim = ?, embedding = ? WHERE id = ? AND user = ?",
    "edited_of": "SELECT model, dim, metadata FROM {t} WHERE id = ? AND user = ?",
    "edit": "UPDATE {t} SET content = ?, kind = ?, model = ?, dim = ?, embedding = ?, metadata = ?"
            " WHERE id = ? AND user = ?",
    "export": "SELECT id, user, content, kind, created_at, metadata, model, embedding FROM {t}"
              " ORDER BY created_at LIMIT ?",
    "vectors": "SELECT id, embedding FROM {t} WHERE user = ? AND model = ? AND dim = ?",
}


def _statements(table: str) -> dict[str, str]:
    checked = checked_table_name(table)
    return {name: statement.format(t=checked) for name, statement in _STATEMENTS.items()}

GroupKey = tuple[str, str, int]  # user, model, dimension


class _Group:
    """The normalised vectors of one (user, model, dimension), in row order with their ids."""

    def __init__(self, ids: list[str], matrix: np.ndarray):
        self.ids = ids
        self.matrix = matrix


class SqliteMemoryStore:
    """Embedded `MemoryStore`. Vectors from different embedding models (or dimensions) are
    never compared: a search only sees vectors of the query's model and dimension."""

    def __init__(self, path: str | Path, table: str = "memories"):
        self.table = checked_table_name(table)
        self._sql = _statements(self.table)
        self._db = SqliteDatabase(path, _SCHEMA.format(t=self.table))
        self._groups: dict[GroupKey, _Group] = {}
        self._groups_lock = threading.Lock()
        self._data_version: int | None = None

    @property
    def path(self) -> Path:
        return self._db.path

    async def add(self, user: str, content: str, kind: str, embedding: Sequence[float],
                  metadata: dict[str, Any] | None = None, model: str = "", *,
                  memory_id: str | None = None, created_at: float | None = None) -> str:
        vec = as_vector(embedding)
        mid = memory_id or new_memory_id()
        when = time.time() if created_at is None else created_at
        meta_json = json.dumps(metadata or {}, ensure_ascii=False)

        def work(conn: sqlite3.Connection) -> str:
            cur = conn.execute(self._sql["add"],
                               (mid, user, content, kind, model, int(vec.size), vec.tobytes(), meta_json, when))
            if cur.rowcount:
                self._append((user, model, int(vec.size)), mid, vec)
            return mid

        return await self._db.run(work)

    async def add_many(self, rows: Sequence[tuple[str, str, str, Sequence[float], str]]) -> int:
        """Bulk load of (user, content, kind, embedding, model) rows in one transaction."""
        now = time.time()
        prepared = []
        for user, content, kind, embedding, model in rows:
            vec = as_vector(embedding)
            prepared.append((new_memory_id(), user, content, kind, model, int(vec.size), vec.tobytes(), "{}", now))

        def work(conn: sqlite3.Connection) -> int:
            conn.executemany(self._sql["add_many"], prepared)
            with self._groups_lock:
                for key in {(r[1], r[4], r[5]) for r in prepared}:
                    self._groups.pop(key, None)
            return len(prepared)

        return await self._db.run(work)

    async def search(self, user: str, query_embedding: Sequence[float], k: int = 5,
                     model: str = "") -> list[MemoryHit]:
        query = as_vector(query_embedding)
        key = (user, model, int(query.size))

        def work(conn: sqlite3.Connection) -> list[MemoryHit]:
            group = self._group(conn, key)
            if not group.ids:
                return []
            norm = float(np.linalg.norm(query))
            scores = group.matrix @ (query / norm if norm else query)
            best = top_k(scores, k)
            ids = [group.ids[i] for i in best]
            rows = _rows_by_id(conn, self._sql["hit_by_id"], ids)
            return [_hit(rows[mid], float(scores[i])) for mid, i in zip(ids, best) if mid in rows]

        return await self._db.run(work)

    async def recent(self, user: str, n: int = 10) -> list[MemoryHit]:
        def work(conn: sqlite3.Connection) -> list[MemoryHit]:
            rows = conn.execute(self._sql["recent"], (user, int(n))).fetchall()
            return [_hit(row, 0.0) for row in rows]

        return await self._db.run(work)

    async def delete(self, user: str, memory_id: str) -> bool:
        def work(conn: sqlite3.Connection) -> bool:
            row = conn.execute(self._sql["group_of"], (memory_id, user)).fetchone()
            if row is None:
                return False
            conn.execute(self._sql["delete"], (memory_id, user))
            self._forget((user, row[0], int(row[1])))
            return True

        return await self._db.run(work)

    async def update(self, user: str, memory_id: str, content: str, kind: str, embedding: Sequence[float],
                     model: str = "", metadata: dict[str, Any] | None = None) -> bool:
        vec = as_vector(embedding)

        def work(conn: sqlite3.Connection) -> bool:
            row = conn.execute(self._sql["edited_of"], (memory_id, user)).fetchone()
            if row is None:
                return False
            meta_json = json.dumps(metadata, ensure_ascii=False) if metadata is not None else row[2]
            conn.execute(self._sql["edit"],
                         (content, kind, model, int(vec.size), vec.tobytes(), meta_json, memory_id, user))
            self._forget((user, row[0], int(row[1])))
            self._forget((user, model, int(vec.size)))
            return True

        return await self._db.run(work)

    async def models(self, user: str) -> dict[tuple[str, int], int]:
        """How many of the user's memories each (embedding model, dimension) holds."""
        def work(conn: sqlite3.Connection) -> dict[tuple[str, int], int]:
            rows = conn.execute(self._sql["models"], (user,))
            return {(m, int(d)): int(c) for m, d, c in rows}

        return await self._db.run(work)

    async def stale(self, user: str, model: str, dim: int, limit: int = 64) -> list[tuple[str, str]]:
        """(id, content) of the user's memories embedded with another model or dimension."""
        def work(conn: sqlite3.Connection) -> list[tuple[str, str]]:
            return conn.execute(self._sql["stale"], (user, model, int(dim), int(limit))).fetchall()

        return await self._db.run(work)

    async def replace_embedding(self, user: str, memory_id: str, embedding: Sequence[float], model: str) -> None:
        vec = as_vector(embedding)

        def work(conn: sqlite3.Connection) -> None:
            conn.execute(self._sql["replace_embedding"], (model, int(vec.size), vec.tobytes(), memory_id, user))
            with self._groups_lock:
                self._groups.clear()

        await self._db.run(work)

    async def export(self, limit: int = 500) -> list[StoredMemory]:
        """Memories with their vectors, oldest first: what a fallback hands back to the server."""
        def work(conn: sqlite3.Connection) -> list[StoredMemory]:
            rows = conn.execute(self._sql["export"], (int(limit),)).fetchall()
            return [StoredMemory(hit=_hit(r[:6], 0.0), model=r[6],
                                 embedding=np.frombuffer(r[7], dtype=np.float32).tolist()) for r in rows]

        return await self._db.run(work)

    async def aclose(self) -> None:
        self._db.close()

    # -- the in-RAM matrices ------------------------------------------------------------------

    def _append(self, key: GroupKey, memory_id: str, vec: np.ndarray) -> None:
        with self._groups_lock:
            group = self._groups.get(key)
            if group is not None:
                row = normalised_rows(vec.reshape(1, -1))
                self._groups[key] = _Group(group.ids + [memory_id], np.vstack([group.matrix, row]))

    def _forget(self, key: GroupKey) -> None:
        with self._groups_lock:
            self._groups.pop(key, None)

    def _group(self, conn: sqlite3.Connection, key: GroupKey) -> _Group:
        # Another process (a second QGIS) writing the file bumps data_version: drop what we hold.
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        with self._groups_lock:
            if version != self._data_version:
                self._groups.clear()
                self._data_version = version
            group = self._groups.get(key)
        if group is not None:
            return group
        user, model, dim = key
        rows = conn.execute(self._sql["vectors"], key).fetchall()
        ids = [r[0] for r in rows]
        matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), dim)
        group = _Group(ids, normalised_rows(matrix) if rows else matrix)
        with self._groups_lock:
            self._groups[key] = group
        log.debug("loaded %d vectors for user %r model %r dim %d", len(ids), user, model, dim)
        return group


def _rows_by_id(conn: sqlite3.Connection, statement: str, ids: list[str]) -> dict[str, tuple]:
    """The rows of the best k hits, one primary-key lookup each (k is small)."""
    rows = (conn.execute(statement, (mid,)).fetchone() for mid in ids)
    return {r[0]: r for r in rows if r is not None}


def _hit(row: Sequence[Any], score: float) -> MemoryHit:
    return MemoryHit(id=row[0], user=row[1], content=row[2], kind=row[3], score=score,
                     created_at=row[4], metadata=json.loads(row[5]) if row[5] else {})
