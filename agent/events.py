"""The event vocabulary: the one contract between the loop, the UI, the session log and tests.

Every behaviour the user should see is a new event type here, never a flag on another one.
Adding one is a change to this file only: a frozen dataclass deriving from `Event` is known
by its snake_case name ("tool_start"), stored and restored by `event_to_dict`/`event_from_dict`
(or kept out of the session log with `logged = False`), and gets its own Qt signal of that name
in the UI's event bridge.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import typing
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from .dock_text import Said

log = logging.getLogger(__name__)

EVENT_KINDS: dict[str, type[Event]] = {}  # "tool_start" -> ToolStart, every kind in this file
_LEGACY_KINDS = {"user": "user_message"}  # names older session logs used
_NOTHING_SAID = asdict(Said())


class Event:
    """Base of every event: registers the subclass under its snake_case name."""

    kind: ClassVar[str] = ""
    logged: ClassVar[bool] = True  # False: shown live only, never kept in the session log (e.g. progress ticks)

    def __init_subclass__(cls, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        cls.kind = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
        EVENT_KINDS[cls.kind] = cls

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data for session logs and exports: {"type": "tool_start", ...}; a Said with nothing to
        say (text written as it is shown) is left out, and restored as such."""
        data = asdict(self)  # type: ignore[call-overload]
        return {"type": self.kind, **{k: v for k, v in data.items() if v != _NOTHING_SAID}}


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    eval_tokens: int = 0
    steps: int = 0
    tool_calls: int = 0
    wall_ms: float = 0.0
    eval_ms: float = 0.0  # time the model spent generating (from the server), for tokens/s
    context_window: int = 0  # num_ctx in force, to show "context used vs window"
    reread_tokens: int = -1  # prompt tokens the model really read, not from its KV cache (-1: not known)
    prompt_eval_ms: float = 0.0  # time the model spent reading prompts (from the server)
    first_token_ms: float = 0.0  # from the message to the model's first token
    context_used: int = 0  # tokens the window held after the last step (its prompt + its answer)


@dataclass(frozen=True)
class UserMessage(Event):
    text: str  # what the user typed (without the map context the model also received)
    message_id: str = ""
    timestamp: float = 0.0


@dataclass(frozen=True)
class Thinking(Event):
    step: int
    text: str  # a streamed fragment; the UI appends fragments of the same step


@dataclass(frozen=True)
class ToolStart(Event):
    step: int
    call_id: str
    tool_name: str
    tool_args: dict[str, Any]


@dataclass(frozen=True)
class ToolResult(Event):
    step: int
    call_id: str
    tool_name: str
    result: Any
    duration_ms: float


@dataclass(frozen=True)
class ToolError(Event):
    step: int
    call_id: str
    tool_name: str
    error: str  # what the model reads back (English)
    said: Said = field(default_factory=Said)  # what happened, for the dock, when the runner or host wrote it


@dataclass(frozen=True)
class ToolProgress(Event):
    logged: ClassVar[bool] = False  # hundreds per long tool call: live only, not in the saved session
    step: int
    call_id: str
    tool_name: str
    progress: float  # e.g. items done
    total: float | None = None  # e.g. items in all; None when unknown
    message: str = ""  # "37 / 412 items, 2.1 MB read, ~40 s left"


@dataclass(frozen=True)
class Content(Event):
    text: str  # a streamed fragment, or the whole answer when is_complete
    is_complete: bool = False


@dataclass(frozen=True)
class AskUser(Event):
    request_id: str
    question: str
    options: tuple[str, ...] = ()
    allow_free_text: bool = False
    details: tuple[str, ...] = ()  # exactly what a destructive action will change
    # the kinds of change a "don't ask again in this chat" answer would cover (agent/trust.py); () = not offered
    waves: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProviderSwitched(Event):
    from_provider: str
    to_provider: str
    reason: str
    said: Said = field(default_factory=Said)  # the reason in its parts, said in the dock's language


@dataclass(frozen=True)
class Notice(Event):
    text: str  # protocol in use, store fallback, compaction: things the user should know (English)
    said: Said = field(default_factory=Said)  # the text in its parts, when the core wrote it for the dock


@dataclass(frozen=True)
class IterationLimit(Event):
    steps: int
    limit: int


@dataclass(frozen=True)
class Error(Event):
    message: str  # in English (the log, tests)
    recoverable: bool = True
    said: Said = field(default_factory=Said)  # the message in its parts, said in the dock's language (ui/said_text.py)


@dataclass(frozen=True)
class Done(Event):
    session_id: str
    message_id: str
    content: str
    timestamp: float
    usage: Usage = field(default_factory=Usage)
    stopped: bool = False  # True when the user cancelled the turn


AgentEvent = Event  # any of the kinds above


def event_to_dict(event: Event) -> dict[str, Any]:
    return event.to_dict()


def event_from_dict(data: dict[str, Any]) -> Event | None:
    """The event a stored dict describes; None (logged) for an unknown kind or a broken entry.
    Keys this version does not know are ignored, so newer logs still open."""
    kind = data.get("type")
    cls = EVENT_KINDS.get(_LEGACY_KINDS.get(kind, kind))  # type: ignore[arg-type]
    if cls is None:
        log.info("skipping a session log entry of unknown type %r", kind)
        return None
    if cls is UserMessage and "text" not in data:
        data = {**data, "text": data.get("content") or ""}
    try:
        return cls(**_field_values(cls, data))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        log.warning("skipping a session log entry that does not match %s: %s", cls.__name__, data)
        return None


def _field_values(cls: type, data: dict[str, Any]) -> dict[str, Any]:
    """The dataclass fields of `cls` found in `data`, with JSON's lists and dicts turned back into
    the tuples and nested dataclasses the fields hold."""
    hints = typing.get_type_hints(cls)
    values = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            continue
        value, hint = data[f.name], hints.get(f.name)
        if dataclasses.is_dataclass(hint) and isinstance(value, dict):
            value = hint(**_field_values(hint, value))  # type: ignore[operator]
        elif typing.get_origin(hint) is tuple and isinstance(value, list):
            value = tuple(value)
        values[f.name] = value
    return values
