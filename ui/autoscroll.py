"""Keeps a scroll area pinned to its newest content unless the user has scrolled up."""

from __future__ import annotations

from qgis.PyQt.QtCore import QObject
from qgis.PyQt.QtWidgets import QScrollBar

# Pixels from the bottom that still count as "at the bottom" (a wheel notch overshoots).
SLACK_PX = 4


class StickToBottom(QObject):
    def __init__(self, scrollbar: QScrollBar):
        super().__init__(scrollbar)
        self._bar = scrollbar
        self.following = True
        scrollbar.valueChanged.connect(self._on_value)
        scrollbar.rangeChanged.connect(self._on_range)

    def _on_value(self, value: int) -> None:
        self.following = value >= self._bar.maximum() - SLACK_PX

    def _on_range(self, _minimum: int, maximum: int) -> None:
        if self.following:
            self._bar.setValue(maximum)
