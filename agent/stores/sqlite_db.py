"""One SQLite file shared by the embedded stores: WAL mode, one connection, work off the loop thread."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path
from typing import Callable, TypeVar

T = TypeVar("T")


class SqliteDatabase:
    """A SQLite connection used from worker threads one call at a time.

    WAL with synchronous=NORMAL survives a QGIS crash (only a power cut can lose the last
    commit), and readers in other processes never block the writer."""

    def __init__(self, path: str | Path, schema: str = ""):
        self.path = Path(path)
        self._schema = schema
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._closed = False

    def _connect(self) -> sqlite3.Connection:
        if self._closed:
            raise RuntimeError(f"the store at {self.path} was closed; create a new one")
        if self._conn is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(str(self.path), timeout=10.0, check_same_thread=False,
                                       isolation_level=None)
                conn.execute("PRAGMA journal_mode=WAL")
            except (OSError, sqlite3.Error) as exc:
                raise OSError(f"cannot open {self.path} ({exc}); check that the QGIS profile folder "
                              "exists, is writable and the disk is not full") from exc
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            if self._schema:
                conn.executescript(self._schema)
            self._conn = conn
        return self._conn

    def call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Runs `fn(conn)` inside one transaction on the calling thread."""
        with self._lock:
            conn = self._connect()
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = fn(conn)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return result

    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        return await asyncio.to_thread(self.call, fn)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._conn is not None:
                self._conn.close()
                self._conn = None
