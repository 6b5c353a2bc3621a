"""Planetary Computer on loopback: a SAS token API (`/api/sas/v1/token/{collection}` and `/sign?href=`) that
issues tokens expiring after `ttl_s`, in front of a COG folder that refuses (403, like Azure Blob) any read
without a valid, unexpired token in its query string. It counts tokens issued and reads refused."""

from __future__ import annotations

import secrets
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route
from starlette.staticfiles import StaticFiles

from .asgi_thread import LoopbackServer
from .loopback import free_port


class PlanetaryComputerEmulator(LoopbackServer):
    def __init__(self, root: Path, ttl_s: float = 3600.0) -> None:
        self.port = free_port()
        self.ttl_s = ttl_s
        self.lock = threading.Lock()
        self.tokens: dict[str, float] = {}  # token -> expiry (epoch seconds)
        self.issued: list[str] = []  # collection (or "sign") per token issued
        self.refused = 0
        self.served = 0
        self.token_api_up = True
        self.blob_failure: int | None = None  # a status every blob read answers (a store failing), whatever its token
        files = StaticFiles(directory=str(root))

        def new_token(label: str) -> tuple[str, str]:
            expiry = time.time() + self.ttl_s
            token = f"st=now&se={int(expiry)}&sp=rl&sv=2021-06-08&sr=c&sig={secrets.token_urlsafe(12)}"
            with self.lock:
                self.tokens[token] = expiry
                self.issued.append(label)
            stamp = datetime.fromtimestamp(expiry, timezone.utc).replace(tzinfo=None).isoformat(timespec="seconds")
            return token, stamp

        async def token(request):
            if not self.token_api_up:
                return PlainTextResponse("token service unavailable", status_code=503)
            value, stamp = new_token(request.path_params["collection"])
            return JSONResponse({"msft:expiry": stamp, "token": value})

        async def sign(request):
            if not self.token_api_up:
                return PlainTextResponse("token service unavailable", status_code=503)
            value, stamp = new_token("sign")
            return JSONResponse({"msft:expiry": stamp, "href": request.query_params["href"] + "?" + value})

        api = Starlette(routes=[Route("/api/sas/v1/token/{collection}", token),
                                Route("/api/sas/v1/sign", sign)])

        async def app(scope, receive, send):
            if scope["type"] == "http" and scope["path"].startswith("/api/"):
                return await api(scope, receive, send)
            if scope["type"] == "http" and self.blob_failure:
                return await PlainTextResponse("InternalError", status_code=self.blob_failure)(scope, receive, send)
            if scope["type"] == "http":
                query = scope.get("query_string", b"").decode()
                expiry = self.tokens.get(query)
                if expiry is None or expiry < time.time():
                    with self.lock:
                        self.refused += 1
                    reason = "Signature not valid in the specified time frame" if expiry else "NoAuthenticationInformation"
                    return await PlainTextResponse(f"AuthenticationFailed: {reason}",
                                                   status_code=403)(scope, receive, send)
                with self.lock:
                    self.served += 1
                scope = {**scope, "query_string": b""}
            return await files(scope, receive, send)

        self._serve(app, "Planetary Computer emulator")

    @property
    def token_url(self) -> str:
        return f"{self.url}/api/sas/v1/token/"

    @property
    def sign_url(self) -> str:
        return f"{self.url}/api/sas/v1/sign?href="

    def valid_query(self, query: str) -> bool:
        return self.tokens.get(query, 0) > time.time()


