"""Long loops that must stay on the GUI thread (they read QGIS's auth database or other main-thread state)
give the event loop a turn every SLICE_S, so no single slice of them stalls QGIS: planning a 1,000-item
collection read in one go held the GUI thread for several hundred milliseconds."""

from __future__ import annotations

import asyncio
import contextvars
import functools
import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, AsyncIterator, Callable, Iterable, TypeVar

SLICE_S = 0.01  # well under the 50 ms goal, so the work between two turns never adds up to a visible stall

T = TypeVar("T")


async def in_slices(items: Iterable[T], slice_s: float = SLICE_S) -> AsyncIterator[T]:
    """Yields each item; between two items, lets the loop run when this slice has used its time."""
    started = time.perf_counter()
    for item in items:
        yield item
        if time.perf_counter() - started > slice_s:
            await asyncio.sleep(0)
            started = time.perf_counter()


# -- background threads that yield the CPU to the GUI thread ---------------------------------------------
# On a busy machine a GUI-thread stall is mostly the GUI thread waiting for a CPU, not working: in
# bench/bench_layer_loading_stall.py beside two busy processes, of 5.1 s of late beats the GUI thread ran
# 0.23 s and waited 4.9 s in the run queue, behind the plugin's own GDAL threads among others. Threads
# that run the plugin's GDAL and pixel work therefore run at a lower priority than the GUI thread
# (their own, per thread: QGIS's threads and the rest of the process keep theirs).

BACKGROUND_NICE = 5  # a quarter of the GUI thread's share of a contended CPU; the work still runs at once when idle
_pool_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None


def lower_this_threads_priority(step: int = BACKGROUND_NICE) -> bool:
    """Lowers the calling thread's priority (Linux: threads have their own nice value). False where it
    cannot (other systems); the work then runs as before."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + step))
        return True
    except (OSError, AttributeError):
        return False


def background_pool() -> ThreadPoolExecutor:
    """The plugin's threads for GDAL/pixel work, at the lower priority (made once, on first use)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=min(8, (os.cpu_count() or 2) + 2),
                                       thread_name_prefix="stacgis-background",
                                       initializer=lower_this_threads_priority)
        return _pool


async def in_background(fn: Callable[..., T], *args: Any) -> T:
    """`asyncio.to_thread` on the background pool (the caller's context variables go along)."""
    loop = asyncio.get_running_loop()
    context = contextvars.copy_context()
    return await loop.run_in_executor(background_pool(), functools.partial(context.run, fn, *args))
