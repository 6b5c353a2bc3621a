"""A stored session turned back into what the chat shows: user messages and agent events.

The session log (`SessionRecord.events`) is preferred because it holds the thinking, tool
calls and timings; a log without the user's messages falls back to the conversation memory.
"""

from __future__ import annotations

import time
from typing import Any, Iterable

from . import events as ev
from .stores.base import SessionRecord


def history_items(record: SessionRecord) -> list[ev.Event]:
    from_log = [item for item in map(ev.event_from_dict, record.events or ()) if item is not None]
    if any(isinstance(item, ev.UserMessage) for item in from_log):
        return _merge_fragments(from_log)
    return list(_from_memory(record.memory.get("messages") or [], record.info.session_id))


def _merge_fragments(items: list[ev.Event]) -> list[ev.Event]:
    """Joins streamed fragments so a restored session renders in one pass per message."""
    merged: list[ev.Event] = []
    for item in items:
        last = merged[-1] if merged else None
        if (isinstance(item, ev.Content) and not item.is_complete and isinstance(last, ev.Content)
                and not last.is_complete):
            merged[-1] = ev.Content(last.text + item.text)
        elif isinstance(item, ev.Thinking) and isinstance(last, ev.Thinking) and last.step == item.step:
            merged[-1] = ev.Thinking(item.step, last.text + item.text)
        else:
            merged.append(item)
    return merged


def _from_memory(messages: Iterable[dict[str, Any]], session_id: str) -> Iterable[ev.Event]:
    step = 0
    for msg in messages:
        role = msg.get("role")
        if role == "user":
            step = 0
            yield ev.UserMessage(str(msg.get("content", "")))
        elif role == "assistant":
            step += 1
            if msg.get("thinking"):
                yield ev.Thinking(step, msg["thinking"])
            for call in msg.get("tool_calls") or ():
                function = call.get("function", {})
                yield ev.ToolStart(step, call.get("id", ""), function.get("name", "?"),
                                   function.get("arguments") or {})
            if msg.get("content"):
                yield ev.Done(session_id, "", msg["content"], time.time())
        elif role == "tool":
            yield ev.ToolResult(step, msg.get("tool_call_id", ""), msg.get("tool_name", "?"),
                                msg.get("content", ""), 0.0)
