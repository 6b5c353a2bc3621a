"""Long loops that must stay on the GUI thread (they read QGIS's auth database or other main-thread state)
give the event loop a turn every SLICE_S, so no single slice of them stalls QGIS: planning a 1,000-item
collection read in one go held the GUI thread for several hundred milliseconds."""

from __future__ import annotations

import asyncio
import time
from typing import AsyncIterator, Iterable, TypeVar

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
