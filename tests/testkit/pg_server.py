"""A real PostgreSQL 16 with pgvector (the binaries of the `pgserver` wheel) on a free loopback
port, which a test can kill and restart. Runs as the `pgserver` system user when we are root."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
import warnings
from pathlib import Path

from .servers import free_port, server_missing, wait_for_port


def _bin_path() -> Path:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pgserver warns about XDG_RUNTIME_DIR on import
        from pgserver._commands import POSTGRES_BIN_PATH
    return POSTGRES_BIN_PATH


class PgServer:
    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.base = Path(tempfile.mkdtemp(prefix="stacgis-pg-"))
        self.data = self.base / "data"
        self._user: str | None = None

    @property
    def dsn(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _pg(self, tool: str, args: list[str], timeout: float = 60) -> None:
        exe = _bin_path() / tool
        subprocess.run([str(exe), *args], check=True, capture_output=True,
                       timeout=timeout, user=self._user)

    def start(self) -> PgServer:
        bin_path = _bin_path()
        if os.geteuid() == 0:  # initdb refuses root
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # pgserver warns about XDG_RUNTIME_DIR on import
                from pgserver import utils

            self._user = "pgserver"
            utils.ensure_user_exists(self._user)
            utils.ensure_prefix_permissions(self.base)
            utils.ensure_prefix_permissions(bin_path)
            utils.ensure_folder_permissions(bin_path, 0o055)
            utils.ensure_folder_permissions(bin_path.parent / "lib", 0o044)
            shutil.chown(self.base, self._user)
        if not (self.data / "PG_VERSION").exists():
            self._pg("initdb", ["-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "utf8"])
        self._pg("pg_ctl", ["-D", str(self.data), "-w", "-l", str(self.base / "log"), "-o",
                            f"-h 127.0.0.1 -p {self.port} -k {self.base} -c fsync=off "
                            "-c full_page_writes=off", "start"])
        if not wait_for_port(self.port):
            raise RuntimeError(f"PostgreSQL did not listen on port {self.port}")
        return self

    def kill(self) -> None:
        """Stops at once (immediate mode), dropping every client connection like a crash would."""
        self._pg("pg_ctl", ["-D", str(self.data), "-w", "-m", "immediate", "stop"])

    def restart(self) -> None:
        self.start()

    def stop(self) -> None:
        try:
            self._pg("pg_ctl", ["-D", str(self.data), "-w", "-m", "fast", "stop"])
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError):
            pass
        shutil.rmtree(self.base, ignore_errors=True)


def _start() -> PgServer:
    server = PgServer()
    try:
        return server.start()
    except (ImportError, RuntimeError, OSError, subprocess.SubprocessError) as exc:
        log = server.base / "log"
        detail = log.read_text()[-800:] if log.exists() else ""
        server.stop()
        server_missing(f"cannot start PostgreSQL with pgvector (pgserver wheel): {exc} {detail}")
        raise


_shared: PgServer | None = None


def shared_pg() -> PgServer:
    """One server for the whole test run (started on first use, stopped at exit)."""
    global _shared
    if _shared is None:
        _shared = _start()
        atexit.register(_shared.stop)
    return _shared


def own_pg() -> PgServer:
    """A server of its own, for a test that kills it; the caller stops it."""
    return _start()
