"""The "Outside access" tab of the settings: the MCP endpoint switch and port, its bearer token (masked,
Copy, Regenerate), a Copy client config button, and the folders outside clients may read from.

The token lives in a file of the QGIS profile (tools.outside.http_endpoint); this tab only shows it and asks
for a new one through `access` (token(), regenerate(), client_config(port)).
"""

from __future__ import annotations

from typing import Any

from qgis.PyQt.QtWidgets import (
    QApplication,
    QCheckBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from ..agent.config import Settings
from ..agent.settings_validation import RANGES
from .i18n import tr


class OutsideAccessTab(QWidget):
    def __init__(self, settings: Settings, access: Any | None = None, parent=None):
        super().__init__(parent)
        self.access = access
        form = QFormLayout(self)
        self.enabled = QCheckBox(tr("Let other MCP clients on this machine use the tools"))
        self.enabled.setChecked(settings.mcp_http_enabled)
        self.port = QSpinBox()
        self.port.setRange(*RANGES["mcp_http_port"])
        self.port.setValue(settings.mcp_http_port)
        form.addRow(self.enabled)
        form.addRow(tr("Port"), self.port)
        self.token = QLineEdit()
        self.token.setReadOnly(True)
        self.token.setEchoMode(QLineEdit.EchoMode.Password)
        self.copy_token = QPushButton(tr("Copy"))
        self.regenerate = QPushButton(tr("Regenerate"))
        self.copy_config = QPushButton(tr("Copy client config"))
        self.copy_config.setToolTip(tr("Puts JSON for your MCP client on the clipboard: a stdio entry (through the "
                                       "bridge) and an HTTP entry with the token"))
        self.note = QLabel()
        self.note.setWordWrap(True)
        if access is not None:  # the token exists only where the plugin keeps a profile
            self.token.setText(access.token())
            row = QHBoxLayout()
            for widget in (self.token, self.copy_token, self.regenerate):
                row.addWidget(widget, 1 if widget is self.token else 0)
            form.addRow(tr("Bearer token"), row)
            form.addRow("", self.copy_config)
            form.addRow("", self.note)
            self.copy_token.clicked.connect(lambda: self._to_clipboard(self.token.text(), tr("Token copied.")))
            self.regenerate.clicked.connect(self._regenerate)
            self.copy_config.clicked.connect(
                lambda: self._to_clipboard(access.client_config(self.port.value()),
                                           tr("Client config copied: paste it into your MCP client's settings.")))
        self.allowed = QPlainTextEdit(settings.mcp_allowed_folders)
        self.allowed.setPlaceholderText(tr("one folder per line, e.g. /home/me/gis-data"))
        self.allowed.setToolTip(tr("Outside clients may read project layers, the catalogs' assets and files in "
                                   "these folders; nothing else on disk."))
        self.allowed.setMaximumHeight(80)
        form.addRow(tr("Folders clients may read"), self.allowed)

    def _to_clipboard(self, text: str, note: str) -> None:
        QApplication.clipboard().setText(text)
        self.note.setText(note)

    def _regenerate(self) -> None:
        self.token.setText(self.access.regenerate())
        self.note.setText(tr("New token saved: the old one no longer works. Give clients the new one "
                             "(Copy or Copy client config)."))

    def allowed_folders(self) -> str:
        return "\n".join(line.strip() for line in self.allowed.toPlainText().splitlines() if line.strip())
