"""A COG folder served over HTTP (with Range) that answers 401 unless the request carries a given header,
like a catalog whose assets need a token; it counts refused requests."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from .servers import free_port


class ProtectedCogServer:
    def __init__(self, root: Path, header: str, value: str) -> None:
        self.port = free_port()
        self.refused = 0
        files = Starlette(routes=[Mount("/", app=StaticFiles(directory=str(root)))])
        wanted = (header.lower().encode(), value.encode())

        async def guard(scope, receive, send):
            if scope["type"] == "http" and wanted not in list(scope.get("headers", [])):
                self.refused += 1
                return await PlainTextResponse("token required", status_code=401)(scope, receive, send)
            return await files(scope, receive, send)

        self._server = uvicorn.Server(uvicorn.Config(guard, host="127.0.0.1", port=self.port, log_level="warning",
                                                     lifespan="off"))
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ProtectedCogServer:
        self._thread = threading.Thread(target=self._server.run, name="protected-cogs", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the protected COG server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        if self._thread:
            self._thread.join(10)
