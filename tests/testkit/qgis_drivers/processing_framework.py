"""QGIS's own Processing framework, started as the desktop starts it, for the tests and their subprocesses."""

from __future__ import annotations

import os
import sys


def start_processing() -> None:
    """Puts QGIS's Python plugins folder on sys.path (once) and initialises Processing (idempotent)."""
    from qgis.core import QgsApplication

    plugins = os.path.join(QgsApplication.pkgDataPath(), "python", "plugins")
    if plugins not in sys.path:
        sys.path.append(plugins)
    from processing.core.Processing import Processing

    Processing.initialize()
