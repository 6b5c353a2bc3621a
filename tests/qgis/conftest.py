"""Fixtures for tests that run inside QGIS (pytest-qgis, offscreen).

`make test-qt6` also runs the ui/ widget tests from here under PyQt6 through a qgis.PyQt shim
(tests/qt6_shim, no qgis.core): there a bare QApplication stands in for pytest-qgis' qgis_app."""

from __future__ import annotations

import asyncio
import gc
import os

import pytest

from testkit.qgis_drivers.qt_loop import BoundedQEventLoop, close_loop, forget_running_loop

QT6_SHIM = os.environ.get("STACGIS_QT6_SHIM") == "1"

if QT6_SHIM:
    from testkit.qgis_drivers.qt6_app import qgis_app  # noqa: F401  (a fixture)


@pytest.fixture
def qt_process_until():
    from testkit.qgis_drivers.plugin_driver import process_until

    return process_until


@pytest.fixture(autouse=True)
def _collect_widgets_now():
    """Widgets a test made without a parent are freed by Python's cycle collector. Left to chance,
    it can run inside a Qt virtual call of the very widget it frees (a QTreeView's layout timer:
    a crash in QAbstractSlider::setRange). Collect at the end of each test, outside any Qt call."""
    yield
    gc.collect()


@pytest.fixture(autouse=True)
def _detach_running_loop():
    """The plugin attaches qasync with already_running=True, as inside a real QGIS; the test
    process has no running Qt loop, so drop that marker after each test so other tests can
    run their own asyncio loops."""
    yield
    forget_running_loop()


@pytest.fixture(scope="session", autouse=True)
def _clean_exit():
    # QGIS can crash at exit ("double free") while layers are still registered.
    yield
    if not QT6_SHIM:
        from qgis.core import QgsProject

        QgsProject.instance().removeAllMapLayers()


@pytest.fixture
def qloop(qgis_app):
    """The plugin's kind of loop (qasync on the Qt app), for tests that run it themselves; closed
    afterwards: a closed loop drops its socket notifiers, which would otherwise fire on reused file
    descriptors in later tests. Neither the test nor the teardown can hang (testkit.qgis_drivers.qt_loop)."""
    loop = BoundedQEventLoop(qgis_app)
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        try:
            close_loop(loop)
        finally:
            asyncio.set_event_loop(None)
