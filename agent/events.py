"""The event vocabulary: the one contract between the loop, the UI, the session log and tests.

Every behaviour the user should see is a new event type here, never a flag on another one.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Union


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    eval_tokens: int = 0
    steps: int = 0
    tool_calls: int = 0
    wall_ms: float = 0.0
    eval_ms: float = 0.0  # time the model spent generating (from the server), for tokens/s
    context_window: int = 0  # num_ctx in force, to show "context used vs window"


@dataclass(frozen=True)
class Thinking:
    step: int
    text: str  # a streamed fragment; the UI appends fragments of the same step


@dataclass(frozen=True)
class ToolStart:
    step: int
    call_id: str
    tool_name: str
    tool_args: dict[str, Any]


@dataclass(frozen=True)
class ToolResult:
    step: int
    call_id: str
    tool_name: str
    result: Any
    duration_ms: float


@dataclass(frozen=True)
class ToolError:
    step: int
    call_id: str
    tool_name: str
    error: str


@dataclass(frozen=True)
class ToolProgress:
    step: int
    call_id: str
    tool_name: str
    progress: float  # e.g. items done
    total: float | None = None  # e.g. items in all; None when unknown
    message: str = ""  # "37 / 412 items, 2.1 MB read, ~40 s left"


@dataclass(frozen=True)
class Content:
    text: str  # a streamed fragment, or the whole answer when is_complete
    is_complete: bool = False


@dataclass(frozen=True)
class AskUser:
    request_id: str
    question: str
    options: tuple[str, ...] = ()
    allow_free_text: bool = False
    details: tuple[str, ...] = ()  # exactly what a destructive action will change


@dataclass(frozen=True)
class ProviderSwitched:
    from_provider: str
    to_provider: str
    reason: str


@dataclass(frozen=True)
class Notice:
    text: str  # protocol in use, store fallback, compaction: things the user should know


@dataclass(frozen=True)
class IterationLimit:
    steps: int
    limit: int


@dataclass(frozen=True)
class Error:
    message: str
    recoverable: bool = True


@dataclass(frozen=True)
class Done:
    session_id: str
    message_id: str
    content: str
    timestamp: float
    usage: Usage = field(default_factory=Usage)
    stopped: bool = False  # True when the user cancelled the turn


AgentEvent = Union[
    Thinking, ToolStart, ToolResult, ToolError, Content, AskUser,
    ProviderSwitched, Notice, IterationLimit, Error, Done, ToolProgress,
]


def event_to_dict(event: AgentEvent) -> dict[str, Any]:
    """Plain-data form for session logs and exports: {"type": "tool_start", ...}."""
    return {"type": _TYPE_NAMES[type(event)], **asdict(event)}


_TYPE_NAMES = {
    Thinking: "thinking", ToolStart: "tool_start", ToolResult: "tool_result",
    ToolError: "tool_error", Content: "content", AskUser: "ask_user",
    ProviderSwitched: "provider_switched", Notice: "notice",
    IterationLimit: "iteration_limit", Error: "error", Done: "done",
    ToolProgress: "tool_progress",
}
