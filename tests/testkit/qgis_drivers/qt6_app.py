"""The application for the Qt 6 check (make test-qt6): a bare QApplication where pytest-qgis' QGIS
application is not available (PyQt6 from PyPI, qgis.PyQt shim, no qgis.core)."""

from __future__ import annotations

import pytest
from qgis.PyQt.QtWidgets import QApplication


@pytest.fixture(scope="session")
def qgis_app():
    app = QApplication.instance() or QApplication(["stacgis-agent-qt6-tests"])
    yield app
