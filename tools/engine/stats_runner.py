"""Runs per-item reads with bounded concurrency, in threads of this process or as Dask tasks, streaming each
result and a progress line ("37 / 412 items, 2.1 MB read, ~40 s left"); cancelling stops outstanding reads."""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import heapq
import threading
import time
from dataclasses import dataclass
from typing import AsyncIterator, Awaitable, Callable, Sequence

from .cog_reader import compute_turns
from .stats_worker import ItemResult, ItemTask, read_item

DEFAULT_CONCURRENCY = 8  # HTTP range reads overlap well beyond the core count; GDAL work per item is small
MAX_CONCURRENCY = 64  # small reads (overviews) wait on the network, not on the cores: up to this many at once
SCOUTED_CELLS = 1_000_000  # grids up to this many cells read a scout of each layout first (overviews: always)
READS_MEMORY = 256_000_000  # bytes the reads in flight may hold together (bands, index, mask samples per cell)

ProgressFn = Callable[[int, int, str], Awaitable[None]]


@dataclass
class Progress:
    total: int
    done: int = 0
    bytes_read: int = 0
    started: float = 0.0
    workers: int = 1  # reads running side by side
    item_seconds: float = 0.0  # the done items' own read times, added up

    def line(self) -> str:
        elapsed = time.perf_counter() - self.started
        text = f"{self.done} / {self.total} items, {self.bytes_read / 1e6:.1f} MB read"
        if 0 < self.done < self.total and elapsed > 0.5:
            text += f", ~{self.seconds_left(elapsed):.0f} s left"
        return text

    def seconds_left(self, elapsed: float) -> float:
        """Time left: the items still to read at the measured time per item, `workers` of them at once. Items done
        ÷ time elapsed alone (the first item finishing while 15 others are in flight) said ~1,420 s for 85 s."""
        remaining = self.total - self.done
        by_rate = elapsed / self.done * remaining
        if self.item_seconds <= 0 or self.workers <= 1:
            return by_rate
        by_item = self.item_seconds / self.done * remaining / min(self.workers, remaining)
        return min(by_rate, by_item)


def read_concurrency(tasks: Sequence[ItemTask]) -> int:
    """How many items to read at once: as many as the memory allows, from DEFAULT_CONCURRENCY (full resolution,
    large windows: the cores are the limit) to MAX_CONCURRENCY (overviews: a read is mostly waiting on the
    network, ~10 round trips an item, so a distant server needs many in flight)."""
    grid = getattr(tasks[0], "grid", None) if tasks else None
    if grid is None:
        return DEFAULT_CONCURRENCY
    bands = len(getattr(tasks[0], "bands", {}) or {}) + 2  # the bands, the index, the data mask
    per_cell = 4 * bands + (64 if getattr(tasks[0], "mask", None) is not None else 0)  # up to 8 × 8 mask samples
    fits = READS_MEMORY // max(1, grid.width * grid.height * per_cell)
    return int(max(DEFAULT_CONCURRENCY, min(MAX_CONCURRENCY, fits)))


async def run_items(tasks: Sequence[ItemTask], *, progress: ProgressFn | None = None,
                    concurrency: int | None = None, scheduler: str = "",
                    min_interval_s: float = 0.2) -> AsyncIterator[ItemResult]:
    """Yields each item's result as it completes. `scheduler` = a Dask address: the reads run there."""
    concurrency = read_concurrency(tasks) if concurrency is None else concurrency
    state = Progress(total=len(tasks), started=time.perf_counter(), workers=1 if scheduler else max(1, concurrency))
    source = _dask_results(tasks, scheduler) if scheduler else _thread_results(tasks, concurrency)
    last = 0.0
    if progress is not None:
        await progress(0, state.total, state.line())
    try:
        async for result in source:
            state.done += 1
            state.bytes_read += result.bytes_read
            state.item_seconds += getattr(result, "seconds", 0.0)
            now = time.perf_counter()
            if progress is not None and (now - last >= min_interval_s or state.done == state.total):
                last = now
                await progress(state.done, state.total, state.line())
            yield result
    finally:
        await source.aclose()  # stopped anywhere (even while reporting progress): the reads stop now


async def _thread_results(tasks: Sequence[ItemTask], concurrency: int) -> AsyncIterator[ItemResult]:
    """A window of 2 × concurrency reads in flight, refilled as they finish: waiting on every item's future
    at once cost the GUI thread O(items²) callbacks (0.4 s a 1,000-item call, in many small slices). The first
    item of each layout (its scout) is read first; the other items of that layout start when it is done."""
    cancel = threading.Event()
    workers = max(1, concurrency)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="stacgis-read")
    loop = asyncio.get_running_loop()
    scouts = _scouts(tasks)
    scouting = {id(s): getattr(s, "layout", "") for s in scouts}
    waiting: dict[str, list] = {}  # layout -> its items (place in the reading order, task), until its scout is back
    for place, task in enumerate(_warped_first(tasks)):
        if id(task) not in scouting:
            waiting.setdefault(getattr(task, "layout", ""), []).append((place, task))
    ready: list = []  # a heap: the released items, read in the reading order
    pending: dict = {loop.run_in_executor(pool, _read_in_turns, task, cancel): id(task) for task in scouts}

    def release(items: list) -> None:
        for item in items:
            heapq.heappush(ready, item)

    def refill() -> None:
        # while a scout is out, no more than the workers: its layout's items, released later, queue behind none
        while ready and len(pending) < (workers if scouting else 2 * workers):
            task = heapq.heappop(ready)[1]
            pending[loop.run_in_executor(pool, _read_in_turns, task, cancel)] = id(task)

    if not scouting:  # nothing to learn from first (no layouts): every item may go
        for rest in waiting.values():
            release(rest)
        waiting.clear()
    refill()
    try:
        while pending:
            done, _ = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for future in done:
                layout = scouting.pop(pending.pop(future), None)
                if layout is not None:  # a scout is back: its layout's items may go (the rest of it, once read)
                    release(waiting.pop(layout, []))
            if not scouting:
                for rest in waiting.values():
                    release(rest)
                waiting.clear()
            refill()
            for future in done:
                yield future.result()
    finally:
        # Stop: queued reads never start, running ones abort at their next block (GDAL's progress callback)
        cancel.set()
        for future in pending:
            future.cancel()
        pool.shutdown(wait=False, cancel_futures=True)


def _warped_first(tasks: Sequence[ItemTask]) -> list[ItemTask]:
    """The tasks by date as given, within a date those in a layout other than the grid's (the layout most items
    have) first: their reads are warped, several times longer, and one started last kept a core busy alone at the
    end of a month (0.3 s of its 2.5 s)."""
    layouts = collections.Counter(getattr(t, "layout", "") for t in tasks)
    common = layouts.most_common(1)[0][0] if layouts else ""
    dates: dict[str, int] = {}
    for task in tasks:
        dates.setdefault(getattr(task, "date", ""), len(dates))
    return sorted(tasks, key=lambda t: (dates[getattr(t, "date", "")], getattr(t, "layout", "") == common))


def _read_in_turns(task: ItemTask, cancel: threading.Event) -> ItemResult:
    """read_item, computing only in one of the COG reader's compute turns (this process's threads; a Dask
    worker's own threads are its own)."""
    with compute_turns(cancel):
        return read_item(task, cancel)


def _scouts(tasks: Sequence[ItemTask]) -> list[ItemTask]:
    """The first item of each layout (files in one CRS), read before the others: the COG reader learns from it how
    many bytes hold the header and the tiles the others need, so they ask once, not twice. None on a grid of more
    than SCOUTED_CELLS: an item's read there is many times what a learnt first read may ask (cog_reader's
    MAX_FIRST_BYTES), so the lesson saves one header request a file, and holding every other item back for it
    cost 0.3 s of a full-resolution month's 3.3 s at 40 ms a request (bench_vs_odc_stac.py)."""
    grid = getattr(tasks[0], "grid", None) if tasks else None
    if grid is not None and grid.width * grid.height > SCOUTED_CELLS:
        return []
    first: dict[str, ItemTask] = {}
    for task in tasks:
        first.setdefault(getattr(task, "layout", ""), task)
    return list(first.values())


def _dask_results(tasks: Sequence[ItemTask], scheduler: str) -> AsyncIterator[ItemResult]:
    """dask_runner's own generator, not a wrapper around it: run_items closes it, and its `finally` then stops the
    cluster's reads (a wrapper's aclose would leave the inner generator to the garbage collector)."""
    from . import dask_runner

    return dask_runner.results(tasks, scheduler)
