"""One Qt signal per event kind, so widgets connect to exactly what they render.

The signals are made from the vocabulary itself (`agent.events.EVENT_KINDS`): a kind added
there has its signal here (`bridge.tool_start`, `bridge.done`, ...) with no change to this file.
"""

from __future__ import annotations

from qgis.PyQt.QtCore import QObject, pyqtSignal

from ..agent.events import EVENT_KINDS, Event


class EventBridge(QObject):
    # a class body is a namespace: this adds one `pyqtSignal(object)` per kind, named as the kind
    locals().update({kind: pyqtSignal(object) for kind in EVENT_KINDS})

    def emit_event(self, event: Event) -> None:
        getattr(self, event.kind).emit(event)
