"""In-memory implementations of the store protocols (agent/stores/base.py) for loop tests."""

from __future__ import annotations

import copy
import math
import time
import uuid
from typing import Any, Sequence

from stacgis_agent.agent.stores.base import MemoryHit, SessionInfo, SessionRecord


class InMemorySessionStore:
    def __init__(self) -> None:
        self.records: dict[str, SessionRecord] = {}
        self.saves: list[tuple[str, dict[str, Any], list[dict[str, Any]]]] = []  # every save, in order

    async def get_or_create(self, session_id: str, user: str = "default", title: str = "") -> SessionRecord:
        if session_id not in self.records:
            now = time.time()
            self.records[session_id] = SessionRecord(SessionInfo(session_id, user, title, now, now))
        return copy.deepcopy(self.records[session_id])

    async def save(self, session_id: str, memory: dict[str, Any], events: Sequence[dict[str, Any]] = (),
                   user: str = "default") -> None:
        record = self.records.get(session_id) or await self.get_or_create(session_id, user)
        self.records[session_id] = record
        record.memory = copy.deepcopy(memory)
        record.events = copy.deepcopy(list(events))
        info = record.info
        record.info = SessionInfo(info.session_id, info.user, info.title, info.created_at, time.time(),
                                  len(memory.get("messages", [])))
        self.saves.append((session_id, copy.deepcopy(memory), copy.deepcopy(list(events))))

    async def list(self, user: str = "default") -> list[SessionInfo]:
        infos = [r.info for r in self.records.values() if r.info.user == user]
        return sorted(infos, key=lambda i: i.updated_at, reverse=True)

    async def rename(self, session_id: str, title: str) -> None:
        info = self.records[session_id].info
        self.records[session_id].info = SessionInfo(info.session_id, info.user, title, info.created_at,
                                                    info.updated_at, info.message_count)

    async def delete(self, session_id: str) -> None:
        self.records.pop(session_id, None)

    async def history(self, session_id: str) -> SessionRecord | None:
        record = self.records.get(session_id)
        return copy.deepcopy(record) if record else None

    async def aclose(self) -> None:
        pass


class InMemoryMemoryStore:
    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    async def add(self, user: str, content: str, kind: str, embedding: Sequence[float],
                  metadata: dict[str, Any] | None = None, model: str = "") -> str:
        memory_id = uuid.uuid4().hex
        self.rows.append({"id": memory_id, "user": user, "content": content, "kind": kind,
                          "embedding": list(embedding), "metadata": metadata or {}, "model": model,
                          "created_at": time.time()})
        return memory_id

    async def search(self, user: str, query_embedding: Sequence[float], k: int = 5,
                     model: str = "") -> list[MemoryHit]:
        hits = [MemoryHit(r["id"], r["user"], r["content"], r["kind"], _cosine(query_embedding, r["embedding"]),
                          r["created_at"], r["metadata"])
                for r in self.rows if r["user"] == user and (not model or r["model"] in ("", model))]
        return sorted(hits, key=lambda h: h.score, reverse=True)[:k]

    async def recent(self, user: str, n: int = 10) -> list[MemoryHit]:
        rows = [r for r in self.rows if r["user"] == user][-n:]
        return [MemoryHit(r["id"], r["user"], r["content"], r["kind"], 1.0, r["created_at"], r["metadata"])
                for r in reversed(rows)]

    async def delete(self, user: str, memory_id: str) -> bool:
        before = len(self.rows)
        self.rows = [r for r in self.rows if not (r["id"] == memory_id and r["user"] == user)]
        return len(self.rows) < before

    async def update(self, user: str, memory_id: str, content: str, kind: str, embedding: Sequence[float],
                     model: str = "", metadata: dict[str, Any] | None = None) -> bool:
        for row in self.rows:
            if row["id"] == memory_id and row["user"] == user:
                row.update(content=content, kind=kind, embedding=list(embedding), model=model,
                           metadata=row["metadata"] if metadata is None else metadata)
                return True
        return False

    async def aclose(self) -> None:
        pass


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b))
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0
