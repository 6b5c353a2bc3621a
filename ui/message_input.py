"""The message box: Enter sends, Shift+Enter starts a new line, Up recalls the last message."""

from __future__ import annotations

from qgis.PyQt.QtCore import Qt, pyqtSignal
from qgis.PyQt.QtWidgets import QPlainTextEdit

from .i18n import tr, translatable

EMPTY_HINT = translatable("Type a question first, e.g. \"show the NDVI of June\".")


class MessageInput(QPlainTextEdit):
    submitted = pyqtSignal(str)
    empty_submitted = pyqtSignal(str)  # Enter on an empty box: the hint to show

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setPlaceholderText(tr("Ask about your map or a STAC catalog… (Enter sends, Shift+Enter new line)"))
        self.setTabChangesFocus(True)
        self.setMaximumHeight(90)
        self.last_sent = ""

    def submit(self) -> None:
        """Emits the typed text (the Send button does the same as Enter); empty text sends nothing and says so."""
        text = self.toPlainText().strip()
        if text:
            self.submitted.emit(text)
        else:
            self.empty_submitted.emit(tr(EMPTY_HINT))

    def keyPressEvent(self, event) -> None:
        key = event.key()
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not shift:
            self.submit()
            return
        if key == Qt.Key.Key_Up and not self.toPlainText() and self.last_sent:
            self.setPlainText(self.last_sent)
            self.moveCursor(self.textCursor().MoveOperation.End)
            return
        super().keyPressEvent(event)
