"""An ASGI app served by uvicorn in a daemon thread on a free loopback port (the test servers' base)."""

from __future__ import annotations

import threading
import time
from typing import Any

import uvicorn

from .loopback import free_port


class LoopbackServer:
    """Subclasses build their app, then call `_serve(app, "what it is")` in their __init__."""

    port: int
    host = "127.0.0.1"  # another loopback address (127.0.0.2) is another host to a client: an attacker's

    def _serve(self, app: Any, what: str) -> None:
        self.port = getattr(self, "port", None) or free_port(self.host)
        self._what = what
        self._server = uvicorn.Server(uvicorn.Config(app, host=self.host, port=self.port, log_level="warning",
                                                     lifespan="off"))
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self):
        self._thread = threading.Thread(target=self._server.run, name=self._what, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError(f"the {self._what} did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        if self._thread:
            self._thread.join(10)
