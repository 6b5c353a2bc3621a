"""Byte ranges of files over plain HTTP/1.1, many at once, on one asyncio loop in a thread of its own: the network
of the COG reader (cog_reader.py). No HEAD request (a file's size comes with its first range), keep-alive
connections reused, a cancelled read closes its connection (the server stops sending). A redirect, a proxy or a
failure is the caller's cue to let GDAL read the file instead. httpx costs ~1 ms of CPU a request with dozens in
flight (its pool), this ~0.1 ms: on 2 cores, 2,000 requests a question are the difference.

Stdlib only (it runs on Dask workers too); the loop is private to this module: no asyncio policy is touched.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import ssl
import threading
from typing import Any, Coroutine
from urllib.parse import urlsplit

CONNECTIONS_PER_HOST = 128  # requests in flight to one host (each its own HTTP/1.1 connection)
TIMEOUT_S = 30.0  # no byte for this long: the read fails (GDAL then tries)
RETRIES = 2  # a dropped connection or a 5xx/429 answer is tried again, as GDAL_HTTP_MAX_RETRY does
RETRY_DELAY_S = 0.5
MAX_HEADER_BYTES = 65_536
# A body longer than this and twice the range asked is refused (GDAL then reads the file): a server that ignores
# Range sends the whole file, and 64 reads in flight each holding a whole large file would exhaust QGIS's memory
MIN_BODY_LIMIT = 4 * 1024 * 1024
CA_FILE: str | None = None  # the certificate authorities of https reads (None: the system's)


class HttpError(OSError):
    """The server answered with an error, or the connection failed."""


class Redirected(HttpError):
    """The server sends the reader elsewhere: GDAL reads that file (it follows redirects under its own rules)."""


class _Response(asyncio.BufferedProtocol):
    """One HTTP/1.1 connection: a request at a time, the answer's status, headers and body. A body of known
    length is received straight into one buffer of its size (no copies of megabytes, no growing buffer)."""

    def __init__(self) -> None:
        self.transport: Any = None
        self.buffer = bytearray()  # the head, and a body of unknown length (chunked, or up to the close)
        self.scratch = bytearray(65_536)
        self.body: bytearray | None = None  # the body of known length, filled up to `received`
        self.received = 0
        self.waiter: asyncio.Future | None = None
        self.head: tuple[int, dict[str, str]] | None = None
        self.body_start = 0
        self.closed = False
        self.keep_alive = True
        self.limit = MIN_BODY_LIMIT  # the most body bytes this request may receive

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.waiter is not None and not self.waiter.done():
            if self.head is not None and self._length() is None and not self._chunked():  # read until close
                self._finish(bytes(self.buffer[self.body_start:]))
            else:
                self.waiter.set_exception(HttpError(f"the connection closed: {exc or 'by the server'}"))

    def _filling(self) -> bool:
        """A body of known length is still arriving (once it is whole, what comes - an EOF, stray bytes - goes to
        the scratch buffer: an empty buffer offered to asyncio is a fatal error of the connection, and logged)."""
        return self.body is not None and self.received < len(self.body)

    def get_buffer(self, sizehint: int) -> memoryview:
        if self._filling():
            return memoryview(self.body)[self.received:]
        return memoryview(self.scratch)

    def buffer_updated(self, nbytes: int) -> None:
        if self._filling():
            self.received += nbytes
        else:
            self.buffer += memoryview(self.scratch)[:nbytes]
        if self.waiter is not None and not self.waiter.done():
            try:
                self._parse()
            except HttpError as exc:
                self.waiter.set_exception(exc)

    def request(self, text: bytes, limit: int = MIN_BODY_LIMIT) -> asyncio.Future:
        self.buffer.clear()
        self.limit = limit
        self.body, self.received = None, 0
        self.head, self.body_start = None, 0
        self.waiter = asyncio.get_running_loop().create_future()
        self.transport.write(text)
        return self.waiter

    def _parse(self) -> None:
        if self.head is None:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                if len(self.buffer) > MAX_HEADER_BYTES:
                    raise HttpError("the answer's headers are too long")
                return
            lines = bytes(self.buffer[:end]).decode("latin-1").split("\r\n")
            parts = lines[0].split(" ", 2)
            if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
                raise HttpError(f"not an HTTP/1.x answer: {lines[0][:80]!r}")
            headers: dict[str, str] = {}
            for line in lines[1:]:
                key, _, value = line.partition(":")
                headers[key.strip().lower()] = value.strip()
            self.head, self.body_start = (int(parts[1]), headers), end + 4
            connection = headers.get("connection", "").lower()
            self.keep_alive = parts[0] == "HTTP/1.1" and "close" not in connection
            length = self._length()
            if length is not None and length > self.limit:
                raise HttpError(f"the server sends {length:,} bytes where at most {self.limit:,} were asked "
                                "(no range support?)")
            if length is not None:  # from here on the body goes straight into its own buffer
                arrived = self.buffer[self.body_start:self.body_start + length]
                self.body, self.received = bytearray(length), len(arrived)
                self.body[:len(arrived)] = arrived
                if len(self.buffer) > self.body_start + length:
                    raise HttpError("the server sent more than the answer's length")
        if self.body is not None:
            if self.received >= len(self.body):
                self._finish(self.body)
        elif len(self.buffer) - self.body_start > self.limit:
            raise HttpError(f"the server sends more than the {self.limit:,} bytes asked (no range support?)")
        elif self._chunked():
            body = _dechunked(self.buffer, self.body_start)
            if body is not None:
                self._finish(body)

    def _length(self) -> int | None:
        value = self.head[1].get("content-length") if self.head else None
        if self.head and self.head[0] in (204, 304):
            return 0
        return int(value) if value and value.isdigit() else None

    def _chunked(self) -> bool:
        return bool(self.head) and "chunked" in self.head[1].get("transfer-encoding", "").lower()

    def _finish(self, body: bytes | bytearray) -> None:
        if self.head is not None and self.waiter is not None:  # only ever called once the head is parsed
            self.waiter.set_result((self.head[0], self.head[1], body))


def _dechunked(buffer: bytearray, start: int) -> bytes | None:
    """The body of a chunked answer once it is complete, else None."""
    out, at = bytearray(), start
    while True:
        line_end = buffer.find(b"\r\n", at)
        if line_end < 0:
            return None
        size = int(bytes(buffer[at:line_end]).split(b";")[0] or b"0", 16)
        if size == 0:
            # the last chunk's line and the empty line after it (or after trailers)
            return bytes(out) if buffer.find(b"\r\n\r\n", line_end) >= 0 else None
        if len(buffer) < line_end + 2 + size + 2:
            return None
        out += buffer[line_end + 2:line_end + 2 + size]
        at = line_end + 2 + size + 2


class RangeClient:
    """Range GETs over kept-alive connections, at most CONNECTIONS_PER_HOST to a host at once."""

    def __init__(self) -> None:
        self._idle: dict[tuple[str, str, int], list[_Response]] = {}
        self._slots: dict[tuple[str, str, int], asyncio.Semaphore] = {}
        self._ssl: ssl.SSLContext | None = None
        self._ssl_file: str | None = None
        self.requests = 0

    async def get_range(self, url: str, start: int, end: int) -> tuple[bytes, int | None]:
        """(the bytes start..end-1 of `url` (fewer at the file's end), the file's size when the server says it)."""
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        port = parts.port or (443 if scheme == "https" else 80)
        key = (scheme, parts.hostname or "", port)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        host = parts.hostname if parts.port is None else f"{parts.hostname}:{parts.port}"
        if ":" in (parts.hostname or ""):  # an IPv6 literal keeps its brackets in Host
            host = f"[{parts.hostname}]" + (f":{parts.port}" if parts.port else "")
        text = (f"GET {target} HTTP/1.1\r\nHost: {host}\r\nRange: bytes={start}-{end - 1}\r\n"
                "Accept-Encoding: identity\r\nUser-Agent: stacgis-cog-reader\r\n\r\n").encode("latin-1")
        slots = self._slots.setdefault(key, asyncio.Semaphore(CONNECTIONS_PER_HOST))
        for attempt in range(RETRIES + 1):
            async with slots:
                try:
                    status, headers, body = await self._exchange(key, text, max(2 * (end - start), MIN_BODY_LIMIT))
                except (OSError, asyncio.TimeoutError) as exc:
                    if attempt == RETRIES or isinstance(exc, ssl.SSLError):
                        raise HttpError(f"GET {url}: {exc or type(exc).__name__}") from None
                    continue
            if status in (429, 500, 502, 503, 504) and attempt < RETRIES:
                await asyncio.sleep(RETRY_DELAY_S)
                continue
            return _ranged(url, status, headers, body, start, end)
        raise HttpError(f"GET {url}: no answer")  # not reached: the last attempt returns or raises

    async def _exchange(self, key: tuple[str, str, int], text: bytes, limit: int) -> tuple[int, dict[str, str], bytes]:
        idle = self._idle.setdefault(key, [])
        connection = None
        while idle:
            candidate = idle.pop()
            if not candidate.closed:
                connection = candidate
                break
        reused = connection is not None
        if connection is None:
            connection = await self._connect(key)
        done = False
        try:
            self.requests += 1
            answer = await asyncio.wait_for(connection.request(text, limit), TIMEOUT_S)
            done = True
        except HttpError:
            if reused:  # a kept-alive connection the server had closed: once more on a new one
                connection.transport.close()
                connection = await self._connect(key)
                answer = await asyncio.wait_for(connection.request(text, limit), TIMEOUT_S)
                done = True
            else:
                raise
        finally:
            if not done:  # cancelled (Stop), timed out or failed: the answer may still come; the connection goes
                connection.transport.close()
        if connection.keep_alive and not connection.closed:
            idle.append(connection)
        else:
            connection.transport.close()
        return answer

    async def _connect(self, key: tuple[str, str, int]) -> _Response:
        scheme, host, port = key
        loop = asyncio.get_running_loop()
        context = self._context() if scheme == "https" else None
        _, protocol = await asyncio.wait_for(
            loop.create_connection(_Response, host, port, ssl=context, server_hostname=host if context else None),
            TIMEOUT_S)
        return protocol

    def _context(self) -> ssl.SSLContext:
        if self._ssl is None or self._ssl_file != CA_FILE:  # the certificates GDAL's curl uses
            self._ssl, self._ssl_file = ssl.create_default_context(cafile=CA_FILE), CA_FILE
        return self._ssl

    def close(self) -> None:
        for connections in self._idle.values():
            for connection in connections:
                connection.transport.close()
        self._idle.clear()


def _ranged(url: str, status: int, headers: dict[str, str], body: bytes, start: int, end: int
            ) -> tuple[bytes, int | None]:
    if status == 206:
        total = headers.get("content-range", "").rpartition("/")[2]
        first = headers.get("content-range", "").partition(" ")[2].partition("-")[0]
        if first.strip() != str(start):
            raise HttpError(f"GET {url}: the server sent another range ({headers.get('content-range')})")
        return body, int(total) if total.isdigit() else None
    if status == 200:  # no range support: the whole file came
        return body[start:end], len(body)
    if status == 416:  # the range starts at or past the end
        total = headers.get("content-range", "").rpartition("/")[2]
        return b"", int(total) if total.isdigit() else None
    if 300 <= status < 400:
        raise Redirected(f"GET {url}: redirected ({status})")
    raise HttpError(f"GET {url}: HTTP {status}")


class _LoopThread:
    """An event loop of the reader's own, in a daemon thread, with one RangeClient."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.client = RangeClient()
        self.pid = os.getpid()
        self.thread = threading.Thread(target=self.loop.run_forever, name="stacgis-cog-io", daemon=True)
        self.thread.start()


_io: _LoopThread | None = None
_io_lock = threading.Lock()


def _loop_thread() -> _LoopThread:
    global _io
    with _io_lock:
        if _io is None or _io.pid != os.getpid() or not _io.thread.is_alive():  # a forked worker starts its own
            _io = _LoopThread()
        return _io


def client() -> RangeClient:
    return _loop_thread().client


def submit(coroutine: Coroutine) -> concurrent.futures.Future:
    """Runs `coroutine` on the reader's loop; cancelling the future cancels it there (and closes its requests)."""
    return asyncio.run_coroutine_threadsafe(coroutine, _loop_thread().loop)


def shutdown() -> None:
    """Closes the kept-alive connections and stops the loop (the plugin unloading)."""
    global _io
    with _io_lock:
        io, _io = _io, None
    if io is None or not io.thread.is_alive():
        return
    io.loop.call_soon_threadsafe(io.client.close)
    io.loop.call_soon_threadsafe(io.loop.stop)
    io.thread.join(2)
