"""One psycopg 3 async connection that fails fast and reconnects on the next call after a drop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from typing import Awaitable, Callable, Sequence, TypeVar

import psycopg
from pgvector.psycopg import register_vector_async

from ..dock_text import translatable
from .errors import StoreUnavailable, first_line

log = logging.getLogger(__name__)
T = TypeVar("T")


def dsn_with_credentials(dsn: str, *, user: str | None = None, password: str | None = None) -> str:
    """The DSN as stored (URL or key=value, no password) plus the credentials from the auth manager,
    quoted by psycopg so a password with quotes or spaces stays intact."""
    from psycopg.conninfo import make_conninfo

    extra = {k: v for k, v in (("user", user), ("password", password)) if v}
    return make_conninfo(dsn, **extra) if extra else dsn


def redacted_dsn(dsn: str) -> str:
    """The DSN without its password, for messages."""
    dsn = re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", dsn)
    return re.sub(r"password\s*=\s*\S+", "password=***", dsn)


class PgConnection:
    """Serialises calls on one autocommit connection (a desktop plugin sends a few queries per
    message); a broken or timed-out connection is dropped and the next call opens a new one."""

    def __init__(self, dsn: str, timeout_s: float = 3.0, setup: Sequence[str] = ()):
        self.dsn = dsn
        self._setup = list(setup)  # fixed statements run on every new connection
        self.timeout_s = timeout_s
        self._conn: psycopg.AsyncConnection | None = None
        self._lock = asyncio.Lock()

    async def _open(self) -> psycopg.AsyncConnection:
        conn = await psycopg.AsyncConnection.connect(
            self.dsn, autocommit=True, connect_timeout=max(2, int(self.timeout_s)))
        cur = await conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'")
        if await cur.fetchone() is None:
            try:
                await conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            except psycopg.errors.InsufficientPrivilege as exc:
                await conn.close()
                raise PermissionError(
                    "the pgvector extension is not installed in this database and this user may not "
                    "install it; ask the database administrator to run: CREATE EXTENSION vector;") from exc
        await register_vector_async(conn)
        for statement in self._setup:
            await conn.execute(statement)
        return conn

    async def run(self, what: str, work: Callable[[psycopg.AsyncConnection], Awaitable[T]],
                  timeout_s: float | None = None) -> T:
        """Runs `work(conn)` with a time limit; connection trouble becomes StoreUnavailable.

        A connection kept from before a server restart only learns it is dead on its next query,
        so a reused connection that breaks is replaced and `work` runs once more on a fresh one."""
        async with self._lock:
            try:
                reused = not self._needs_opening()
                try:
                    return await self._attempt(work, timeout_s)
                except (psycopg.OperationalError, psycopg.InterfaceError, OSError) as exc:
                    if not (reused and self._lost_connection()):
                        raise
                    log.info("PostgreSQL connection from before a restart dropped (%s); retrying once",
                             first_line(exc))
                    await self._drop()
                    return await self._attempt(work, timeout_s)
            except asyncio.CancelledError:
                await asyncio.shield(self._drop())  # a query cut off midway leaves the connection unusable
                raise
            except (psycopg.OperationalError, psycopg.InterfaceError, OSError,
                    asyncio.TimeoutError) as exc:
                await self._drop()
                raise StoreUnavailable.said(translatable(
                    "PostgreSQL at {where} failed while {what} ({why}); check that the server is running and the "
                    "connection settings are right"), where=redacted_dsn(self.dsn), what=what, why=first_line(exc)
                ) from exc

    async def _attempt(self, work: Callable[[psycopg.AsyncConnection], Awaitable[T]],
                       timeout_s: float | None) -> T:
        if self._needs_opening():
            self._conn = await asyncio.wait_for(self._open(), self.timeout_s)
        return await asyncio.wait_for(work(self._conn), timeout_s or self.timeout_s)

    def _needs_opening(self) -> bool:
        return self._conn is None or self._conn.closed or self._conn.broken

    def _lost_connection(self) -> bool:
        """True when the failure was the connection itself (closed by the server), not the query:
        only then can the same work succeed on a new connection."""
        return self._conn is not None and (self._conn.closed or self._conn.broken)

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()

    async def aclose(self) -> None:
        async with self._lock:
            await self._drop()
