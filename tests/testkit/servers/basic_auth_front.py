"""A team's protected catalog on loopback: one host that asks for HTTP Basic auth on everything, serving
COGs under /cogs/ (with Range) and passing every other request to a real STAC API behind it. It counts
refused requests and remembers which Authorization headers it saw."""

from __future__ import annotations

import base64
from pathlib import Path

import httpx
from starlette.responses import PlainTextResponse, Response
from starlette.staticfiles import StaticFiles

from .asgi_thread import LoopbackServer
from .loopback import free_port

HOP_HEADERS = {"connection", "keep-alive", "transfer-encoding", "content-encoding", "content-length"}


class BasicAuthFront(LoopbackServer):
    def __init__(self, cogs: Path, api_url: str, user: str, password: str) -> None:
        self.port = free_port()
        self.refused = 0
        self.api_url = api_url.rstrip("/")
        expected = b"Basic " + base64.b64encode(f"{user}:{password}".encode())
        files = StaticFiles(directory=str(cogs))

        async def app(scope, receive, send):
            if scope["type"] != "http":
                return
            headers = dict(scope.get("headers", []))
            if headers.get(b"authorization") != expected:
                self.refused += 1
                return await PlainTextResponse("authentication required", status_code=401,
                                               headers={"WWW-Authenticate": 'Basic realm="team"'})(scope, receive, send)
            if scope["path"].startswith("/cogs/"):
                return await files({**scope, "path": scope["path"][len("/cogs"):]}, receive, send)
            body = b""
            while True:
                message = await receive()
                body += message.get("body", b"")
                if not message.get("more_body"):
                    break
            forwarded = {k.decode(): v.decode() for k, v in scope["headers"] if k.decode() not in HOP_HEADERS
                         and k != b"authorization"}
            query = scope.get("query_string", b"").decode()
            async with httpx.AsyncClient(timeout=30) as http:  # Host stays ours, so links point back here
                answer = await http.request(scope["method"], self.api_url + scope["path"] + (f"?{query}" if query else ""),
                                            content=body, headers=forwarded)
            kept = {k: v for k, v in answer.headers.items() if k.lower() not in HOP_HEADERS}
            return await Response(answer.content, status_code=answer.status_code, headers=kept)(scope, receive, send)

        self._serve(app, "Basic-auth front")


