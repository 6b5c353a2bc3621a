"""A real QGIS in its own process with the plugin loaded and the outside MCP endpoint enabled, for the
security tier: outside clients (the official Python SDK, the MCP Inspector CLI, the stdio bridge) then
probe it over loopback while the test looks at the files on disk and asks this process for the project.

    SECURITY_HOST_LAYERS='[{"name": "roads", "source": "/data/roads.gpkg|layername=roads", "kind": "vector"}]' \
    STACGIS_DATA_DIR=... STACGIS_MCP_HTTP_ENABLED=true STACGIS_MCP_HTTP_PORT=8765 \
    python tests/testkit/qgis_drivers/security_host.py

Prints `READY <port>` when the endpoint listens (or `STATUS <dock status>` when it did not start),
then `TURN <answer>` after one scripted chat turn (the chat must work either way). Reads commands on
stdin: `LAYERS` prints the project's layer names as JSON, `STATUS` the dock's status line, `LAYOUTS` the print
layouts' names; `HANDLAYOUT <name>` makes a print layout as the analyst would by hand; `CHAT <json [[tool, args], …]>`
runs one chat turn of the analyst in which the model calls those tools; EOF or `QUIT` unloads the plugin and quits
QGIS, printing `CLEAN EXIT`.
"""

from __future__ import annotations

import importlib.util
import json
import os
import queue
import sys
import threading
from pathlib import Path

TESTS = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("stacgis_tests_conftest", TESTS / "conftest.py")
spec.loader.exec_module(importlib.util.module_from_spec(spec))  # puts stacgis_agent and testkit on sys.path


def _stdin_lines() -> queue.Queue:
    lines: queue.Queue = queue.Queue()

    def read() -> None:
        for line in sys.stdin:
            lines.put(line.strip())
        lines.put("QUIT")

    threading.Thread(target=read, daemon=True).start()
    return lines


def main() -> int:
    from pytest_qgis.mock_qgis_classes import MockMessageBar
    from pytest_qgis.qgis_interface import QgisInterface
    from qgis.core import QgsApplication, QgsProject, QgsRasterLayer, QgsVectorLayer
    from qgis.gui import QgsMapCanvas
    from qgis.PyQt.QtWidgets import QMainWindow

    app = QgsApplication([], True)
    app.initQgis()
    from testkit.qgis_drivers.processing_framework import start_processing

    start_processing()  # QGIS's Processing framework, as in the desktop app
    window = QMainWindow()
    iface = QgisInterface(QgsMapCanvas(window), MockMessageBar(), window)
    iface.addDockWidget = lambda area, dock: window.addDockWidget(area, dock)
    iface.removeDockWidget = window.removeDockWidget
    for spec_ in json.loads(os.environ.get("SECURITY_HOST_LAYERS", "[]")):
        kind = QgsRasterLayer if spec_["kind"] == "raster" else QgsVectorLayer
        layer = kind(spec_["source"], spec_["name"], "gdal" if spec_["kind"] == "raster" else "ogr")
        assert layer.isValid(), spec_
        QgsProject.instance().addMapLayer(layer)

    from testkit.llm.ollama_emulator import OllamaEmulator, Turn
    from testkit.qgis_drivers.analyst_view import chat, status_lines
    from testkit.qgis_drivers.plugin_driver import process_until, send, wait_turn
    from testkit.qgis_drivers.plugin_loader import load_plugin, unload_plugin

    commands = _stdin_lines()
    with OllamaEmulator() as emu:
        os.environ["STACGIS_OLLAMA_URL"] = emu.url
        plugin = load_plugin(iface)
        if process_until(lambda: plugin.runtime.endpoint is not None, 15):
            print("READY", plugin.runtime.endpoint.port, flush=True)
        else:
            print("STATUS", json.dumps(status_lines(plugin) + [plugin.dock.status.text()]), flush=True)
        emu.script(Turn(content="The chat still answers."))
        send(plugin, "Are you there?")
        wait_turn(plugin, 30)
        print("TURN", json.dumps(chat(plugin)[-1]), flush=True)
        while True:
            process_until(lambda: not commands.empty(), 0.2)
            if commands.empty():
                continue
            command = commands.get()
            if command == "LAYERS":
                names = sorted(lyr.name() for lyr in QgsProject.instance().mapLayers().values())
                print("LAYERS", json.dumps(names), flush=True)
            elif command == "STATUS":
                print("STATUS", plugin.dock.status.text(), flush=True)
            elif command == "LAYOUTS":
                names = sorted(layout.name() for layout in QgsProject.instance().layoutManager().layouts())
                print("LAYOUTS", json.dumps(names), flush=True)
            elif command.startswith("HANDLAYOUT "):  # the analyst makes a print layout by hand
                from qgis.core import QgsPrintLayout

                layout = QgsPrintLayout(QgsProject.instance())
                layout.initializeDefaults()
                layout.setName(command.split(" ", 1)[1])
                QgsProject.instance().layoutManager().addLayout(layout)
                print(command, "done", flush=True)
            elif command.startswith("CHAT "):  # the analyst's chat turn in which the model calls these tools
                calls = [tuple(call) for call in json.loads(command.split(" ", 1)[1])]
                emu.script(Turn(tool_calls=calls), Turn(content="Done."))
                send(plugin, "Please do it.")
                wait_turn(plugin, 60)
                print(command, json.dumps(chat(plugin)[-1]), flush=True)
            elif command == "QUIT":
                break
        unload_plugin(plugin)
    QgsProject.instance().removeAllMapLayers()
    app.exitQgis()
    print("CLEAN EXIT", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
