"""A real PostgreSQL with pgvector on a free loopback port, which a test can kill and restart.

The binaries are the system's (Debian's postgresql-N-pgvector) or the `pgserver` wheel's, see
pg_binaries. When we are root the cluster runs as an unprivileged user (initdb refuses root).
"""

from __future__ import annotations

import atexit
import shutil
import subprocess
import tempfile
from pathlib import Path

from .loopback import free_port, server_missing, wait_for_port
from .pg_binaries import PgBinaries, missing_pgvector_hint, pgvector_binaries


class PgServer:
    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.base = Path(tempfile.mkdtemp(prefix="stacgis-pg-"))
        self.data = self.base / "data"
        self._binaries: PgBinaries | None = None

    @property
    def dsn(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _pg(self, tool: str, args: list[str], timeout: float = 60) -> None:
        binaries = self._binaries
        if binaries is None:
            raise RuntimeError(missing_pgvector_hint())
        done = subprocess.run([str(binaries.bin / tool), *args], capture_output=True, timeout=timeout,
                              user=binaries.run_as)
        if done.returncode != 0:
            raise RuntimeError(f"{tool} failed ({binaries.origin}): {done.stderr.decode(errors='replace')[-600:]}")

    def start(self) -> PgServer:
        if self._binaries is None:
            self._binaries = pgvector_binaries()
            if self._binaries is None:
                raise RuntimeError(missing_pgvector_hint())
            if self._binaries.run_as:
                self.base.chmod(0o755)  # mkdtemp makes it 0700; the cluster's user must enter it
                shutil.chown(self.base, self._binaries.run_as)
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
        except (RuntimeError, subprocess.SubprocessError, OSError):
            pass  # never started, or already gone: nothing to stop
        shutil.rmtree(self.base, ignore_errors=True)


def _start() -> PgServer:
    server = PgServer()
    try:
        return server.start()
    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
        log = server.base / "log"
        detail = log.read_text()[-800:] if log.exists() else ""
        origin = server._binaries.origin if server._binaries else "none found"
        server.stop()
        server_missing(f"cannot start PostgreSQL with pgvector ({origin}): {exc} {detail}".strip())
        raise


_shared: PgServer | None = None
_shared_failure: str | None = None


def shared_pg() -> PgServer:
    """One server for the whole test run (started on first use, stopped at exit). If it cannot
    start, the first test that needs it says why (a failure in CI) and the others skip."""
    global _shared, _shared_failure
    if _shared_failure is not None:
        import pytest

        pytest.skip(f"PostgreSQL with pgvector is unavailable (reported by an earlier test): {_shared_failure}")
    if _shared is None:
        try:
            _shared = _start()
        except BaseException as exc:  # pytest's skip/fail outcomes are BaseExceptions
            _shared_failure = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise
        atexit.register(_shared.stop)
    return _shared


def own_pg() -> PgServer:
    """A server of its own, for a test that kills it; the caller stops it."""
    return _start()
