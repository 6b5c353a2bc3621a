"""A QGIS with only its own packages, driven by a test: run by QGIS's bare interpreter (no venv, `-I`),
it loads the plugin from a fresh profile's python/plugins the way Plugins ▸ Install from ZIP does
(qgis.utils.loadPlugin + startPlugin, with an iface stand-in around a real main window and canvas).

    python3 -I tests/testkit/qgis_drivers/zip_install_host.py PROFILE_DIR

Uses nothing but the stdlib, qgis and PyQt: importing anything else here would defeat the point.
Prints one line per step (JSON after the word): `BARE` once it checked that the requirements are not
importable (or `NOT BARE <module>` and exits 3), `STARTED <bool>`, `PAGE {...}` (what the dock shows).
Reads commands on stdin: `INSTALL` clicks Install dependencies and prints `INSTALLED {...}` when pip
is done; `SEND <text>` types into the chat and prints `TURN {...}` when the answer is in; EOF or `QUIT`
unloads the plugin and quits QGIS, printing `CLEAN EXIT`.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from pathlib import Path

PLUGIN = "stacgis_agent"
MUST_BE_ABSENT = ("httpx", "mcp", "qasync", "psycopg")


def say(word: str, value=None) -> None:
    print(word if value is None else f"{word} {json.dumps(value)}", flush=True)


def main(profile: Path) -> int:
    present = [m for m in MUST_BE_ABSENT if importlib.util.find_spec(m) is not None]
    if present:
        say("NOT BARE", present)
        return 3
    say("BARE")

    from qgis.core import QgsApplication, QgsProject

    app = QgsApplication([], True, str(profile))
    app.initQgis()
    QgsApplication.messageLog().messageReceived.connect(
        lambda message, tag, level: print(f"LOG [{tag}] {message}", file=sys.stderr, flush=True))
    iface = _iface()
    plugin = _install_from_zip(profile, iface)
    say("STARTED", plugin is not None)
    if plugin is not None:
        say("PAGE", _page(plugin))
        for command in sys.stdin:
            command = command.strip()
            if command == "QUIT":
                break
            if command == "INSTALL":
                say("INSTALLED", _install(plugin))
            elif command.startswith("SEND "):
                say("TURN", _send(plugin, command[5:]))
        import qgis.utils

        qgis.utils.unloadPlugin(PLUGIN)
        _process_until(lambda: False, 0.5)  # the background shutdown closes its connections
    QgsProject.instance().removeAllMapLayers()
    app.exitQgis()
    say("CLEAN EXIT")
    return 0


def _iface():
    """What the plugin uses of QgisInterface, on a real main window, canvas and message bar."""
    from qgis.core import QgsMapLayer
    from qgis.gui import QgsMapCanvas, QgsMessageBar
    from qgis.PyQt.QtCore import QObject, pyqtSignal
    from qgis.PyQt.QtWidgets import QMainWindow, QMenu, QToolBar

    class Iface(QObject):
        currentLayerChanged = pyqtSignal(QgsMapLayer)

        def __init__(self):
            super().__init__()
            self.window = QMainWindow()
            self.canvas = QgsMapCanvas(self.window)
            self.window.setCentralWidget(self.canvas)
            self.bar = QgsMessageBar(self.window)
            self.toolbar = QToolBar(self.window)
            self.menu = QMenu(self.window)

        def mainWindow(self):  # noqa: N802 (QGIS's names)
            return self.window

        def mapCanvas(self):  # noqa: N802
            return self.canvas

        def messageBar(self):  # noqa: N802
            return self.bar

        def activeLayer(self):  # noqa: N802
            return None

        def addToolBarIcon(self, action):  # noqa: N802
            self.toolbar.addAction(action)

        def removeToolBarIcon(self, action):  # noqa: N802
            self.toolbar.removeAction(action)

        def addPluginToMenu(self, _name, action):  # noqa: N802
            self.menu.addAction(action)

        def removePluginMenu(self, _name, action):  # noqa: N802
            self.menu.removeAction(action)

        def addDockWidget(self, area, dock):  # noqa: N802
            self.window.addDockWidget(area, dock)

        def removeDockWidget(self, dock):  # noqa: N802
            self.window.removeDockWidget(dock)

        def openMessageLog(self):  # noqa: N802
            pass

    return Iface()


def _install_from_zip(profile: Path, iface):
    """What QGIS does once the zip is unpacked into the profile: plugin folder first on sys.path, then
    loadPlugin and startPlugin (classFactory + initGui; an error is reported, not raised)."""
    import qgis.utils

    plugins = profile / "python" / "plugins"
    sys.path[:0] = [str(plugins), str(profile / "python")]
    qgis.utils.iface = iface
    qgis.utils.plugin_paths = [str(plugins)]
    qgis.utils.updateAvailablePlugins()
    if not (qgis.utils.loadPlugin(PLUGIN) and qgis.utils.startPlugin(PLUGIN)):
        return None
    return qgis.utils.plugins[PLUGIN]


def _page(plugin) -> dict:
    panel = plugin.dock.requirements_panel
    showing_panel = plugin.dock.pages.currentWidget() is panel
    return {"requirements_panel": showing_panel, "summary": panel.summary.text(),
            "can_install": not panel.install_button.isHidden() and panel.install_button.isEnabled(),
            "chat": plugin.runtime is not None and plugin.runtime.panel is not None,
            "status": plugin.dock.status.text()}


def _install(plugin) -> dict:
    panel = plugin.dock.requirements_panel
    panel.install_button.click()
    _process_until(lambda: plugin.runtime is not None or panel.install_button.isEnabled(), 500)
    return {**_page(plugin), "pip_output": panel.output.toPlainText()[-3000:]}


def _send(plugin, text: str) -> dict:
    from qgis.PyQt.QtCore import Qt
    from qgis.PyQt.QtTest import QTest

    chat = plugin.runtime.panel
    session = plugin.runtime.session
    chat.input.setFocus()
    QTest.keyClicks(chat.input, text)
    QTest.keyClick(chat.input, Qt.Key.Key_Return)
    _process_until(lambda: session.busy, 5)
    finished = _process_until(lambda: not session.busy, 120)
    return {"finished": finished, "bubbles": [[b.role, b.text()] for b in chat.conversation.bubbles()]}


def _process_until(predicate, timeout: float) -> bool:
    from qgis.PyQt.QtCore import QCoreApplication

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        QCoreApplication.processEvents()
        if predicate():
            return True
        time.sleep(0.01)
    return bool(predicate())


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
