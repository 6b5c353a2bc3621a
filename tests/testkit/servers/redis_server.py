"""A real redis-server on a free loopback port, which a test can kill and restart."""

from __future__ import annotations

import atexit
import shutil
import signal
import subprocess
import time

from .loopback import free_port, server_missing, wait_for_port


class RedisServer:
    def __init__(self, port: int | None = None, password: str = ""):
        self.port = port or free_port()
        self.password = password  # "" = no AUTH; the URL never carries it (it lives in an auth config)
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        exe = shutil.which("redis-server")
        if exe is None:
            raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
        self._proc = subprocess.Popen(
            [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--daemonize", "no", "--protected-mode", "no",
             *(["--requirepass", self.password] if self.password else [])],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not wait_for_port(self.port):
            self.stop()
            raise RuntimeError(f"redis-server did not listen on port {self.port}")
        return self

    def kill(self) -> None:
        """Dies at once, like a crashed server: no data survives (no persistence configured)."""
        if self._proc is not None:
            self._proc.send_signal(signal.SIGKILL)
            self._proc.wait(5)
            self._proc = None

    def restart(self) -> None:
        self.kill()
        deadline = time.monotonic() + 5
        while True:  # the port may linger for a moment after the kill
            try:
                self.start()
                return
            except RuntimeError:
                if time.monotonic() > deadline:
                    raise

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            try:
                self._proc.wait(5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
            self._proc = None


_shared: RedisServer | None = None


def shared_redis() -> RedisServer:
    """One server for the whole test run (started on first use, stopped at exit)."""
    global _shared
    if _shared is None:
        try:
            _shared = RedisServer().start()
        except (RuntimeError, OSError) as exc:
            server_missing(f"cannot start redis-server: {exc}")
        atexit.register(_shared.stop)
    return _shared


def own_redis() -> RedisServer:
    """A server of its own, for a test that kills it; the caller stops it."""
    try:
        return RedisServer().start()
    except (RuntimeError, OSError) as exc:
        server_missing(f"cannot start redis-server: {exc}")
        raise
