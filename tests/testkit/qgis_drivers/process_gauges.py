"""What a leak shows up in: resident memory, open file descriptors, OS threads, Python threads and the
asyncio tasks still pending on the plugin's loop."""

from __future__ import annotations

import asyncio
import gc
import os
import threading
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Gauges:
    rss_mb: float
    fds: int
    os_threads: int
    py_threads: int
    tasks: int

    def growth(self, later: Gauges) -> dict[str, float]:
        return {k: round(v - getattr(self, k), 1) for k, v in asdict(later).items()}


def _status(field: str) -> str:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith(field + ":"):
                return line.split(":", 1)[1].strip()
    return "0"


def _current_loop() -> asyncio.AbstractEventLoop:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.get_event_loop()  # the loop set on this thread (the policy API is deprecated in 3.14)


def read_gauges(loop: asyncio.AbstractEventLoop | None = None) -> Gauges:
    gc.collect()
    loop = loop or _current_loop()
    pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
    return Gauges(rss_mb=round(int(_status("VmRSS").split()[0]) / 1024, 1), fds=len(os.listdir("/proc/self/fd")),
                  os_threads=int(_status("Threads")), py_threads=threading.active_count(), tasks=len(pending))
