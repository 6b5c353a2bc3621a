"""The "Outside access" tab of the settings: the MCP endpoint switch and port, what outside clients may do (ask
before changes, or read only), its bearer token (masked, Copy, Regenerate), a ready configuration for Claude
Desktop, VS Code, Cursor or the MCP Inspector over the stdio bridge or HTTP (shown without the token, copied,
or written into the client's own file: tools/outside/client_configs.py), and the folders clients may read from.

The token lives in a file of the QGIS profile (tools.outside.http_endpoint); this tab only shows it and asks
for a new one through `access` (token(), regenerate(), and where the endpoint and the bridge are).
"""

from __future__ import annotations

from typing import Any

from qgis.PyQt.QtGui import QFontDatabase
from qgis.PyQt.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
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
from ..tools.outside.client_configs import CLIENTS, client_config, inspector_file, place_of, write_config
from .i18n import tr, translatable

TOKEN_NOTES = {  # how each configuration gets the token, since the shown text never holds it
    ("claude_desktop", "stdio"): translatable("The bridge reads the token from the profile's token file. Claude "
                                              "Desktop starts local servers only this way; restart it to connect."),
    ("vscode", "stdio"): translatable("The bridge reads the token from the profile's token file."),
    ("vscode", "http"): translatable("VS Code asks for the token the first time (copy it above) and keeps it in its "
                                     "secret storage."),
    ("cursor", "stdio"): translatable("The bridge reads the token from the profile's token file."),
    ("cursor", "http"): translatable("Cursor reads the token from the environment variable STACGIS_MCP_TOKEN: set it "
                                     "with the line under the configuration before starting Cursor."),
    ("inspector", "stdio"): translatable("The bridge reads the token from the profile's token file. Run the command "
                                         "under the configuration to list the tools."),
    ("inspector", "http"): translatable("The command under the configuration passes the token from the profile's "
                                        "token file; the file itself holds none."),
}


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
        self.trust = QComboBox()
        self.trust.addItem(tr("Ask before changes (clients that can ask their user)"), False)
        self.trust.addItem(tr("Read only: no tool that changes anything is offered"), True)
        self.trust.setCurrentIndex(1 if settings.mcp_read_only else 0)
        self.trust.setToolTip(tr("What outside clients may do. Code, downloads and overwrites always ask, and a "
                                 "client that cannot ask its user is refused them."))
        form.addRow(tr("Clients may"), self.trust)
        self.token = QLineEdit()
        self.token.setReadOnly(True)
        self.token.setEchoMode(QLineEdit.EchoMode.Password)
        self.copy_token = QPushButton(tr("Copy"))
        self.regenerate = QPushButton(tr("Regenerate"))
        self.note = QLabel()
        self.note.setWordWrap(True)
        if access is not None:  # the token exists only where the plugin keeps a profile
            self.token.setText(access.token())
            row = QHBoxLayout()
            for widget in (self.token, self.copy_token, self.regenerate):
                row.addWidget(widget, 1 if widget is self.token else 0)
            form.addRow(tr("Bearer token"), row)
            self.copy_token.clicked.connect(lambda: self._to_clipboard(self.token.text(), tr("Token copied.")))
            self.regenerate.clicked.connect(self._regenerate)
            self._client_rows(form)
            form.addRow("", self.note)
        self.allowed = QPlainTextEdit(settings.mcp_allowed_folders)
        self.allowed.setPlaceholderText(tr("one folder per line, e.g. /home/me/gis-data"))
        self.allowed.setToolTip(tr("Outside clients may read project layers, the catalogs' assets and files in "
                                   "these folders; nothing else on disk."))
        self.allowed.setMaximumHeight(80)
        form.addRow(tr("Folders clients may read"), self.allowed)

    def _client_rows(self, form: QFormLayout) -> None:
        self.client = QComboBox()
        for key, name in CLIENTS.items():
            self.client.addItem(name, key)
        self.transport = QComboBox()
        self.transport.addItem(tr("stdio bridge"), "stdio")
        self.transport.addItem(tr("HTTP endpoint"), "http")
        row = QHBoxLayout()
        row.addWidget(self.client, 1)
        row.addWidget(self.transport, 1)
        form.addRow(tr("Connect a client"), row)
        self.config_text = QPlainTextEdit()
        self.config_text.setReadOnly(True)
        self.config_text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)  # JSON reads by its lines
        self.config_text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.config_text.setMinimumHeight(130)
        form.addRow("", self.config_text)
        self.copy_config = QPushButton(tr("Copy"))
        self.copy_config.setToolTip(tr("Puts this configuration on the clipboard (it holds no token)"))
        self.write_config = QPushButton(tr("Write to the client's file"))
        buttons = QHBoxLayout()
        buttons.addWidget(self.copy_config)
        buttons.addWidget(self.write_config)
        buttons.addStretch(1)
        form.addRow("", buttons)
        self.copy_config.clicked.connect(lambda: self._to_clipboard(
            self.config_text.toPlainText(), tr("Configuration copied: paste it into your MCP client's settings.")))
        self.write_config.clicked.connect(self._write)
        for signal in (self.client.currentIndexChanged, self.transport.currentIndexChanged, self.port.valueChanged):
            signal.connect(lambda *_args: self.show_config())
        self.show_config()

    def current_config(self):
        """The configuration chosen now (tools.outside.client_configs.ClientConfig)."""
        return client_config(self.client.currentData(), self.transport.currentData(),
                             place_of(self.access, self.port.value()), inspector_file=inspector_file(self.access))

    def show_config(self) -> None:
        config = self.current_config()
        self.config_text.setPlainText(config.text())
        self.write_config.setToolTip(tr("Adds this server to {path}, keeping the others there (the old file is "
                                        "kept as .bak)").format(path=config.path))
        self.note.setText(tr(TOKEN_NOTES[(config.client, config.transport)]))

    def _write(self) -> None:
        try:
            path = write_config(self.current_config())
        except (OSError, ValueError) as exc:
            self.note.setText(tr("Not written: {error}").format(error=exc))
            return
        self.note.setText(tr("Written to {path}. {how}").format(
            path=path, how=tr(TOKEN_NOTES[(self.current_config().client, self.current_config().transport)])))

    def read_only(self) -> bool:
        return bool(self.trust.currentData())

    def _to_clipboard(self, text: str, note: str) -> None:
        QApplication.clipboard().setText(text)
        self.note.setText(note)

    def _regenerate(self) -> None:
        self.token.setText(self.access.regenerate())
        self.note.setText(tr("New token saved: the old one no longer works. Give clients the new one "
                             "(Copy); configurations that read the token file need nothing."))

    def allowed_folders(self) -> str:
        return "\n".join(line.strip() for line in self.allowed.toPlainText().splitlines() if line.strip())
