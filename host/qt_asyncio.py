"""Attaches one asyncio loop to the running QGIS application with qasync.

The loop is shared: if another plugin already installed a qasync loop it is reused. It is
never stopped or closed — qasync's stop() calls app.exit(), which quits QGIS.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Coroutine

LOG = logging.getLogger(__name__)


def attach_event_loop(app=None) -> asyncio.AbstractEventLoop:
    import qasync
    from qgis.core import QgsApplication

    running = asyncio.events._get_running_loop()
    if isinstance(running, qasync.QEventLoop):
        return running
    try:
        current = asyncio.get_event_loop_policy().get_event_loop()
    except RuntimeError:
        current = None
    if isinstance(current, qasync.QEventLoop) and not current.is_closed():
        if current.is_running():
            asyncio.events._set_running_loop(current)  # it runs inside Qt's loop on this thread
        return current
    loop = qasync.QEventLoop(app or QgsApplication.instance(), already_running=True)
    asyncio.set_event_loop(loop)
    LOG.debug("qasync event loop attached to the QGIS application")
    return loop


class TaskRegistry:
    """Every task the plugin starts, so unload can cancel them all."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self._loop = loop
        self._tasks: set[asyncio.Task] = set()
        self._kept: set[asyncio.Task] = set()

    def start(self, coro: Coroutine, name: str | None = None, keep: bool = False) -> asyncio.Task:
        """`keep`: the task outlives `cancel_all()` (closing connections after unload)."""
        task = self._loop.create_task(coro, name=f"stacgis_agent:{name or 'task'}")
        (self._kept if keep else self._tasks).add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        self._kept.discard(task)
        if not task.cancelled() and task.exception() is not None:
            LOG.error("Background task %s failed: %s", task.get_name(), task.exception())

    @property
    def active(self) -> int:
        return len(self._tasks)

    def cancel_all(self) -> None:
        for task in list(self._tasks):
            task.cancel()
