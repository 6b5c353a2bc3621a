"""Fixtures for tests that run inside QGIS (pytest-qgis, offscreen)."""

from __future__ import annotations

import asyncio

import pytest
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
