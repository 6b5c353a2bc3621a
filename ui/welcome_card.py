"""What a new chat shows before the first message: what the assistant can do, example requests to click
(they work on the shipped offline demo catalog), and whether the model can answer, with the fix."""

from __future__ import annotations

import html
import re

from qgis.PyQt.QtCore import Qt, pyqtSignal
from qgis.PyQt.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from .connection_text import connection_text
from .i18n import tr, translatable
from .wrapping_button import WrappingButton

CAPABILITIES = (
    translatable("Find imagery in STAC catalogs by place, date and cloud cover, and put it on the map."),
    translatable("Style rasters (true colour, NDVI ramps, elevation) and zoom to places or layers."),
    translatable("Compute statistics, zonal statistics and time series, and draw charts."),
    translatable("Undo what an answer changed on the map; nothing is removed without your OK."),
)
# Each one is answered from the demo catalog shipped with the plugin (Lyon, June and September 2025).
EXAMPLES = (
    translatable("What data do I have?"),
    translatable("Show the June RGB scene in true colour"),
    translatable("Show the June NDVI and give me its mean"),
    translatable("Show the elevation with a terrain ramp"),
)
TRY_ONE = translatable("Try one (they use the offline demo catalog of Lyon):")
NO_DEMO = translatable("These examples use the offline demo catalog of Lyon, which is not in your catalogs: add "
           "“Demo (offline)” back in Settings… ▸ Catalogs to try them.")
OK_COLOUR, PROBLEM_COLOUR, NEUTRAL_COLOUR = "#2e7d32", "#c62828", "#555555"


def fix_command(state, model: str) -> str:
    """The one command that makes the model answer, for a `agent.health.ConnectionState` that is not ok."""
    if state is None or state.ok:
        return ""
    return f"ollama pull {model}" if state.reachable else "ollama serve"


class WelcomeCard(QScrollArea):
    example_chosen = pyqtSignal(str)
    retry_requested = pyqtSignal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(10, 10, 10, 10)
        title = QLabel("<b>" + tr("Ask about your map and your imagery") + "</b>")
        title.setWordWrap(True)  # a narrow dock wraps the title instead of cutting it
        layout.addWidget(title)
        self.connection = QLabel(tr("Checking the connection to Ollama…"))
        self.connection.setWordWrap(True)
        self.connection.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.connection)
        row = QHBoxLayout()
        self.command = QLabel()
        self.command.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.command.setStyleSheet("font-family: monospace; background: #f0f0f0; padding: 3px 6px;")
        self.copy_button = QPushButton(tr("Copy command"))
        self.copy_button.setToolTip(tr("Copy it, then paste it into a terminal"))
        self.copy_button.clicked.connect(lambda: QApplication.clipboard().setText(self.command.text()))
        self.retry_button = QPushButton(tr("Retry"))
        self.retry_button.setToolTip(tr("Check the connection to Ollama again"))
        self.retry_button.clicked.connect(self.retry_requested)
        layout.addWidget(self.command)  # on its own line: a narrow dock must not clip the buttons
        row.addWidget(self.copy_button)
        row.addWidget(self.retry_button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addSpacing(6)
        self.capabilities = QLabel("".join(f"• {html.escape(tr(line))}<br>" for line in CAPABILITIES))
        self.capabilities.setWordWrap(True)
        layout.addWidget(self.capabilities)
        self.try_one = QLabel(tr(TRY_ONE))
        self.try_one.setWordWrap(True)
        layout.addWidget(self.try_one)
        self.example_buttons: list[WrappingButton] = []
        for text in map(tr, EXAMPLES):  # sent as shown: the analyst's request, in the analyst's language
            button = WrappingButton(text, align_left=True)  # a narrow dock wraps the words instead of cutting them
            button.setToolTip(tr("Send “{request}”").format(request=text))
            button.clicked.connect(lambda _checked=False, t=text: self.example_chosen.emit(t))
            layout.addWidget(button)
            self.example_buttons.append(button)
        layout.addStretch(1)
        self.setWidget(body)
        self._show_command("")

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self.widget().setMaximumWidth(self.viewport().width())  # wrap the text, never run under the scroll bar

    def set_demo_catalog(self, present: bool) -> None:
        """The examples only work when the shipped demo catalog is configured."""
        self.try_one.setText(tr(TRY_ONE) if present else tr(NO_DEMO))
        for button in self.example_buttons:
            button.setEnabled(present)

    def show_checking(self) -> None:
        self.connection.setText(tr("Checking the connection to Ollama…"))
        self.connection.setStyleSheet(f"color: {NEUTRAL_COLOUR};")
        self.retry_button.setEnabled(False)

    def show_connection(self, state, model: str) -> None:
        """`state`: an `agent.health.ConnectionState`."""
        message = connection_text(state)
        if not state.ok:  # the status line below holds the whole message; the card says what and how to fix
            message = re.sub(r"\s*\(\w*(Error|Exception|Timeout)\w*\)", "", message.split(". ", 1)[0]).rstrip(".")
            message += ". " + tr("Run this command, then click Retry:")
        self.connection.setText(message)
        self.connection.setStyleSheet(f"color: {OK_COLOUR if state.ok else PROBLEM_COLOUR};")
        self.retry_button.setEnabled(True)
        self._show_command(fix_command(state, model))

    def _show_command(self, command: str) -> None:
        self.command.setText(command)
        for widget in (self.command, self.copy_button, self.retry_button):
            widget.setVisible(bool(command))
