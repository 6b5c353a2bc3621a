"""Above the chat: what outside MCP clients are running in this QGIS now, each with a Stop. Hidden while none
runs. The registry (tools.outside.running_calls.OutsideCalls) is handed in by the plugin; Stop cancels the call,
which ends at its next pause and tells its client that the analyst stopped it."""

from __future__ import annotations

from typing import Any

from qgis.PyQt.QtCore import QTimer
from qgis.PyQt.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from .i18n import tr

TICK_MS = 1000


class OutsideCallsBar(QFrame):
    def __init__(self, calls: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.calls = calls
        self.setObjectName("outsideCalls")
        self.setStyleSheet("#outsideCalls { background: #fff4d6; border-radius: 6px; }")
        self._rows = QVBoxLayout(self)
        self._rows.setContentsMargins(6, 4, 6, 4)
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self.refresh)
        calls.listeners.append(self.refresh)
        self.destroyed.connect(lambda *_: self._forget())
        self.refresh()

    def _forget(self) -> None:
        if self.refresh in self.calls.listeners:
            self.calls.listeners.remove(self.refresh)

    def refresh(self) -> None:
        while self._rows.count():
            widget = self._rows.takeAt(0).widget()
            if widget is not None:
                widget.deleteLater()
        running = self.calls.running()
        for call in running:
            self._rows.addWidget(self._row(call))
        self.setVisible(bool(running))
        if running and not self._timer.isActive():
            self._timer.start()
        elif not running:
            self._timer.stop()

    def _row(self, call: Any) -> QWidget:
        row = QWidget()
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        seconds = int(call.seconds())
        words = (tr("Stopping {tool}…").format(tool=call.tool) if call.stopped else
                 tr("An outside MCP client is running {tool} ({minutes}:{seconds:02d})").format(
                     tool=call.tool, minutes=seconds // 60, seconds=seconds % 60))
        label = QLabel(words)
        label.setWordWrap(True)
        stop = QPushButton(tr("Stop"))
        stop.setToolTip(tr("Stop this call of an outside client; what it did so far is cleaned up"))
        stop.setEnabled(not call.stopped)
        stop.clicked.connect(lambda: (self.calls.stop(call.number), self.refresh()))
        stop.setProperty("call_number", call.number)
        line.addWidget(label, 1)
        line.addWidget(stop)
        return row

    def stop_buttons(self) -> list[QPushButton]:
        return [b for b in self.findChildren(QPushButton) if b.property("call_number") is not None]
