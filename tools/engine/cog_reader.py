"""Reads Cloud-Optimized GeoTIFFs at plain http(s) URLs without GDAL's network: the header with one ranged GET of
the first bytes (no HEAD), the tiles a read needs as merged ranges, all of an item's files at once and many items
side by side on the reader's own loop (cog_http.py); tiles decoded in the calling worker thread (cog_tiff.py).
A `CogDataset` answers the few calls of a GDAL dataset the collection reads make (stats_worker, grid_windows,
pixel_shift), so they place its pixels exactly as they place GDAL's; a tile in another CRS is warped by GDAL
from an in-memory copy of the window it needs (no network).

Only names the guard of GDAL's dataset names checked are read (gdal_names.plain_url: a plain `/vsicurl/` URL,
whose host the caller's read rules already allowed), with no credentials and no redirect followed. Everything
else is GDAL's: a signed or credentialed name, a proxy, a redirect, a format cog_tiff does not decode; `open_many`
answers None for such a file and the caller opens it with GDAL.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import math
import os
import queue
import statistics
import threading
from collections import deque
from typing import Any, Iterable, Iterator
from urllib.parse import urlsplit

import numpy as np

from . import cog_http, cog_tiff
from .gdal_names import GdalName, plain_url

FIRST_BYTES = 2_048  # the first read of a file when nothing is known yet: a COG's header, mostly (Sentinel-2's);
# a longer one is read on, and the next files of that asset are asked for as many bytes at once (Hints)
MAX_FIRST_BYTES = 262_144  # a learnt first read (header and the tiles right after it) never asks for more
MERGE_GAP = 4_096  # tiles fewer than this many bytes apart are fetched in one range (the gap comes along)
WAIT_S = 0.05  # how often a waiting read looks at Stop
ENABLED = True  # False: GDAL reads every file (tests and bench/ compare both)
# GDAL settings and environment that change how GDAL reaches a URL: with any of them set, GDAL reads (this reader
# has no proxy, credentials or custom certificates)
GDAL_NETWORK_OPTIONS = ("GDAL_HTTP_PROXY", "GDAL_HTTPS_PROXY", "GDAL_HTTP_PROXYUSERPWD", "GDAL_HTTP_HEADERS",
                        "GDAL_HTTP_HEADER_FILE", "GDAL_HTTP_AUTH", "GDAL_HTTP_USERPWD", "GDAL_HTTP_BEARER",
                        "GDAL_HTTP_COOKIE", "GDAL_HTTP_COOKIEFILE", "GDAL_HTTP_UNSAFESSL", "GDAL_HTTP_SSLCERT",
                        "GDAL_HTTP_SSLKEY", "GDAL_HTTP_CAPATH")
CA_OPTIONS = ("GDAL_CURL_CA_BUNDLE", "CURL_CA_BUNDLE", "SSL_CERT_FILE")
PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")
_GDAL_TYPES = {"u1": 1, "u2": 2, "i2": 3, "u4": 4, "i4": 5, "f4": 6, "f8": 7, "i1": 14, "u8": 12, "i8": 13}


class Cancelled(Exception):
    """The user stopped the request while this item was being read."""


class Hints:
    """How many first bytes to ask of a file, learnt from the files of the same name on the same host (the same
    asset of other items) read for the same purpose (one grid): its header and, when they follow it, the tiles
    the reads needed. One request a file where two were needed; the most the last few needed, leaving out those
    needing far more than their median (another zone's tiles, another overview), whose bytes the others would
    fetch for nothing."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str], deque] = {}
        self._lock = threading.Lock()

    @staticmethod
    def key(url: str, purpose: Any) -> tuple:
        parts = urlsplit(url)
        return parts.netloc, parts.path.rsplit("/", 1)[-1], purpose

    def first_bytes(self, url: str, purpose: Any) -> int:
        with self._lock:
            seen = self._seen.get(self.key(url, purpose))
            if not seen:
                return FIRST_BYTES
            middle = statistics.median(seen)  # the largest of the files like most: not one needing another level
            return int(min(MAX_FIRST_BYTES, max(FIRST_BYTES, max(v for v in seen if v <= 1.5 * middle))))

    def learn(self, url: str, purpose: Any, needed_end: int) -> None:
        with self._lock:
            if len(self._seen) > 256:
                self._seen.clear()
            self._seen.setdefault(self.key(url, purpose), deque(maxlen=9)).append(-(-needed_end * 1.05 // 1024) * 1024)


HINTS = Hints()


def usable(options: dict[str, str] | None = None) -> bool:
    """Whether this reader may read plain URLs here: no GDAL network setting or proxy it would not honour."""
    if not ENABLED:
        return False
    from osgeo import gdal

    if any(os.environ.get(v) for v in PROXY_VARIABLES):
        return False
    if any(gdal.GetConfigOption(k) for k in GDAL_NETWORK_OPTIONS):
        return False
    # the certificates GDAL's curl trusts (a company's own authority among them)
    cog_http.CA_FILE = next((v for v in map(gdal.GetConfigOption, CA_OPTIONS) if v), None)
    from .gdal_env import READ_OPTIONS

    return not any(k not in READ_OPTIONS for k in (options or {}))


def open_many(names: Iterable[GdalName], cancel: Any = None, options: dict[str, str] | None = None,
              purpose: Any = None) -> dict[str, CogDataset | None]:
    """Each name's dataset, their headers fetched together; None for a name GDAL must read. `purpose` (hashable:
    the grid) says which earlier files' reads tell how many first bytes to ask."""
    urls = {name: plain_url(name) for name in dict.fromkeys(names)}
    if not usable(options):
        return {name: None for name in urls}
    wanted = {name: url for name, url in urls.items() if url}
    opened: dict[str, CogDataset | None] = {name: None for name in urls}
    if not wanted:
        return opened
    answers = wait(_open_all(list(wanted.values()), purpose), cancel)
    for (name, url), answer in zip(wanted.items(), answers):
        if isinstance(answer, tuple):
            opened[name] = CogDataset(url, *answer, cancel=cancel, purpose=purpose)
    return opened


async def _open_all(urls: list[str], purpose: Any) -> list:
    return await asyncio.gather(*(_open(url, purpose) for url in urls), return_exceptions=True)


async def _open(url: str, purpose: Any) -> tuple[cog_tiff.Header, bytes, int | None]:
    client = cog_http.client()
    asked = HINTS.first_bytes(url, purpose)
    data, size = await client.get_range(url, 0, asked)
    while True:
        try:
            header = cog_tiff.parse(data)
            if len(data) > asked:  # the header was longer than asked: the next files of this asset get all of it
                HINTS.learn(url, purpose, header.end)
            return header, data, size
        except cog_tiff.Short as short:
            if size is not None and (short.end > size or len(data) >= size):
                raise cog_tiff.Unsupported("the header reaches past the end of the file") from None
            more, size = await client.get_range(url, len(data), max(short.end, 2 * len(data)))
            if not more:
                raise cog_tiff.Unsupported("the header reaches past the end of the file") from None
            data += more


COMPUTE_TURNS = (os.cpu_count() or 2) + 1  # reading threads decoding and computing at once; the others wait
_turns: queue.SimpleQueue = queue.SimpleQueue()  # the free turns (a C queue: no Python-level wake-ups)
for _ in range(COMPUTE_TURNS):
    _turns.put({})  # a turn's scratch: the samples of a window read in that turn (_window_array)
_turn = threading.local()


@contextlib.contextmanager
def compute_turns(cancel: Any = None) -> Iterator[None]:
    """In this block the thread works on what the network brought only while it holds one of COMPUTE_TURNS turns,
    and gives its turn back while it waits on the network: 64 reads stay in flight, but 3 threads, not 64, take
    turns on 2 cores (and on the GIL), each finishing its item's work before the next starts."""
    _turn.cancel, _turn.active = cancel, True
    try:
        yield
    finally:
        _turn.active = False
        _give_turn()


def _take_turn() -> None:
    if not getattr(_turn, "active", False) or getattr(_turn, "held", False):
        return
    _turn.scratch = _turns.get()  # no polling for Stop: a turn comes back within one tile's work, and Stop is
    _turn.held = True  # checked after it
    if _turn.cancel is not None and _turn.cancel.is_set():
        raise Cancelled()


def _give_turn() -> None:
    if getattr(_turn, "held", False):
        _turn.held = False
        _turns.put(_turn.scratch)


def wait(coroutine: Any, cancel: Any = None) -> Any:
    """The coroutine's result, run on the reader's loop; Stop cancels it there (its requests are closed)."""
    return _result(cog_http.submit(coroutine), cancel)


def _result(future: concurrent.futures.Future, cancel: Any = None) -> Any:
    _give_turn()  # another thread works while this one waits
    while True:
        try:
            result = future.result(timeout=WAIT_S)
            break
        except concurrent.futures.TimeoutError:
            if cancel is not None and cancel.is_set():
                future.cancel()
                raise Cancelled() from None
    _take_turn()
    return result


@functools.lru_cache(maxsize=64)
def _wkt(epsg: int) -> str:
    from osgeo import osr

    srs = osr.SpatialReference()
    if srs.ImportFromEPSG(epsg) != 0:
        raise cog_tiff.Unsupported(f"EPSG:{epsg} is not known to this PROJ")
    return srs.ExportToWkt()


class CogDataset:
    """A COG at a URL, as the collection reads use a GDAL dataset (one band object per band and level)."""

    def __init__(self, url: str, header: cog_tiff.Header, first: bytes, size: int | None, cancel: Any = None,
                 purpose: Any = None) -> None:
        self.url, self.purpose = url, purpose
        self.header = header
        self.size = size
        self.cancel = cancel
        self.fetched = len(first)  # bytes the server sent for this file
        self._held: list[tuple[int, bytes]] = [(0, first)]  # (start, bytes) ranges already here
        self._coming: list[tuple[list[list[int]], concurrent.futures.Future]] = []  # ranges asked for ahead
        self._lock = threading.Lock()
        full = header.levels[0]
        self.RasterXSize, self.RasterYSize = full.width, full.height
        self.RasterCount = full.samples
        self._wkt = _wkt(header.epsg)

    def GetGeoTransform(self) -> tuple[float, ...]:
        return self.header.geotransform

    def GetProjectionRef(self) -> str:
        return self._wkt

    GetProjection = GetProjectionRef

    def GetRasterBand(self, number: int) -> CogBand:
        return CogBand(self, number, 0)

    def fetch_ahead(self, wanted: list[tuple[int, int]]) -> None:
        """Starts fetching the (start, end) ranges not here yet, without waiting: a read that needs them later takes
        them as they come. An item's second band then crosses the network while its first is decoded, where one
        band after the other left the link idle half of a full-resolution month at 40 ms a request."""
        merged = self._missing(wanted)
        if merged:
            future = cog_http.submit(_fetch(self.url, merged))
            with self._lock:
                self._coming.append((merged, future))

    def cancel_ahead(self) -> None:
        """Cancels what was asked for ahead and not taken (the read ended early: Stop, an error)."""
        with self._lock:
            coming, self._coming = self._coming, []
        for _merged, future in coming:
            future.cancel()

    def ranges(self, wanted: list[tuple[int, int]]) -> list[bytes]:
        """The bytes of each (start, end) range, fetching (merged) what is not here yet."""
        self._take_coming(wanted)
        merged = self._missing(wanted)
        if merged:
            self._keep(merged, wait(_fetch(self.url, merged), self.cancel))
        out = []
        for start, end in wanted:
            data = self._slice(start, end) if end > start else b""
            if data is None:
                raise OSError(f"reading {self.url} failed: bytes {start}-{end - 1} did not come")
            out.append(data)
        return out

    def _missing(self, wanted: list[tuple[int, int]]) -> list[list[int]]:
        """The ranges to fetch for `wanted`: those not here and not coming, merged where close, less what is held."""
        with self._lock:
            coming = [r for merged, _future in self._coming for r in merged]
        missing = sorted({r for r in wanted if r[1] > r[0] and self._slice(*r) is None
                          and not any(c[0] <= r[0] and r[1] <= c[1] for c in coming)})
        merged: list[list[int]] = []
        for start, end in missing:
            if merged and start - merged[-1][1] <= MERGE_GAP:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        return [self._trimmed(start, end) for start, end in merged]

    def _take_coming(self, wanted: list[tuple[int, int]]) -> None:
        """Waits for the ranges asked for ahead that hold bytes of `wanted`, and keeps them."""
        with self._lock:
            due = [c for c in self._coming
                   if any(start < r[1] and r[0] < end for start, end in c[0] for r in wanted if r[1] > r[0])]
        for merged, future in due:
            answers = _result(future, self.cancel)
            with self._lock:
                if (merged, future) not in self._coming:  # another thread took it meanwhile
                    continue
                self._coming.remove((merged, future))
            self._keep(merged, answers)

    def _keep(self, merged: list[list[int]], answers: list) -> None:
        with self._lock:
            for (start, _end), (data, _size) in zip(merged, answers):
                self._held.append((start, data))
                self.fetched += len(data)

    def _trimmed(self, start: int, end: int) -> list[int]:
        """A missing range less the bytes already held at its start (the first read's tail)."""
        for held_start, data in self._held:
            if held_start <= start < held_start + len(data):
                start = held_start + len(data)
        return [start, end]

    def _slice(self, start: int, end: int) -> bytes | memoryview | None:
        pieces, at = [], start
        while at < end:
            for held_start, data in self._held:
                if held_start <= at < held_start + len(data):
                    take = min(end, held_start + len(data))
                    pieces.append(memoryview(data)[at - held_start:take - held_start])  # no copy
                    at = take
                    break
            else:
                return None
        return pieces[0] if len(pieces) == 1 else b"".join(pieces)


async def _fetch(url: str, ranges: list[list[int]]) -> list:
    client = cog_http.client()
    return await asyncio.gather(*(client.get_range(url, start, end) for start, end in ranges))


class CogBand:
    """One band of one level (the full resolution, or an overview) of a CogDataset."""

    def __init__(self, ds: CogDataset, number: int, level: int) -> None:
        if not 1 <= number <= ds.RasterCount:
            raise OSError(f"{ds.url} has {ds.RasterCount} band(s), not band {number}")
        self.ds, self.number, self.level = ds, number, ds.header.levels[level]
        self._level_index = level
        self.XSize, self.YSize = self.level.width, self.level.height
        self.DataType = _GDAL_TYPES.get(self.level.dtype.str[1:], 0)

    def GetOverviewCount(self) -> int:
        return len(self.ds.header.levels) - 1 if self._level_index == 0 else 0

    def GetOverview(self, k: int) -> CogBand:
        return CogBand(self.ds, self.number, k + 1)

    def GetBlockSize(self) -> list[int]:
        return [self.level.tile_width, self.level.tile_height]

    def GetNoDataValue(self) -> float | None:
        return self.ds.header.nodata

    def GetScale(self) -> float | None:
        return self.ds.header.scales.get(self.number, (None, None))[0]

    def GetOffset(self) -> float | None:
        return self.ds.header.scales.get(self.number, (None, None))[1]

    def ReadAsArray(self, xoff: int = 0, yoff: int = 0, xsize: int | None = None, ysize: int | None = None,
                    reuse: bool = False) -> np.ndarray:
        """The window's samples, as GDAL's ReadAsArray gives them (the band's own type). `reuse`: in the scratch
        array of this thread's compute turn, valid until its next such read or wait on the network (for a caller
        that copies the samples out, or warps them, at once)."""
        level = self.level
        xsize = level.width - xoff if xsize is None else xsize
        ysize = level.height - yoff if ysize is None else ysize
        if xoff < 0 or yoff < 0 or xoff + xsize > level.width or yoff + ysize > level.height:
            raise OSError(f"reading {self.ds.url} failed: the window is outside the image")
        tw, th = level.tile_width, level.tile_height
        tiles, wanted = self._tiles(xoff, yoff, xsize, ysize)
        data = self.ds.ranges(wanted)
        HINTS.learn(self.ds.url, self.ds.purpose, _first_read(self.ds.header.end, [r for r in wanted if r[1] > r[0]]))
        out = _window_array((ysize, xsize), level.dtype.newbyteorder("="), reuse)
        fill = self.ds.header.nodata
        for (c, r, _i), raw in zip(tiles, data):
            x0, y0 = c * tw, r * th
            left, top = max(xoff, x0), max(yoff, y0)
            right, bottom = min(xoff + xsize, x0 + tw), min(yoff + ysize, y0 + th)
            tile = level.decode(raw, self.number, fill, bottom - y0, right - x0, top - y0)
            out[top - yoff:bottom - yoff, left - xoff:right - xoff] = tile[:, left - x0:]
        return out

    def fetch_ahead(self, xoff: int, yoff: int, xsize: int, ysize: int) -> None:
        """Starts fetching the tiles of this window (a ReadAsArray of it, or of part of it, takes them later)."""
        level = self.level
        xoff, yoff = max(0, xoff), max(0, yoff)
        xsize, ysize = min(xsize, level.width - xoff), min(ysize, level.height - yoff)
        if xsize > 0 and ysize > 0:
            self.ds.fetch_ahead(self._tiles(xoff, yoff, xsize, ysize)[1])

    def _tiles(self, xoff: int, yoff: int, xsize: int, ysize: int) -> tuple[list, list[tuple[int, int]]]:
        """The window's tiles (column, row, index) and the byte range of each ((0, 0): a tile not in the file)."""
        level = self.level
        tw, th = level.tile_width, level.tile_height
        columns = range(xoff // tw, (xoff + xsize - 1) // tw + 1)
        rows = range(yoff // th, (yoff + ysize - 1) // th + 1)
        tiles = [(c, r, level.tile_index(c, r, self.number)) for r in rows for c in columns]
        wanted = [(level.offsets[i], level.offsets[i] + level.counts[i]) if level.counts[i] else (0, 0)
                  for _c, _r, i in tiles]
        return tiles, wanted


SCRATCH_BYTES = 64_000_000  # a larger window gets an array of its own
_scratch = threading.local()


def _window_array(shape: tuple[int, int], dtype: np.dtype, reuse: bool) -> np.ndarray:
    """An array for a window's samples: with `reuse`, a view of the scratch bytes of the compute turn this thread
    holds (of the thread, outside turns). A fresh array of a full-resolution window (7 MB) is paged in afresh each
    read: a fault every 4 kB, 1-2 s of system time a month; one scratch a thread paged in 7 MB for each of 8
    threads in a process's first question, where 3 turns compute."""
    size = shape[0] * shape[1] * dtype.itemsize
    if not reuse or size > SCRATCH_BYTES:
        return np.empty(shape, dtype)
    held = _turn.scratch if getattr(_turn, "held", False) else _scratch.__dict__
    scratch = held.get("bytes")
    if scratch is None or scratch.size < size:
        scratch = held["bytes"] = np.empty(size, np.uint8)
    return scratch[:size].view(dtype).reshape(shape)


def _first_read(header_end: int, ranges: list[tuple[int, int]]) -> int:
    """What a first read of such a file should have held: the header and the tiles read, when they follow it
    closely (no more bytes between them than in them, or than GDAL's 16 kB chunk) and the whole is small; else
    the header alone."""
    if not ranges:
        return header_end
    start, end = min(r[0] for r in ranges), max(r[1] for r in ranges)
    needed = sum(r[1] - r[0] for r in ranges)
    return end if end <= MAX_FIRST_BYTES and start - header_end <= max(needed, 16_384) else header_end


def is_cog(ds: Any) -> bool:
    return isinstance(ds, CogDataset)


def memory_box(ds: CogDataset, band: CogBand, window: tuple[int, int, int, int], pad: int = 4
               ) -> tuple[int, int, int, int]:
    """(column, row, width, height) of `band`'s pixels that memory_copy holds for `window`."""
    fx, fy = ds.RasterXSize / band.XSize, ds.RasterYSize / band.YSize
    c0 = max(0, math.floor(window[0] / fx) - pad)
    r0 = max(0, math.floor(window[1] / fy) - pad)
    c1 = min(band.XSize, math.ceil((window[0] + window[2]) / fx) + pad)
    r1 = min(band.YSize, math.ceil((window[1] + window[3]) / fy) + pad)
    return c0, r0, c1 - c0, r1 - r0


def memory_copy(ds: CogDataset, band: CogBand, window: tuple[int, int, int, int], pad: int = 4) -> Any:
    """A GDAL dataset in memory holding `band`'s pixels around `window` (full-resolution pixels of `ds`), with
    the georeferencing GDAL gives that level (its pixel size scaled by the full resolution's size over the
    level's): GDAL's warp reads it with no network."""
    from osgeo import gdal_array

    c0, r0, width, height = memory_box(ds, band, window, pad)
    # GDAL reads the scratch array of this thread's compute turn in place (a MEM copy paged in 7 MB afresh per
    # warp): valid until the thread's next read or wait on the network, and the warp that takes it runs before that
    values = band.ReadAsArray(c0, r0, width, height, reuse=True)
    fx, fy = ds.RasterXSize / band.XSize, ds.RasterYSize / band.YSize
    gt = ds.GetGeoTransform()
    px, py = gt[1] * fx, gt[5] * fy  # as GDAL's overview datasets scale it
    mem = gdal_array.OpenArray(values)
    mem.SetGeoTransform((gt[0] + c0 * px, px, 0.0, gt[3] + r0 * py, 0.0, py))
    mem.SetProjection(ds.GetProjectionRef())
    mem.samples = values  # the array outlives the dataset over it
    return mem
