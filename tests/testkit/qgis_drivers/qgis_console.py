"""The QGIS Python console, as far as a script it runs can tell: the same interpreter set-up
(`console_sci.ShellScintilla`: a `code.InteractiveInterpreter` with the console's start-up imports, so
`__name__` is "__console__" and `iface` is QGIS's), the editor's Run command
(`exec(open(file).read())`, decoded in the system's encoding), and the QGIS window's layer-tree bridge,
which zooms the canvas to the first layers a project gets (pytest-qgis' iface has none)."""

from __future__ import annotations

import code
import contextlib
import sys
import traceback
from pathlib import Path

# console_sci._init_commands of QGIS 3.22, less the optional 3D module
_START_UP = ["import sys", "import os", "import re", "import math", "from qgis.core import *",
             "from qgis.gui import *", "from qgis.analysis import *", "import processing",
             "from qgis.utils import iface", "from qgis.PyQt.QtCore import *", "from qgis.PyQt.QtGui import *",
             "from qgis.PyQt.QtWidgets import *", "from qgis.PyQt.QtNetwork import *", "from qgis.PyQt.QtXml import *"]


class QgisConsole(code.InteractiveInterpreter):
    """Tracebacks are kept in `errors` (the console prints them in its output pane)."""

    def __init__(self) -> None:
        super().__init__(locals=None)
        self.errors: list[str] = []
        for line in _START_UP:
            self.runsource(line)
        assert not self.errors, self.errors

    def showtraceback(self) -> None:
        self.errors.append(traceback.format_exc())

    def showsyntaxerror(self, filename=None, **kwargs) -> None:
        self.errors.append(traceback.format_exc())

    def run_editor_file(self, path: Path, encoding: str | None = None) -> None:
        """The editor's Run: QGIS 3.22 sends `exec(open('<file>'.encode(fs)).read())` to the shell; the file is
        decoded in the locale's encoding unless one is given (cp1252 on many Windows installs)."""
        opened = f"open({str(path)!r}.encode({sys.getfilesystemencoding()!r})"
        opened += f", encoding={encoding!r})" if encoding else ")"
        self.runsource(f"exec({opened}.read())")


@contextlib.contextmanager
def window_bridge(iface):
    """A real QgsLayerTreeMapCanvasBridge between the project's layer tree and iface's canvas, reachable as
    `iface.layerTreeCanvasBridge()`, as in the QGIS window; detached afterwards."""
    from qgis.core import QgsProject
    from qgis.gui import QgsLayerTreeMapCanvasBridge
    from qgis.PyQt import sip

    bridge = QgsLayerTreeMapCanvasBridge(QgsProject.instance().layerTreeRoot(), iface.mapCanvas())
    had = "layerTreeCanvasBridge" in vars(iface)
    previous = vars(iface).get("layerTreeCanvasBridge")
    iface.layerTreeCanvasBridge = lambda: bridge
    try:
        yield bridge
    finally:
        if had:
            iface.layerTreeCanvasBridge = previous
        else:
            del iface.layerTreeCanvasBridge
        sip.delete(bridge)
