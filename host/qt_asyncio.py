"""Attaches one asyncio loop to the running QGIS application with qasync.

The loop is shared: if another plugin already installed a qasync loop it is reused. It is
never stopped or closed — qasync's stop() calls app.exit(), which quits QGIS.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Callable, Coroutine

LOG = logging.getLogger(__name__)


def attach_event_loop(app=None) -> asyncio.AbstractEventLoop:
    """The qasync loop running inside QGIS's Qt loop on this thread: the one already attached
    (by this plugin earlier, or another plugin), else a new one. Public asyncio API only: qasync
    marks a loop made with already_running=True as this thread's running loop itself."""
    import qasync
    from qgis.core import QgsApplication

    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if isinstance(running, qasync.QEventLoop) and not running.is_closed():
        return running
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
        try:
            task = self._loop.create_task(coro, name=f"stacgis_agent:{name or 'task'}")
        except BaseException:
            coro.close()  # never leave a coroutine that was not awaited (the loop is closed)
            raise
        (self._kept if keep else self._tasks).add(task)
        task.add_done_callback(self._finished)
        return task

    def start_soon(self, make_coro: Callable[[], Coroutine], name: str | None = None, keep: bool = False) -> None:
        """Starts the task on the loop's next turn, making the coroutine only then: when nothing runs
        the loop again (QGIS quitting right after unload), no coroutine is left never awaited."""
        self._loop.call_soon(lambda: self.start(make_coro(), name=name, keep=keep))

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
