"""Fixtures for tests that run inside QGIS (pytest-qgis, offscreen)."""

from __future__ import annotations

import asyncio

import pytest
import qasync
from qgis.core import QgsProject

from testkit.plugin_driver import process_until


@pytest.fixture
def qt_process_until():
    return process_until


@pytest.fixture(autouse=True)
def _detach_running_loop():
    """The plugin attaches qasync with already_running=True, as inside a real QGIS; the test
    process has no running Qt loop, so drop that marker after each test so other tests can
    run their own asyncio loops."""
    yield
    asyncio.events._set_running_loop(None)


@pytest.fixture(scope="session", autouse=True)
def _clean_exit():
    # QGIS can crash at exit ("double free") while layers are still registered.
    yield
    QgsProject.instance().removeAllMapLayers()


@pytest.fixture
def qloop(qgis_app):
    """The plugin's kind of loop (qasync on the Qt app), for tests that run it themselves; closed
    afterwards: a closed loop drops its socket notifiers, which would otherwise fire on reused file
    descriptors in later tests."""
    loop = qasync.QEventLoop(qgis_app)
    asyncio.set_event_loop(loop)
    yield loop
    pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
    for task in pending:
        task.cancel()
    loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    loop.run_until_complete(loop.shutdown_asyncgens())
    loop.close()
    asyncio.set_event_loop(None)
