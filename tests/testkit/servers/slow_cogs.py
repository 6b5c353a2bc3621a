"""A folder served over loopback HTTP (Range included) `delay_s` late on every request, counting how many
requests (and how many files) are in flight at once (tests see whether tool calls read one after the other or together) and
which file each request asked for."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from .asgi_thread import LoopbackServer


class _InFlight:
    def __init__(self, app, server: SlowCogServer) -> None:
        self.app = app
        self.server = server

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        with self.server.lock:
            self.server.in_flight += 1
            self.server.peak_in_flight = max(self.server.peak_in_flight, self.server.in_flight)
            self.server.requests += 1
            self.server.paths.append(scope["path"])
            reading = self.server.files_in_flight
            reading[scope["path"]] = reading.get(scope["path"], 0) + 1
            self.server.peak_files_in_flight = max(self.server.peak_files_in_flight, len(reading))
        try:
            await asyncio.sleep(self.server.delay_s)
            return await self.app(scope, receive, send)
        finally:
            with self.server.lock:
                self.server.in_flight -= 1
                reading = self.server.files_in_flight
                reading[scope["path"]] -= 1
                if not reading[scope["path"]]:
                    del reading[scope["path"]]


class SlowCogServer(LoopbackServer):
    def __init__(self, root: Path, delay_s: float) -> None:
        from starlette.staticfiles import StaticFiles

        self.root = Path(root)
        self.delay_s = delay_s
        self.lock = threading.Lock()
        self.in_flight = self.peak_in_flight = self.requests = 0
        self.paths: list[str] = []  # each request's path, in the order they came
        # files with a request in flight: one call may read one file in several ranges at once, two calls may not
        self.files_in_flight: dict[str, int] = {}
        self.peak_files_in_flight = 0
        self._serve(_InFlight(StaticFiles(directory=str(self.root)), self), "slow COG server")

    def start(self) -> SlowCogServer:
        super().start()
        from osgeo import gdal

        gdal.VSICurlClearCache()  # a port reused from an earlier server must not be answered from GDAL's cache
        return self
