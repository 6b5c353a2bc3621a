"""Driving the loaded plugin as a user would: type into the chat, wait for the turn, while the
Qt event loop (and the qasync loop attached to it) keeps running."""

from __future__ import annotations

import asyncio
import time

from qgis.PyQt.QtCore import QCoreApplication, Qt
from qgis.PyQt.QtTest import QTest


def process_until(predicate, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        QCoreApplication.processEvents()  # what QgsApplication.processEvents is
        if predicate():
            return True
        time.sleep(0.005)
    return bool(predicate())


def send(plugin, text: str) -> None:
    panel = plugin.runtime.panel
    panel.input.setFocus()
    QTest.keyClicks(panel.input, text)
    QTest.keyClick(panel.input, Qt.Key.Key_Return)


def wait_turn(plugin, timeout: float = 20.0) -> None:
    session = plugin.runtime.session
    assert process_until(lambda: not session.busy, timeout), "the turn did not finish"


def run_coroutine(coro, timeout: float = 10.0):
    """Runs a coroutine on the plugin's (already running) qasync loop and returns its result."""
    task = asyncio.ensure_future(coro)
    assert process_until(task.done, timeout), "coroutine did not finish"
    return task.result()


async def until(predicate, timeout: float = 10.0) -> None:
    """Awaits (on a running asyncio loop) until predicate() holds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.01)
