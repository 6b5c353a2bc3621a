"""One Qt signal per AgentEvent kind, so widgets connect to exactly what they render."""

from __future__ import annotations

from qgis.PyQt.QtCore import QObject, pyqtSignal

from ..agent.events import (
    AgentEvent,
    AskUser,
    Content,
    Done,
    Error,
    IterationLimit,
    Notice,
    ProviderSwitched,
    Thinking,
    ToolError,
    ToolProgress,
    ToolResult,
    ToolStart,
)


class EventBridge(QObject):
    thinking = pyqtSignal(object)
    tool_start = pyqtSignal(object)
    tool_result = pyqtSignal(object)
    tool_error = pyqtSignal(object)
    content = pyqtSignal(object)
    ask_user = pyqtSignal(object)
    provider_switched = pyqtSignal(object)
    notice = pyqtSignal(object)
    iteration_limit = pyqtSignal(object)
    error = pyqtSignal(object)
    done = pyqtSignal(object)
    tool_progress = pyqtSignal(object)

    def emit_event(self, event: AgentEvent) -> None:
        signal_name = _SIGNAL_FOR.get(type(event))
        if signal_name is None:  # a kind added to events.py that no widget renders yet
            return
        getattr(self, signal_name).emit(event)


_SIGNAL_FOR = {
    Thinking: "thinking", ToolStart: "tool_start", ToolResult: "tool_result",
    ToolError: "tool_error", Content: "content", AskUser: "ask_user",
    ProviderSwitched: "provider_switched", Notice: "notice",
    IterationLimit: "iteration_limit", Error: "error", Done: "done",
    ToolProgress: "tool_progress",
}
