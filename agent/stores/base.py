"""The storage protocols. Each has an embedded default (SQLite, in-process) and a server
backend (Redis, PostgreSQL+pgvector); one contract test suite runs against all of them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence


@dataclass(frozen=True)
class SessionInfo:
    session_id: str
    user: str
    title: str
    created_at: float
    updated_at: float
    message_count: int = 0


@dataclass
class SessionRecord:
    """A conversation as stored: `memory` is `ConversationMemory.to_dict()`, `events` the
    session log (`event_to_dict` of every event shown), both plain JSON-able data."""

    info: SessionInfo
    memory: dict[str, Any] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)


class SessionStore(Protocol):
    """`save` replaces the stored memory and, when `events` is not empty, the whole event log
    (pass every event shown so far); with no events the stored log is kept. Server backends
    raise `errors.StoreUnavailable` (a ConnectionError with a message for the user)."""

    async def get_or_create(self, session_id: str, user: str = "default", title: str = "") -> SessionRecord: ...
    async def save(self, session_id: str, memory: dict[str, Any], events: Sequence[dict[str, Any]] = (),
                   user: str = "default") -> None: ...
    async def list(self, user: str = "default") -> list[SessionInfo]: ...  # newest first
    async def rename(self, session_id: str, title: str) -> None: ...
    async def delete(self, session_id: str) -> None: ...
    async def history(self, session_id: str) -> SessionRecord | None: ...
    async def aclose(self) -> None: ...


@dataclass(frozen=True)
class MemoryHit:
    id: str
    user: str
    content: str
    kind: str
    score: float  # cosine similarity, 1.0 = identical
    created_at: float
    metadata: dict[str, Any] = field(default_factory=dict)


class MemoryStore(Protocol):
    """Long-term memory; the knowledge base is a second instance with its own table.

    `search` only compares vectors of the same `model` and dimension as the query, so pass the
    embedding model's name to both `add` and `search`; `reembed.reembed` moves old vectors over.
    `update` rewrites one memory the analyst edited (its text, kind and the text's new vector; `metadata`
    replaces the stored one when given) and says whether the user had it.
    The shipped stores also take `memory_id=`/`created_at=` in `add` (to move memories between
    backends) and offer `models()`, `stale()`, `replace_embedding()` and `add_many()`."""

    async def add(self, user: str, content: str, kind: str, embedding: Sequence[float],
                  metadata: dict[str, Any] | None = None, model: str = "") -> str: ...
    async def search(self, user: str, query_embedding: Sequence[float], k: int = 5,
                     model: str = "") -> list[MemoryHit]: ...
    async def recent(self, user: str, n: int = 10) -> list[MemoryHit]: ...
    async def delete(self, user: str, memory_id: str) -> bool: ...
    async def update(self, user: str, memory_id: str, content: str, kind: str, embedding: Sequence[float],
                     model: str = "", metadata: dict[str, Any] | None = None) -> bool: ...
    async def aclose(self) -> None: ...


@dataclass(frozen=True)
class Capacity:
    active: int
    max: int
    available: int
    queue_position: int | None = None  # None when the session holds a slot or no one waits


class ConcurrencyGate(Protocol):
    """`acquire(timeout=None)` waits as long as it takes, `timeout=0` tries once; acquiring a
    slot already held returns True. Hold a slot across a turn with `slot.holding_slot`."""

    async def acquire(self, session_id: str, timeout: float | None = None) -> bool: ...
    async def refresh(self, session_id: str) -> None: ...
    async def release(self, session_id: str) -> None: ...
    async def capacity(self, session_id: str | None = None) -> Capacity: ...
    async def aclose(self) -> None: ...
