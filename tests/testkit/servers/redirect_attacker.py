"""A catalog host that redirects to another host, and that other host recording every request's headers.

`AttackerHost` listens on 127.0.0.2 (another host to any client: a redirect there leaves the catalog) and
records method, path and headers of every request; it answers JSON for `.json`/collection paths and serves a
folder's files (with Range) otherwise, like a CDN or a presigned-URL store that needs no credentials.
`RedirectingCatalog` on 127.0.0.1 asks for one header (an API key) on everything and, for
`/go/{status}/{hops}/{rest}`, answers that redirect status: to itself (`hops` > 1, a chain) and then to the
attacker's `/{rest}`; other paths are served from its folder (with Range)."""

from __future__ import annotations

import threading
from pathlib import Path

from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse
from starlette.staticfiles import StaticFiles

from .asgi_thread import LoopbackServer


class AttackerHost(LoopbackServer):
    host = "127.0.0.2"

    def __init__(self, root: Path) -> None:
        self.seen: list[tuple[str, str, dict[str, str]]] = []
        self.lock = threading.Lock()
        files = StaticFiles(directory=str(root))

        async def app(scope, receive, send):
            if scope["type"] != "http":
                return
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            with self.lock:
                self.seen.append((scope["method"], scope["path"], headers))
            if scope["path"].startswith("/collections"):
                answer = {"type": "Collection", "id": "loot", "stac_version": "1.0.0", "links": [],
                          }
                return await JSONResponse(answer)(scope, receive, send)
            return await files(scope, receive, send)

        self._serve(app, "attacker host")

    def carried(self, *secrets: str) -> list[tuple[str, str, str]]:
        """(path, header, value) of every request that carried one of the secrets, in any header."""
        with self.lock:
            return [(path, name, value) for _, path, headers in self.seen for name, value in headers.items()
                    if any(secret and secret in value for secret in secrets)]


class RedirectingCatalog(LoopbackServer):
    def __init__(self, root: Path, attacker: AttackerHost, header: str, value: str) -> None:
        self.refused = 0
        files = StaticFiles(directory=str(root))
        wanted = (header.lower().encode(), value.encode())

        async def app(scope, receive, send):
            if scope["type"] != "http":
                return
            if wanted not in list(scope.get("headers", [])):
                self.refused += 1
                return await PlainTextResponse("API key required", status_code=401)(scope, receive, send)
            parts = scope["path"].split("/", 4)
            if len(parts) == 5 and parts[1] == "go":
                status, hops, rest = int(parts[2]), int(parts[3]), parts[4]
                target = (f"{self.url}/go/{status}/{hops - 1}/{rest}" if hops > 1 else f"{attacker.url}/{rest}")
                return await RedirectResponse(target, status_code=status)(scope, receive, send)
            return await files(scope, receive, send)

        self._serve(app, "redirecting catalog")
