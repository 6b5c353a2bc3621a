"""A whole QGIS session in its own process, for the clean-exit check: start QGIS, load the plugin through
classFactory, run a scripted turn that adds a layer, unload, load again, then quit QGIS the way the
application does. Prints CLEAN EXIT when it got to the end; the caller checks the exit status.

    python tests/testkit/qgis_drivers/clean_exit_session.py
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("stacgis_tests_conftest", TESTS / "conftest.py")
spec.loader.exec_module(importlib.util.module_from_spec(spec))  # puts stacgis_agent and testkit on sys.path


def main() -> int:
    import tempfile

    from pytest_qgis.mock_qgis_classes import MockMessageBar
    from pytest_qgis.qgis_interface import QgisInterface
    from qgis.core import QgsApplication, QgsProject
    from qgis.gui import QgsMapCanvas
    from qgis.PyQt.QtWidgets import QMainWindow

    app = QgsApplication([], True)
    app.initQgis()
    window = QMainWindow()
    iface = QgisInterface(QgsMapCanvas(window), MockMessageBar(), window)
    iface.addDockWidget = lambda area, dock: window.addDockWidget(area, dock)
    iface.removeDockWidget = window.removeDockWidget

    from testkit.llm.ollama_emulator import OllamaEmulator, Turn
    from testkit.qgis_drivers.plugin_driver import send, wait_turn
    from testkit.qgis_drivers.plugin_loader import load_plugin, unload_plugin

    with OllamaEmulator() as emu, tempfile.TemporaryDirectory() as data:
        os.environ.update(STACGIS_OLLAMA_URL=emu.url, STACGIS_DATA_DIR=data)
        for _ in range(3):
            unload_plugin(load_plugin(iface))
        plugin = load_plugin(iface)
        emu.script(Turn(tool_calls=[("load_stac_asset", {"collection": "demo-elevation", "item_id": "demo-elevation-lyon"})]),
                   Turn(content="Shown."))
        send(plugin, "Show the elevation")
        wait_turn(plugin, 30)
        layers = [lyr.name() for lyr in QgsProject.instance().mapLayers().values()]
        print("LAYERS", layers, flush=True)
        unload_plugin(plugin)
    QgsProject.instance().removeAllMapLayers()
    app.exitQgis()
    print("CLEAN EXIT", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
