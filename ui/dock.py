"""The right-side dock: the chat (or, while requirements are missing, the install panel), a status line with
the LLM connection state, and "?" for the user guide."""

from __future__ import annotations

import html

from qgis.core import QgsApplication
from qgis.gui import QgsDockWidget
from qgis.PyQt.QtCore import Qt, pyqtSignal
from qgis.PyQt.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStackedWidget,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from .i18n import tr
from .message_input import MessageInput
from .requirements_panel import RequirementsPanel

OBJECT_NAME = "StacGisAgentDock"


class BasicChat(QWidget):
    """Message list, input box and Send/Stop: the chat until the full chat panel is attached."""

    message_submitted = pyqtSignal(str)
    stop_requested = pyqtSignal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.messages = QTextBrowser()
        self.messages.setOpenExternalLinks(False)  # its text is escaped: no link; a link opens only via open_link
        self.input = MessageInput()
        self.input.setMaximumHeight(90)
        self.send_button = QPushButton(tr("Send"))
        self.send_button.clicked.connect(self._send_or_stop)
        self.input.submitted.connect(self._submit)
        row = QHBoxLayout()
        row.addWidget(self.input, 1)
        row.addWidget(self.send_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.messages, 1)
        layout.addLayout(row)
        self._busy = False

    def _send_or_stop(self) -> None:
        if self._busy:
            self.stop_requested.emit()
        else:
            self.input.submit()

    def _submit(self, text: str) -> None:
        self.add_message(tr("You"), text)
        self.message_submitted.emit(text)

    def add_message(self, who: str, text: str) -> None:
        self.messages.append(f"<p><b>{html.escape(who)}:</b> {html.escape(text)}</p>")

    def set_busy(self, busy: bool) -> None:
        self._busy = busy
        self.send_button.setText(tr("Stop") if busy else tr("Send"))


class StacAgentDock(QgsDockWidget):
    help_requested = pyqtSignal()  # "?": the plugin opens the user guide

    def __init__(self, parent=None):
        super().__init__("STAC GIS Agent", parent)
        self.setObjectName(OBJECT_NAME)
        self.pages = QStackedWidget()
        self.chat: QWidget = BasicChat()
        self.requirements_panel = RequirementsPanel()
        self.pages.addWidget(self.chat)
        self.pages.addWidget(self.requirements_panel)
        self.status = QLabel(tr("Starting…"))
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # server and catalog text shown as written
        self.status.setWordWrap(True)
        self.status.setObjectName("StacGisAgentStatus")
        self.help_button = QToolButton()
        self.help_button.setText("?")  # shown where the theme has no help icon
        self.help_button.setIcon(QgsApplication.getThemeIcon("/mActionHelpContents.svg"))
        self.help_button.setObjectName("StacGisAgentHelp")
        self.help_button.setToolTip(tr("User guide: how to use the assistant, offline"))
        self.help_button.clicked.connect(self.help_requested)
        bottom = QHBoxLayout()
        bottom.addWidget(self.status, 1)
        bottom.addWidget(self.help_button, 0, Qt.AlignmentFlag.AlignTop)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.addWidget(self.pages, 1)
        layout.addLayout(bottom)
        self.setWidget(body)

    def set_status(self, text: str, ok: bool | None = None) -> None:
        colour = {True: "#2e7d32", False: "#c62828", None: "#555555"}[ok]
        self.status.setStyleSheet(f"color: {colour};")
        self.status.setText(text)

    def show_dependencies(self, text: str, can_install: bool) -> None:
        self.requirements_panel.show_problems(text, can_install)
        self.pages.setCurrentWidget(self.requirements_panel)

    def show_chat(self) -> None:
        self.pages.setCurrentWidget(self.chat)

    def set_chat_widget(self, widget: QWidget) -> None:
        """Replaces the basic chat with a richer one (the full chat panel)."""
        self.pages.removeWidget(self.chat)
        self.chat.deleteLater()
        self.chat = widget
        self.pages.insertWidget(0, widget)
        self.pages.setCurrentWidget(widget)
