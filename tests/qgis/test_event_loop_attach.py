"""The plugin's asyncio loop inside QGIS, and the tests' loop fixture: reused rather than
duplicated, no coroutine left un-awaited when the loop is gone, and no test that can hang."""

from __future__ import annotations

import asyncio
import gc
import time
import warnings

import pytest
import qasync

from stacgis_agent.host.qt_asyncio import TaskRegistry, attach_event_loop
from testkit.qgis_drivers.plugin_driver import process_until
from testkit.qgis_drivers.qt_loop import BoundedQEventLoop, LoopOverrun, close_loop


def test_attach_reuses_the_loop_already_running_in_qgis(qgis_app):
    first = attach_event_loop(qgis_app)
    assert isinstance(first, qasync.QEventLoop) and first.is_running()
    assert asyncio.get_running_loop() is first  # coroutines find it the public way
    assert attach_event_loop(qgis_app) is first  # a reload (or another plugin) shares it

    done = []

    async def work():
        await asyncio.sleep(0.01)
        done.append(True)

    TaskRegistry(first).start(work(), name="probe")
    assert process_until(lambda: done, 5), "a task on the attached loop did not run inside Qt's event loop"


def _never_awaited(caught, name: str) -> list:
    return [w for w in caught if "never awaited" in str(w.message) and name in str(w.message)]


def test_a_task_started_on_a_closed_loop_leaves_no_unawaited_coroutine(qgis_app):
    loop = BoundedQEventLoop(qgis_app)
    loop.close()

    async def closing_probe():
        pass

    gc.collect()  # earlier tests' garbage is not this test's business
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError):
            TaskRegistry(loop).start(closing_probe(), name="shutdown", keep=True)
        gc.collect()
    assert not _never_awaited(caught, "closing_probe")


def test_shutdown_work_is_not_made_until_the_loop_runs_it(qgis_app):
    """Unload's closing work, when QGIS quits before the loop turns again: no coroutine exists to be
    reported as never awaited (Python 3.14 warned about AgentRuntime._close_after)."""
    loop = BoundedQEventLoop(qgis_app)
    asyncio.set_event_loop(loop)
    made, ran = [], []

    async def shutdown_probe():
        ran.append(True)

    def make():
        made.append(True)
        return shutdown_probe()

    try:
        registry = TaskRegistry(loop)
        registry.start_soon(make, name="shutdown", keep=True)
        assert not made  # nothing exists yet that could be left un-awaited
        loop.run_until_complete(asyncio.sleep(0.05))
        assert made and ran  # the next turn of the loop makes and runs it
    finally:
        close_loop(loop)
        asyncio.set_event_loop(None)


def test_a_future_that_never_completes_fails_the_test_instead_of_hanging(qgis_app):
    loop = BoundedQEventLoop(qgis_app)
    asyncio.set_event_loop(loop)
    started = time.monotonic()
    try:
        with pytest.raises(LoopOverrun, match="ran past 1 s"):
            loop.run_until_complete(asyncio.Event().wait(), deadline_s=1)
        assert time.monotonic() - started < 10
    finally:
        close_loop(loop)
        asyncio.set_event_loop(None)


def test_closing_names_a_task_that_ignores_cancellation(qgis_app):
    loop = BoundedQEventLoop(qgis_app)
    asyncio.set_event_loop(loop)
    release = []

    async def stubborn():
        while not release:
            try:
                await asyncio.sleep(0.05)
            except asyncio.CancelledError:
                continue  # refuses to stop

    task = loop.create_task(stubborn(), name="stubborn-task")
    loop.run_until_complete(asyncio.sleep(0.1))
    started = time.monotonic()
    try:
        with pytest.raises(LoopOverrun, match="stubborn-task"):
            close_loop(loop, deadline_s=2)
        assert time.monotonic() - started < 10
    finally:
        release.append(True)
        task.cancel()
        asyncio.set_event_loop(None)
