"""What every session backend derives the same way: titles, message counts, the JSON form."""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from ..longterm import MARKER as MEMORIES_MARKER
from ..map_context import MARKER as MAP_CONTEXT_MARKER
from ..permissions import STATE_MARKER
from ..trust import MARKER as TRUST_MARKER
from .base import SessionInfo, SessionRecord

TITLE_LENGTH = 60


def message_count(memory: Mapping[str, Any]) -> int:
    messages = memory.get("messages") if isinstance(memory, Mapping) else None
    return len(messages) if isinstance(messages, list) else 0


def title_from_memory(memory: Mapping[str, Any]) -> str:
    """The first thing the user asked, cut to a list-friendly length."""
    messages = memory.get("messages") if isinstance(memory, Mapping) else None
    for msg in messages if isinstance(messages, list) else ():
        if isinstance(msg, Mapping) and msg.get("role") == "user":
            said = str(msg.get("content", "")).split(MAP_CONTEXT_MARKER, 1)[0]  # not the map context
            said = said.split(MEMORIES_MARKER, 1)[0]  # nor the recalled memories
            said = said.split(STATE_MARKER, 1)[0]  # nor the note on what the tools can do now
            said = said.split(TRUST_MARKER, 1)[0]  # nor that the chat is read only
            text = " ".join(said.split())
            if text:
                return text if len(text) <= TITLE_LENGTH else _cut_between_words(text, TITLE_LENGTH - 1) + "…"
    return ""


def _cut_between_words(text: str, limit: int) -> str:
    """At most `limit` characters, never half a word: the list and an export's file name show the title."""
    cut = text[:limit]
    if text[limit:limit + 1] != " " and " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip()


def record_to_json(record: SessionRecord) -> str:
    info = record.info
    return json.dumps({
        "info": {"session_id": info.session_id, "user": info.user, "title": info.title,
                 "created_at": info.created_at, "updated_at": info.updated_at,
                 "message_count": info.message_count},
        "memory": record.memory, "events": record.events,
    }, ensure_ascii=False)


def record_from_json(text: str | bytes) -> SessionRecord:
    data = json.loads(text)
    return SessionRecord(info=SessionInfo(**data["info"]), memory=data.get("memory") or {},
                         events=list(data.get("events") or []))


def updated_record(record: SessionRecord, memory: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
                   now: float) -> SessionRecord:
    """The record after a save: memory replaced, the event log replaced when one is given."""
    info = record.info
    title = info.title or title_from_memory(memory)
    new_info = SessionInfo(session_id=info.session_id, user=info.user, title=title,
                           created_at=info.created_at, updated_at=now,
                           message_count=message_count(memory))
    new_events = [dict(e) for e in events] if events else record.events
    return SessionRecord(info=new_info, memory=dict(memory), events=new_events)
