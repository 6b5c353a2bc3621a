"""A COG folder served over HTTP (with Range) that answers 401 unless the request carries a given header,
like a catalog whose assets need a token; it counts refused requests."""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from .asgi_thread import LoopbackServer
from .loopback import free_port


class ProtectedCogServer(LoopbackServer):
    def __init__(self, root: Path, header: str, value: str) -> None:
        self.port = free_port()
        self.root = Path(root)
        self.refused = 0
        files = Starlette(routes=[Mount("/", app=StaticFiles(directory=str(root)))])
        wanted = (header.lower().encode(), value.encode())

        async def guard(scope, receive, send):
            if scope["type"] == "http" and wanted not in list(scope.get("headers", [])):
                self.refused += 1
                return await PlainTextResponse("token required", status_code=401)(scope, receive, send)
            return await files(scope, receive, send)

        self._serve(guard, "protected COG server")


