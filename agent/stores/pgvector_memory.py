"""Long-term memory (or the knowledge base) in PostgreSQL + pgvector, for a team.

One table per store; vectors of every dimension live in one untyped `vector` column and
each dimension gets its own partial HNSW index (cosine), so a switch of embedding model
needs no schema change and vectors of different models are never compared. Every query
is parameterised and filtered by user.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Sequence

import psycopg
from psycopg import sql
from psycopg.types.json import Jsonb

from ..dock_text import translatable
from .base import MemoryHit
from .memory_data import as_vector, checked_table_name, new_memory_id
from .pg_connection import PgConnection

log = logging.getLogger(__name__)

HNSW_MAX_DIM = 2000  # pgvector cannot index wider vectors; those are searched exactly
SCHEMA_VERSION = 1

_MIGRATIONS = {
    1: """
CREATE TABLE IF NOT EXISTS {t} (
    id text PRIMARY KEY,
    user_id text NOT NULL,
    content text NOT NULL,
    kind text NOT NULL DEFAULT '',
    model text NOT NULL DEFAULT '',
    dim integer NOT NULL,
    embedding vector NOT NULL,
    metadata jsonb NOT NULL DEFAULT '{{}}',
    created_at double precision NOT NULL
);
CREATE INDEX IF NOT EXISTS {by_group} ON {t} (user_id, model, dim);
CREATE INDEX IF NOT EXISTS {by_time} ON {t} (user_id, created_at DESC);
""",
}
_HIT_COLUMNS = "id, user_id, content, kind, created_at, metadata"


class PgVectorMemoryStore:
    """Server `MemoryStore`. The plugin creates and migrates the schema on first use."""

    def __init__(self, dsn: str, table: str = "memories", *, timeout_s: float = 3.0,
                 ef_search: int = 64):
        self.table = checked_table_name(table)
        self.ef_search = ef_search
        self._db = PgConnection(dsn, timeout_s, setup=[f"SET hnsw.ef_search = {int(ef_search)}"])
        self._indexed_dims: set[int] | None = None
        self._t = sql.Identifier(self.table)

    async def _ready(self, conn: psycopg.AsyncConnection) -> set[int]:
        """Creates or migrates the table (once per store); the dimensions that already have an HNSW index."""
        if self._indexed_dims is not None:
            return self._indexed_dims
        async with conn.transaction():
            # One migrator at a time when several QGIS start together.
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext('stacgis_schema'))")
            await conn.execute("CREATE TABLE IF NOT EXISTS stacgis_schema (name text PRIMARY KEY, version integer)")
            cur = await conn.execute("SELECT version FROM stacgis_schema WHERE name = %s", (self.table,))
            row = await cur.fetchone()
            version = row[0] if row else 0
            for step in range(version + 1, SCHEMA_VERSION + 1):
                await conn.execute(sql.SQL(_MIGRATIONS[step]).format(
                    t=self._t, by_group=sql.Identifier(self.table + "_by_group"),
                    by_time=sql.Identifier(self.table + "_by_time")))
            await conn.execute("INSERT INTO stacgis_schema (name, version) VALUES (%s, %s) ON CONFLICT (name)"
                               " DO UPDATE SET version = excluded.version", (self.table, SCHEMA_VERSION))
        cur = await conn.execute("SELECT indexname FROM pg_indexes WHERE tablename = %s", (self.table,))
        prefix = self.table + "_hnsw_"
        self._indexed_dims = {int(name[len(prefix):]) for (name,) in await cur.fetchall()
                              if name.startswith(prefix) and name[len(prefix):].isdigit()}
        return self._indexed_dims

    async def _ensure_index(self, conn: psycopg.AsyncConnection, dim: int) -> None:
        indexed = await self._ready(conn)
        if dim in indexed or dim > HNSW_MAX_DIM:
            return
        await conn.execute(sql.SQL(
            "CREATE INDEX IF NOT EXISTS {name} ON {t} USING hnsw ((embedding::vector({d})) vector_cosine_ops)"
            " WHERE dim = {d}").format(name=sql.Identifier(f"{self.table}_hnsw_{dim}"), t=self._t,
                                      d=sql.Literal(dim)))
        indexed.add(dim)

    async def add(self, user: str, content: str, kind: str, embedding: Sequence[float],
                  metadata: dict[str, Any] | None = None, model: str = "", *,
                  memory_id: str | None = None, created_at: float | None = None) -> str:
        vec = as_vector(embedding)
        mid = memory_id or new_memory_id()
        when = time.time() if created_at is None else created_at

        async def work(conn: psycopg.AsyncConnection) -> str:
            await self._ready(conn)
            await conn.execute(sql.SQL(
                "INSERT INTO {t} (id, user_id, content, kind, model, dim, embedding, metadata, created_at)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING").format(t=self._t),
                (mid, user, content, kind, model, int(vec.size), vec, Jsonb(metadata or {}), when))
            await self._ensure_index(conn, int(vec.size))
            return mid

        return await self._db.run(translatable("saving a memory"), work)

    async def add_many(self, rows: Sequence[tuple[str, str, str, Sequence[float], str]]) -> int:
        """Bulk load of (user, content, kind, embedding, model) rows; returns how many were added."""
        async def work(conn: psycopg.AsyncConnection) -> int:
            await self._ready(conn)
            now = time.time()
            dims = set()
            async with conn.cursor() as cur:
                copy_sql = sql.SQL("COPY {t} (id, user_id, content, kind, model, dim, embedding, created_at)"
                                   " FROM STDIN WITH (FORMAT BINARY)").format(t=self._t)
                async with cur.copy(copy_sql) as copy:
                    copy.set_types(["text", "text", "text", "text", "text", "int4", "vector", "float8"])
                    for user, content, kind, embedding, model in rows:
                        vec = as_vector(embedding)
                        dims.add(int(vec.size))
                        await copy.write_row((new_memory_id(), user, content, kind, model, int(vec.size), vec, now))
            for dim in dims:
                await self._ensure_index(conn, dim)
            await conn.execute(sql.SQL("ANALYZE {t}").format(t=self._t))  # so the planner picks HNSW at once
            return len(rows)

        return await self._db.run(translatable("saving memories"), work, timeout_s=3600)

    async def search(self, user: str, query_embedding: Sequence[float], k: int = 5,
                     model: str = "") -> list[MemoryHit]:
        query = as_vector(query_embedding)
        dim = int(query.size)
        d = sql.Literal(dim)

        async def work(conn: psycopg.AsyncConnection) -> list[MemoryHit]:
            await self._ready(conn)
            where = sql.SQL("WHERE dim = {d} AND user_id = %s AND model = %s").format(d=d)
            if dim <= HNSW_MAX_DIM:
                query_sql = sql.SQL(
                    "SELECT {cols}, 1 - ((embedding::vector({d})) <=> %s::vector({d})) FROM {t} {where}"
                    " ORDER BY (embedding::vector({d})) <=> %s::vector({d}) LIMIT %s").format(
                        cols=sql.SQL(_HIT_COLUMNS), d=d, t=self._t, where=where)
                args = (query, user, model, query, int(k))
                if 2 * k <= self.ef_search:  # the connection's ef_search suffices: one round trip
                    rows = await (await conn.execute(query_sql, args)).fetchall()
                else:
                    async with conn.transaction():
                        await conn.execute("SELECT set_config('hnsw.ef_search', %s, true)", (str(2 * k),))
                        rows = await (await conn.execute(query_sql, args)).fetchall()
                if len(rows) >= k:
                    return [_hit(r) for r in rows]
            # The index walk can return too few rows once the user filter has dropped its
            # candidates; the user's own rows are then few enough to rank exactly.
            cur = await conn.execute(sql.SQL(
                "SELECT {cols}, 1 - (embedding <=> %s) FROM {t} {where} ORDER BY embedding <=> %s LIMIT %s"
            ).format(cols=sql.SQL(_HIT_COLUMNS), t=self._t, where=where), (query, user, model, query, int(k)))
            return [_hit(r) for r in await cur.fetchall()]

        return await self._db.run(translatable("searching memories"), work)

    async def exact_search(self, user: str, query_embedding: Sequence[float], k: int = 5,
                           model: str = "") -> list[MemoryHit]:
        """Ranks every vector of the user (no index): the reference for recall measurements."""
        query = as_vector(query_embedding)

        async def work(conn: psycopg.AsyncConnection) -> list[MemoryHit]:
            await self._ready(conn)
            cur = await conn.execute(sql.SQL(
                "SELECT {cols}, 1 - (embedding <=> %s) FROM {t} WHERE dim = %s AND user_id = %s AND model = %s"
                " ORDER BY embedding <=> %s LIMIT %s").format(cols=sql.SQL(_HIT_COLUMNS), t=self._t),
                (query, int(query.size), user, model, query, int(k)))
            return [_hit(r) for r in await cur.fetchall()]

        return await self._db.run(translatable("searching memories"), work, timeout_s=600)

    async def recent(self, user: str, n: int = 10) -> list[MemoryHit]:
        async def work(conn: psycopg.AsyncConnection) -> list[MemoryHit]:
            await self._ready(conn)
            cur = await conn.execute(sql.SQL(
                "SELECT {cols}, 0.0 FROM {t} WHERE user_id = %s ORDER BY created_at DESC LIMIT %s").format(
                    cols=sql.SQL(_HIT_COLUMNS), t=self._t), (user, int(n)))
            return [_hit(r) for r in await cur.fetchall()]

        return await self._db.run(translatable("reading recent memories"), work)

    async def delete(self, user: str, memory_id: str) -> bool:
        async def work(conn: psycopg.AsyncConnection) -> bool:
            await self._ready(conn)
            cur = await conn.execute(sql.SQL("DELETE FROM {t} WHERE id = %s AND user_id = %s").format(
                t=self._t), (memory_id, user))
            return cur.rowcount > 0

        return await self._db.run(translatable("deleting a memory"), work)

    async def update(self, user: str, memory_id: str, content: str, kind: str, embedding: Sequence[float],
                     model: str = "", metadata: dict[str, Any] | None = None) -> bool:
        vec = as_vector(embedding)

        async def work(conn: psycopg.AsyncConnection) -> bool:
            await self._ready(conn)
            cur = await conn.execute(sql.SQL(
                "UPDATE {t} SET content = %s, kind = %s, model = %s, dim = %s, embedding = %s,"
                " metadata = COALESCE(%s, metadata) WHERE id = %s AND user_id = %s").format(t=self._t),
                (content, kind, model, int(vec.size), vec, Jsonb(metadata) if metadata is not None else None,
                 memory_id, user))
            await self._ensure_index(conn, int(vec.size))
            return cur.rowcount > 0

        return await self._db.run(translatable("changing a memory"), work)

    async def models(self, user: str) -> dict[tuple[str, int], int]:
        """How many of the user's memories each (embedding model, dimension) holds."""
        async def work(conn: psycopg.AsyncConnection) -> dict[tuple[str, int], int]:
            await self._ready(conn)
            cur = await conn.execute(sql.SQL("SELECT model, dim, count(*) FROM {t} WHERE user_id = %s"
                                             " GROUP BY model, dim").format(t=self._t), (user,))
            return {(m, int(d)): int(c) for m, d, c in await cur.fetchall()}

        return await self._db.run(translatable("counting memories"), work)

    async def stale(self, user: str, model: str, dim: int, limit: int = 64) -> list[tuple[str, str]]:
        """(id, content) of the user's memories embedded with another model or dimension."""
        async def work(conn: psycopg.AsyncConnection) -> list[tuple[str, str]]:
            await self._ready(conn)
            cur = await conn.execute(sql.SQL("SELECT id, content FROM {t} WHERE user_id = %s AND (model <> %s"
                                             " OR dim <> %s) ORDER BY created_at LIMIT %s").format(t=self._t),
                                     (user, model, int(dim), int(limit)))
            return [tuple(r) for r in await cur.fetchall()]

        return await self._db.run(translatable("reading memories to re-embed"), work)

    async def replace_embedding(self, user: str, memory_id: str, embedding: Sequence[float], model: str) -> None:
        vec = as_vector(embedding)

        async def work(conn: psycopg.AsyncConnection) -> None:
            await self._ready(conn)
            await conn.execute(sql.SQL("UPDATE {t} SET model = %s, dim = %s, embedding = %s"
                                       " WHERE id = %s AND user_id = %s").format(t=self._t),
                               (model, int(vec.size), vec, memory_id, user))
            await self._ensure_index(conn, int(vec.size))

        await self._db.run(translatable("re-embedding a memory"), work)

    async def aclose(self) -> None:
        await self._db.aclose()


def _hit(row: Sequence[Any]) -> MemoryHit:
    return MemoryHit(id=row[0], user=row[1], content=row[2], kind=row[3], created_at=float(row[4]),
                     metadata=dict(row[5] or {}), score=float(row[6]))
