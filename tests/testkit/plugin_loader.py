"""Loading and unloading the real plugin the way QGIS does (classFactory → initGui … unload), for the
end-to-end tier and the soak."""

from __future__ import annotations

import asyncio

from qgis.core import QgsProject

from .plugin_driver import process_until


def dock_into_main_window(iface, monkeypatch) -> None:
    """pytest-qgis' iface leaves addDockWidget a no-op; put docks in its real main window, as QGIS does."""
    window = iface.mainWindow()
    monkeypatch.setattr(iface, "addDockWidget", lambda area, dock: window.addDockWidget(area, dock), raising=False)
    monkeypatch.setattr(iface, "removeDockWidget", window.removeDockWidget, raising=False)


def load_plugin(iface):
    import stacgis_agent

    instance = stacgis_agent.classFactory(iface)
    instance.initGui()
    assert instance.runtime is not None, "the runtime did not start (requirements missing?)"
    return instance


def unload_plugin(instance, settle_s: float = 0.3) -> None:
    """Stops a running turn, unloads, and lets the background shutdown close its connections."""
    runtime = instance.runtime
    if runtime is not None and runtime.session is not None and runtime.session.busy:
        session = runtime.session
        session.stop()
        process_until(lambda: not session.busy, 5)
    instance.unload()
    process_until(lambda: False, settle_s)


def forget_running_loop() -> None:
    """The plugin attaches qasync with already_running=True, as inside a real QGIS, which marks it
    as this thread's running loop; the test process has no running Qt loop, so the next test (and
    its own asyncio loops) must not see that mark. The one low-level asyncio call of the tests:
    event loops themselves (qasync) set this mark, and no public API clears it."""
    asyncio._set_running_loop(None)


def forget_loop() -> None:
    # pytest-qgis' next test must not see the qasync loop marked as running on this thread.
    QgsProject.instance().removeAllMapLayers()
    forget_running_loop()
