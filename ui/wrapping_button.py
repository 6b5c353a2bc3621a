"""A push button whose words wrap onto more lines in a narrow dock; a QPushButton cuts them
("Show the June RGB scene in tru")."""

from __future__ import annotations

from qgis.PyQt.QtCore import QSize, Qt
from qgis.PyQt.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSizePolicy


class WrappingButton(QPushButton):
    def __init__(self, text: str, parent=None, align_left: bool = False):
        super().__init__(parent)
        self.label = QLabel(self)
        self.label.setAlignment(Qt.AlignmentFlag.AlignLeft if align_left else Qt.AlignmentFlag.AlignCenter)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setWordWrap(True)
        self.label.setText(text)
        self.label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)  # clicks reach the button
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 3, 6, 3)
        layout.addWidget(self.label)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)  # shrinks to 60 px, words wrapped
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.setAccessibleName(text)

    def text(self) -> str:  # what the button says (Qt draws it through the label)
        return self.label.text()

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt's name)
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        margins = self.layout().contentsMargins()
        inner = max(1, width - margins.left() - margins.right())
        return self.label.heightForWidth(inner) + margins.top() + margins.bottom()

    def sizeHint(self) -> QSize:  # noqa: N802: the words on one line
        margins = self.layout().contentsMargins()
        text = self.label.fontMetrics().horizontalAdvance(self.label.text())
        return QSize(text + margins.left() + margins.right() + 8, self.heightForWidth(1 << 16))

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(60, self.heightForWidth(max(60, self.width())))
