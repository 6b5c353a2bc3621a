"""Run by `qgis --code` under Xvfb: waits for the plugin's dock, saves a screenshot of the main
window, and quits QGIS (used by `make run HEADLESS=1`)."""

import os

from qgis.core import QgsApplication
from qgis.PyQt.QtCore import QTimer
from qgis.utils import iface

DELAY_MS = int(os.environ.get("STACGIS_SCREENSHOT_DELAY_MS", "8000"))


def _shoot():
    path = os.environ["STACGIS_SCREENSHOT"]
    window = iface.mainWindow()
    window.resize(1600, 1000)
    ok = window.grab().save(path)
    print(f"screenshot {'saved to' if ok else 'FAILED:'} {path}", flush=True)
    if os.environ.get("STACGIS_QUIT_AFTER_SCREENSHOT"):
        QTimer.singleShot(200, QgsApplication.instance().quit)


iface.mainWindow().showMaximized()
QTimer.singleShot(DELAY_MS, _shoot)
