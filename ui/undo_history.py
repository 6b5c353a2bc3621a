"""The History tab: what each turn of the assistant changed in the project, newest first, with
"Back to here" on every earlier point and "Redo to here" on undone turns.

Rows are plain objects with number, title, request, details, warnings, undone and current (the
history's `TurnEntry`); the widget shows them and says what a step did."""

from __future__ import annotations

from qgis.PyQt.QtCore import Qt, pyqtSignal
from qgis.PyQt.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from .i18n import tr, translatable
from .untrusted_text import plain_tooltip

INTRO = translatable("What each turn of the assistant changed in the project, newest first. “Back to here” undoes the "
         "turns above it; changes you made yourself stay, and are named.")
EMPTY = translatable("Nothing here yet. When the assistant changes the project (adds a layer, moves the map, writes a "
         "file), the turn appears here.")
LIMITS = translatable("This history is saved with the project.")


def _label(text: str, style: str = "") -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)  # layer names and requests shown as written
    if style:
        label.setStyleSheet(style)
    return label


class HistoryRow(QFrame):
    """One point of the history: a turn (or the start) and what can be done from here."""

    def __init__(self, title: str, request: str = "", warnings: tuple = (), *, state: str = "done",
                 details: tuple = (), parent=None):
        super().__init__(parent)
        self.setObjectName("historyRow")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(2)
        colour = "#8a8a8a" if state == "undone" else "#202020"
        self.title = _label(title, f"color: {colour};" + (" font-weight: bold;" if state == "current" else ""))
        layout.addWidget(self.title)
        if details:
            self.setToolTip(plain_tooltip("\n".join(details)))
        self.request = _label(tr("You asked: “{request}”").format(request=request), "color: #6e6e6e; font-style: italic;") if request else None
        if self.request is not None:
            layout.addWidget(self.request)
        self.warnings = [_label("⚠ " + w, "color: #a04000;") for w in warnings]
        for label in self.warnings:
            layout.addWidget(label)
        actions = QHBoxLayout()
        actions.setContentsMargins(0, 0, 0, 0)
        self.state = _label({"current": tr("The project is here now"), "undone": tr("Undone"),
                             "done": ""}.get(state, ""), "color: #6e6e6e;")
        actions.addWidget(self.state, 1)
        self.button = QPushButton(tr("Redo to here") if state == "undone" else tr("Back to here"))
        self.button.setToolTip(tr("Do this turn again, and the undone turns before it") if state == "undone"
                               else tr("Undo every turn above this one"))
        self.button.setVisible(state not in ("current", "empty"))
        actions.addWidget(self.button)
        layout.addLayout(actions)


class UndoHistoryView(QWidget):
    back_requested = pyqtSignal(int)  # the turn to go back to (0: before the first)
    redo_requested = pyqtSignal(int)  # the undone turn to redo up to

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("StacGisAgentHistory")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        self.intro = _label(tr(INTRO), "color: #444444;")
        outer.addWidget(self.intro)
        self.outcome = _label("", "background: #eef5ea; border-radius: 4px; padding: 4px;")
        self.outcome.setObjectName("historyOutcome")
        self.outcome.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.outcome.hide()
        outer.addWidget(self.outcome)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        inner = QWidget()
        self._rows_layout = QVBoxLayout(inner)
        self._rows_layout.setContentsMargins(0, 0, 0, 0)
        self._rows_layout.addStretch(1)
        self.scroll.setWidget(inner)
        outer.addWidget(self.scroll, 1)
        self.limits = _label(tr(LIMITS), "color: #6e6e6e;")
        outer.addWidget(self.limits)
        self.rows: list[HistoryRow] = []
        self.show_entries([])

    def show_entries(self, entries: list) -> None:
        for row in self.rows:
            self._rows_layout.removeWidget(row)
            row.hide()  # gone from the screen now, deleted when Qt gets to it
            row.deleteLater()
        self.rows = []
        self.show_outcome("")  # what the last step did is said once; the list is what stays
        if not entries:
            self._add(HistoryRow(tr(EMPTY), state="empty"))
            return
        for entry in entries:
            state = "current" if entry.current else "undone" if entry.undone else "done"
            row = HistoryRow(entry.title, entry.request, tuple(entry.warnings), state=state,
                             details=tuple(entry.details))
            signal = self.redo_requested if entry.undone else self.back_requested
            row.button.clicked.connect(lambda _checked=False, n=entry.number, s=signal: s.emit(n))
            self._add(row)
        start_is_current = all(entry.undone for entry in entries)
        start = HistoryRow(tr("Before the first turn"), state="current" if start_is_current else "done")
        start.button.clicked.connect(lambda _checked=False: self.back_requested.emit(0))
        self._add(start)

    def _add(self, row: HistoryRow) -> None:
        self._rows_layout.insertWidget(self._rows_layout.count() - 1, row)
        self.rows.append(row)

    def show_outcome(self, text: str, ok: bool = True) -> None:
        self.outcome.setStyleSheet(("background: #eef5ea;" if ok else "background: #fbeaea;")
                                   + " border-radius: 4px; padding: 4px;")
        self.outcome.setText(text)
        self.outcome.setVisible(bool(text))
