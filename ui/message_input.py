"""The message box: Enter sends, Shift+Enter starts a new line, Up recalls the last message, and @ completes the
project's layer names (and @selection, @view) so what the analyst means reaches the model by its exact name
(agent/mentions.py writes and reads them back)."""

from __future__ import annotations

from typing import Callable

from qgis.PyQt.QtCore import QStringListModel, Qt, pyqtSignal
from qgis.PyQt.QtWidgets import QCompleter, QPlainTextEdit

from ..agent.mentions import WORDS, mention_text
from .i18n import tr, translatable

EMPTY_HINT = translatable("Type a question first, e.g. \"show the NDVI of June\".")
_POPUP_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape, Qt.Key.Key_Tab, Qt.Key.Key_Backtab)


class MessageInput(QPlainTextEdit):
    submitted = pyqtSignal(str)
    empty_submitted = pyqtSignal(str)  # Enter on an empty box: the hint to show

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setPlaceholderText(tr("Ask about your map or a STAC catalog… (Enter sends, Shift+Enter new line)"))
        self.setToolTip(tr("Type @ to name a layer, @selection or @view: the assistant gets their exact names."))
        self.setTabChangesFocus(True)
        self.setMaximumHeight(90)
        self.last_sent = ""
        self.mention_names: Callable[[], list[str]] = lambda: []  # the project's layer names, set by the dock
        self.completer = QCompleter(QStringListModel(self), self)
        self.completer.setWidget(self)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.completer.activated[str].connect(self.insert_mention)

    def submit(self) -> None:
        """Emits the typed text (the Send button does the same as Enter); empty text sends nothing and says so."""
        text = self.toPlainText().strip()
        if text:
            self.submitted.emit(text)
        else:
            self.empty_submitted.emit(tr(EMPTY_HINT))

    def keyPressEvent(self, event) -> None:
        key = event.key()
        if self.completer.popup().isVisible() and key in _POPUP_KEYS:
            event.ignore()  # the list of names takes Enter (choose), Tab and Escape (close)
            return
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not shift:
            self.submit()
            return
        if key == Qt.Key.Key_Up and not self.toPlainText() and self.last_sent:
            self.setPlainText(self.last_sent)
            self.moveCursor(self.textCursor().MoveOperation.End)
            return
        super().keyPressEvent(event)
        self._offer_names()

    def typed_mention(self) -> str | None:
        """What follows the @ being typed before the cursor (a quote opened is left out); None when no @ is open."""
        before = self._before_cursor()
        at = before.rfind("@")
        if at < 0 or (at > 0 and not before[at - 1].isspace() and before[at - 1] not in "([{,;:"):
            return None
        typed = before[at + 1:]
        if typed.startswith('"'):
            return None if '"' in typed[1:] else typed[1:]  # a closed quote: the mention is written
        return None if any(c.isspace() for c in typed) else typed

    def _offer_names(self) -> None:
        typed = self.typed_mention()
        if typed is None:
            self.completer.popup().hide()
            return
        names = [*WORDS, *(name for name in self.mention_names() if name not in WORDS)]
        self.completer.model().setStringList(names)
        self.completer.setCompletionPrefix(typed)
        if self.completer.completionCount() == 0:
            self.completer.popup().hide()
            return
        rect = self.cursorRect()
        rect.setWidth(max(160, self.completer.popup().sizeHintForColumn(0) + 24))
        self.completer.complete(rect)

    def insert_mention(self, name: str) -> None:
        """Replaces the @ being typed with the chosen name, written so it reads back whole (quoted if needed)."""
        cursor = self.textCursor()
        before = self._before_cursor()
        at = before.rfind("@")
        if at < 0:
            return
        cursor.setPosition(_utf16_length(before[:at]), cursor.MoveMode.MoveAnchor)
        cursor.setPosition(_utf16_length(before), cursor.MoveMode.KeepAnchor)
        cursor.insertText(("@" + name if name in WORDS else mention_text(name)) + " ")
        self.setTextCursor(cursor)
        self.completer.popup().hide()

    def _before_cursor(self) -> str:
        """The text before the cursor (Qt counts positions in UTF-16 units, Python in characters)."""
        units = self.toPlainText().encode("utf-16-le")[: 2 * self.textCursor().position()]
        return units.decode("utf-16-le", errors="ignore")


def _utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2
