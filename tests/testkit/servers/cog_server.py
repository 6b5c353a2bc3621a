"""Serves a folder over HTTP with Range support (starlette StaticFiles under uvicorn, in a thread),
counting the bytes sent, the requests per path (HEAD requests apart) and the most requests in flight at once,
and when each request came and was answered, so tests can say how much and how a client fetched. Like a cloud
object store seen from the same region: `latency_s` before each answer's first byte, and `bandwidth` (bytes/s)
shared by every answer's body."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Sequence

import uvicorn
from starlette.applications import Starlette
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles

from .stac_api import free_port


class _Counting:
    def __init__(self, app, server: CogServer) -> None:
        self.app = app
        self.server = server

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path = scope["path"]

        async def counting_send(message):
            if message["type"] == "http.response.body":
                body = len(message.get("body", b""))
                with self.server.lock:
                    self.server.bytes_sent[path] += body
                await self.server.on_the_link(body)
            await send(message)

        started = time.monotonic()
        with self.server.lock:
            self.server.requests[path] += 1
            self.server.connections.add(tuple(scope.get("client") or ()))  # (host, port): one per TCP connection
            if any(k == b"range" for k, _ in scope.get("headers", [])):
                self.server.range_requests[path] += 1
            if scope.get("method") == "HEAD":
                self.server.head_requests[path] += 1
            self.server.in_flight += 1
            self.server.peak_in_flight = max(self.server.peak_in_flight, self.server.in_flight)
        try:
            if self.server.latency_s:
                await asyncio.sleep(self.server.latency_s)
            return await self.app(scope, receive, counting_send)
        finally:
            with self.server.lock:
                self.server.in_flight -= 1
                asked = next((v.decode() for k, v in scope.get("headers", []) if k == b"range"), "")
                self.server.answered.append((path, asked, started, time.monotonic()))


class CogServer:
    def __init__(self, root: Path, routes: Sequence[BaseRoute] = (), latency_s: float = 0.0,
                 bandwidth: float = 0.0) -> None:
        self.root = Path(root)
        self.latency_s = latency_s
        self.bandwidth = bandwidth  # bytes/s of the link every answer shares; 0: loopback's own
        self._link_free_at = 0.0  # when the link has sent everything queued on it
        self.port = free_port()
        self.lock = threading.Lock()
        self.bytes_sent: Counter = Counter()
        self.requests: Counter = Counter()
        self.range_requests: Counter = Counter()
        self.head_requests: Counter = Counter()
        self.connections: set = set()
        self.in_flight = self.peak_in_flight = 0
        self.answered: list[tuple[str, str, float, float]] = []  # (path, Range header, asked at, answered at)
        app = Starlette(routes=[*routes, Mount("/", app=StaticFiles(directory=str(self.root)))])
        config = uvicorn.Config(_Counting(app, self), host="127.0.0.1", port=self.port, log_level="warning",
                                lifespan="off")
        self._server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def href(self, relative: str) -> str:
        return f"{self.url}/{relative.lstrip('/')}"

    def reset_counts(self) -> None:
        with self.lock:
            self.bytes_sent.clear()
            self.requests.clear()
            self.range_requests.clear()
            self.head_requests.clear()
            self.connections.clear()
            self.answered.clear()
            self.peak_in_flight = self.in_flight

    async def on_the_link(self, size: int) -> None:
        """Waits until `size` more bytes have crossed the shared link (queued behind what other answers sent)."""
        if not self.bandwidth or not size:
            return
        now = time.monotonic()
        with self.lock:
            self._link_free_at = max(now, self._link_free_at) + size / self.bandwidth
            done_at = self._link_free_at
        await asyncio.sleep(done_at - now)

    def start(self) -> CogServer:
        self._thread = threading.Thread(target=self._server.run, name="cog-server", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the COG HTTP server did not start")
            time.sleep(0.02)
        # GDAL caches /vsicurl/ answers per URL for the whole process; a server started later on a
        # port an earlier one used must not be answered from that cache.
        from osgeo import gdal

        gdal.VSICurlClearCache()
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        if self._thread:
            self._thread.join(10)
