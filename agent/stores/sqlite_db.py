"""One SQLite file shared by the embedded stores: WAL mode, one connection, work off the loop thread."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path
from typing import Callable, TypeVar

T = TypeVar("T")
OPEN_TIMEOUT_S = 10.0


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
            deadline = time.monotonic() + OPEN_TIMEOUT_S
            while True:
                try:
                    self._conn = self._open()
                    break
                except sqlite3.OperationalError as exc:
                    # Two QGIS opening a new file at once: switching to WAL and creating the
                    # schema can fail with "locked" without waiting on the busy timeout.
                    if "locked" not in str(exc) and "busy" not in str(exc) or time.monotonic() > deadline:
                        raise self._unusable(exc) from exc
                    time.sleep(0.05)
                except (OSError, sqlite3.Error) as exc:
                    raise self._unusable(exc) from exc
        return self._conn

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(self.path), timeout=10.0, check_same_thread=False, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            if self._schema:
                conn.executescript(self._schema)
        except BaseException:
            conn.close()
            raise
        return conn

    def _unusable(self, exc: Exception) -> OSError:
        return OSError(f"cannot open {self.path} ({exc}); check that the QGIS profile folder "
                       "exists, is writable and the disk is not full")

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
