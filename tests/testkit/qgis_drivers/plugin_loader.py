"""Loading and unloading the real plugin the way QGIS does (classFactory → initGui … unload), for the
end-to-end tier and the soak."""

from __future__ import annotations

from qgis.core import QgsProject

from .plugin_driver import process_until
from .qt_loop import forget_running_loop


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


def forget_loop() -> None:
    # pytest-qgis' next test must not see the qasync loop marked as running on this thread.
    QgsProject.instance().removeAllMapLayers()
    forget_running_loop()
