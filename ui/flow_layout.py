"""A layout that places its widgets left to right and starts a new line when the next one does not fit:
answer buttons that wrap in a narrow dock instead of being cut ("Springfield, Massachus")."""

from __future__ import annotations

from qgis.PyQt.QtCore import QPoint, QRect, QSize, Qt
from qgis.PyQt.QtWidgets import QLayout, QSizePolicy


class FlowLayout(QLayout):
    def __init__(self, parent=None, spacing: int = 6):
        super().__init__(parent)
        self._items = []
        self.setSpacing(spacing)
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item) -> None:  # noqa: N802 (Qt's name)
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int):  # noqa: N802
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int):  # noqa: N802
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self):  # noqa: N802
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        return self._place(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802
        super().setGeometry(rect)
        self._place(rect, move=True)

    def sizeHint(self) -> QSize:  # noqa: N802
        return self.minimumSize()

    def minimumSize(self) -> QSize:  # noqa: N802
        """As narrow as the narrowest button allows: a wider one gets the whole line, never more."""
        size = QSize()
        for item in self._items:
            size = size.expandedTo(QSize(min(item.sizeHint().width(), 120), item.sizeHint().height()))
        margins = self.contentsMargins()
        return size + QSize(margins.left() + margins.right(), margins.top() + margins.bottom())

    def _place(self, rect: QRect, move: bool) -> int:
        margins = self.contentsMargins()
        area = rect.adjusted(margins.left(), margins.top(), -margins.right(), -margins.bottom())
        x, y, line_height = area.x(), area.y(), 0
        for item in self._items:
            if item.isEmpty():  # a hidden button takes no room
                continue
            hint = item.sizeHint()
            width = min(hint.width(), area.width())  # a button wider than the line gets the line
            if x > area.x() and x + width > area.right() + 1:  # does not fit: a new line
                x, y, line_height = area.x(), y + line_height + self.spacing(), 0
            height = item.heightForWidth(width) if item.hasHeightForWidth() else hint.height()  # wrapped words
            if move:
                item.setGeometry(QRect(QPoint(x, y), QSize(width, height)))
            x += width + self.spacing()
            line_height = max(line_height, height)
        return y + line_height - rect.y() + margins.bottom()


def fixed_height_for_width(widget) -> None:
    """A widget holding a FlowLayout grows in height as its buttons wrap."""
    policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
    policy.setHeightForWidth(True)
    widget.setSizePolicy(policy)
