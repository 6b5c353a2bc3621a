"""A qasync loop for tests that cannot hang: run_until_complete has a deadline that fails loudly.

While Qt sits idle in app.exec(), Python never runs, so neither pytest-timeout's signal nor
Ctrl-C can interrupt a test whose awaited future never completes (seen on QGIS 3.44 / Python
3.14 tearing down the loop after Stop/unload tests). A Qt timer stops the loop at the deadline
and the test fails with the tasks still pending.
"""

from __future__ import annotations

import asyncio
import time

import qasync
from qgis.PyQt.QtCore import QCoreApplication, QTimer

DEADLINE_S = 60.0


class LoopOverrun(AssertionError):
    pass


class BoundedQEventLoop(qasync.QEventLoop):
    deadline_s = DEADLINE_S

    def run_forever(self):
        try:
            return super().run_forever()
        finally:
            # qasync processes Qt events once more after run_forever has cleared the running loop; on
            # Python 3.14 a task stepped then fails ("is not the running loop") and waits forever.
            asyncio._set_running_loop(self)

    def run_until_complete(self, future, deadline_s: float | None = None):
        limit = self.deadline_s if deadline_s is None else deadline_s
        overran = []

        def overrun() -> None:
            overran.append(True)
            self.stop()

        guard = QTimer()
        guard.setSingleShot(True)
        guard.timeout.connect(overrun)
        guard.start(int(limit * 1000))
        # Python gets the CPU every 100 ms, so signal handlers (pytest-timeout, Ctrl-C) still run.
        tick = QTimer()
        tick.timeout.connect(lambda: None)
        tick.start(100)
        previous = asyncio._get_running_loop()
        try:
            return super().run_until_complete(future)
        except RuntimeError:
            if overran:
                raise LoopOverrun(f"the qasync loop ran past {limit:.0f} s; still pending: "
                                  f"{describe_pending(self)}") from None
            raise
        finally:
            asyncio._set_running_loop(previous)
            guard.stop()
            tick.stop()


def forget_running_loop(settle_s: float = 2.0) -> None:
    """The plugin attaches qasync with already_running=True, as inside a real QGIS, which marks it
    as this thread's running loop; the test process has no running Qt loop, so the next test (and
    its own asyncio loops) must not see that mark. Its tasks (unload's closing) get up to `settle_s`
    to finish first: once unmarked, Python 3.14 refuses to step them. The tests' only low-level
    asyncio calls: event loops themselves (qasync) set this mark, and no public API clears it."""
    loop = asyncio._get_running_loop()
    if loop is not None and not loop.is_closed():
        deadline, rounds = time.monotonic() + settle_s, 0
        # a few rounds at least: work scheduled with call_soon (unload's closing) is not a task yet
        while (rounds < 5 or any(not t.done() for t in asyncio.all_tasks(loop))) and time.monotonic() < deadline:
            QCoreApplication.processEvents()
            rounds += 1
            time.sleep(0.005)
    asyncio._set_running_loop(None)


def describe_pending(loop: asyncio.AbstractEventLoop) -> str:
    pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
    return ", ".join(f"{t.get_name()} ({t.get_coro()!r})" for t in pending) or "no tasks"


def close_loop(loop: BoundedQEventLoop, deadline_s: float = 20.0) -> None:
    """Cancels what is left, gives it `deadline_s` to finish, and closes the loop: a task that
    ignores cancellation fails the test by name instead of hanging the run."""
    pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
    for task in pending:
        task.cancel()
    stuck: set[asyncio.Task] = set()
    if pending:
        _, stuck = loop.run_until_complete(asyncio.wait(pending, timeout=deadline_s / 2), deadline_s=deadline_s)
    loop.run_until_complete(loop.shutdown_asyncgens(), deadline_s=deadline_s)
    names = ", ".join(t.get_name() for t in stuck)
    loop.close()
    if stuck:
        raise LoopOverrun(f"tasks ignored cancellation for {deadline_s / 2:.0f} s: {names}")
