"""A question from the agent, inline in the chat: one button per option, free text if allowed."""

from __future__ import annotations

from qgis.PyQt.QtCore import Qt, pyqtSignal
from qgis.PyQt.QtWidgets import (
    QFrame,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from ..agent.events import AskUser
from ..agent.tool_calls import CARD_OPTIONS
from .flow_layout import FlowLayout, fixed_height_for_width
from .i18n import tr
from .untrusted_text import plain_tooltip
from .wrapping_button import WrappingButton

_BREAK_AFTER = str.maketrans({c: c + "\u200b" for c in "/\\_"})  # zero-width spaces: where a path may wrap


class _PlainLabel(QLabel):
    """Word-wrapped plain text whose long paths wrap too (a file path in a 320 px dock was cut at the card's
    right edge): it is shown with invisible break points after each / \\ _, and text() is the text as given."""

    _given = ""

    def setText(self, text: str) -> None:  # noqa: N802 - Qt override
        self._given = text
        super().setText(text.translate(_BREAK_AFTER))

    def text(self) -> str:
        return self._given


def _plain_label(text: str) -> QLabel:
    label = _PlainLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setText(text)
    return label


class AskUserWidget(QFrame):
    answered = pyqtSignal(str, str)  # request_id, choice

    def __init__(self, event: AskUser, parent=None):
        super().__init__(parent)
        self.event = event
        self.setObjectName("askUser")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet("#askUser { background: #fff8e1; border: 1px solid #e0b000; border-radius: 6px; }")
        layout = QVBoxLayout(self)
        # the model's words and options as written: a label guessing rich text would load what they point at
        self.question = _plain_label(event.question)
        self.question.setWordWrap(True)
        font = self.question.font()
        font.setBold(True)
        self.question.setFont(font)
        layout.addWidget(self.question)
        if event.details:  # what a destructive action will change, before the OK
            self.details = _plain_label(tr("This will change:") + "\n" + "\n".join(f"• {d}" for d in event.details))
            layout.addWidget(self.details)
        self.options = QWidget()  # the answers wrap onto more lines in a narrow dock, never cut
        fixed_height_for_width(self.options)
        row = FlowLayout(self.options)
        self.buttons: list[WrappingButton] = []
        for option in event.options:
            # the card's own answers in the dock's language (the agent reads the English); the model's as written
            button = WrappingButton(tr(option) if option in CARD_OPTIONS else option)  # a long answer wraps
            button.setToolTip(plain_tooltip(button.text()))
            button.clicked.connect(lambda _checked=False, o=option: self._answer(o))
            row.addWidget(button)
            self.buttons.append(button)
        layout.addWidget(self.options)
        self.waves: QLabel | None = None
        if event.waves:  # what "don't ask again" would cover, exactly, before the analyst chooses it
            self.waves = _plain_label(tr("“Don't ask again” covers only this kind of change, in this chat: {kinds}.")
                                      .format(kinds="; ".join(tr(kind) for kind in event.waves)))
            self.waves.setStyleSheet("color: #6e6e6e;")
            layout.addWidget(self.waves)
        self.free_text: QLineEdit | None = None
        if event.allow_free_text or not event.options:
            self.free_text = QLineEdit()
            self.free_text.setPlaceholderText(tr("Or type an answer"))  # short: a narrow dock cuts a long one
            self.free_text.setToolTip(tr("Type an answer and press Enter to send it"))
            self.free_text.returnPressed.connect(self._answer_free_text)
            layout.addWidget(self.free_text)
        self.outcome = _plain_label("")
        self.outcome.hide()
        layout.addWidget(self.outcome)

    def _answer_free_text(self) -> None:
        if self.free_text is not None and self.free_text.text().strip():
            self._answer(self.free_text.text().strip())

    def _answer(self, choice: str) -> None:
        for button in self.buttons:
            button.setEnabled(False)
        if self.free_text is not None:
            self.free_text.setEnabled(False)
        self.outcome.setText(tr("You answered: {choice}").format(choice=tr(choice) if choice in CARD_OPTIONS else choice))
        self.outcome.show()
        self.answered.emit(self.event.request_id, choice)

    def expire(self, reason: str = "") -> None:
        """The turn ended (stopped, timed out) before the user answered."""
        reason = reason or tr("No longer waiting for an answer.")
        if self.outcome.isVisible():
            return
        for button in self.buttons:
            button.setEnabled(False)
        if self.free_text is not None:
            self.free_text.setEnabled(False)
        self.outcome.setText(reason)
        self.outcome.show()
