"""Long-term memory on PostgreSQL, with a local outbox while the server is away."""

from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable, Sequence, TypeVar

from ..dock_text import translatable
from .base import MemoryHit
from .errors import StoreUnavailable
from .pgvector_memory import PgVectorMemoryStore
from .server_health import ServerHealth
from .sqlite_memory import SqliteMemoryStore

log = logging.getLogger(__name__)
T = TypeVar("T")


class ResilientMemoryStore:
    """`MemoryStore` that writes to `primary` when it answers, else to `outbox` (a SQLite store
    holding only what the server has not received yet). The outbox is emptied into the server
    on the first call that reaches it, including after a QGIS restart."""

    def __init__(self, primary: PgVectorMemoryStore, outbox: SqliteMemoryStore, health: ServerHealth):
        self.primary = primary
        self.outbox = outbox
        self.health = health
        self._outbox_may_hold = True  # unknown at start: a crash may have left memories there
        health.add_catch_up(self._drain)

    async def _either(self, what: str, on_primary: Callable[[], Awaitable[T]],
                      on_outbox: Callable[[], Awaitable[T]]) -> T:
        if self.health.should_try():
            try:
                await self.health.catch_up()
                result = await self.health.call(what, on_primary)
                self.health.recovered()
                return result
            except StoreUnavailable as exc:
                self.health.failed(exc)
        return await on_outbox()

    async def _drain(self) -> None:
        while self._outbox_may_hold:
            batch = await self.outbox.export(limit=200)
            if not batch:
                self._outbox_may_hold = False
                break
            for item in batch:
                hit = item.hit
                await self.health.call(translatable("sending saved memories"), lambda h=hit, i=item: self.primary.add(
                    h.user, h.content, h.kind, i.embedding, h.metadata, i.model,
                    memory_id=h.id, created_at=h.created_at))
                await self.outbox.delete(hit.user, hit.id)
                self.health.sent(translatable("{n} memorie(s) saved meanwhile were sent to it"))

    async def add(self, user: str, content: str, kind: str, embedding: Sequence[float],
                  metadata: dict[str, Any] | None = None, model: str = "") -> str:
        async def to_outbox() -> str:
            self._outbox_may_hold = True
            return await self.outbox.add(user, content, kind, embedding, metadata, model)

        return await self._either(translatable("saving a memory"),
                                  lambda: self.primary.add(user, content, kind, embedding, metadata, model),
                                  to_outbox)

    async def search(self, user: str, query_embedding: Sequence[float], k: int = 5,
                     model: str = "") -> list[MemoryHit]:
        return await self._either(translatable("searching memories"),
                                  lambda: self.primary.search(user, query_embedding, k, model),
                                  lambda: self.outbox.search(user, query_embedding, k, model))

    async def recent(self, user: str, n: int = 10) -> list[MemoryHit]:
        return await self._either(translatable("reading recent memories"), lambda: self.primary.recent(user, n),
                                  lambda: self.outbox.recent(user, n))

    async def delete(self, user: str, memory_id: str) -> bool:
        async def from_outbox() -> bool:
            if await self.outbox.delete(user, memory_id):
                return True
            raise StoreUnavailable(f"{self.health.name} is unreachable, so this memory cannot be deleted "
                                   "now; try again when the server is back")

        return await self._either(translatable("deleting a memory"), lambda: self.primary.delete(user, memory_id),
                                  from_outbox)

    async def update(self, user: str, memory_id: str, content: str, kind: str, embedding: Sequence[float],
                     model: str = "", metadata: dict[str, Any] | None = None) -> bool:
        async def in_outbox() -> bool:
            if await self.outbox.update(user, memory_id, content, kind, embedding, model, metadata):
                return True
            raise StoreUnavailable(f"{self.health.name} is unreachable, so this memory cannot be changed "
                                   "now; try again when the server is back")

        return await self._either(translatable("changing a memory"),
                                  lambda: self.primary.update(user, memory_id, content, kind, embedding, model,
                                                              metadata), in_outbox)

    async def models(self, user: str) -> dict[tuple[str, int], int]:
        return await self.primary.models(user)

    async def stale(self, user: str, model: str, dim: int, limit: int = 64) -> list[tuple[str, str]]:
        return await self.primary.stale(user, model, dim, limit)

    async def replace_embedding(self, user: str, memory_id: str, embedding: Sequence[float], model: str) -> None:
        await self.primary.replace_embedding(user, memory_id, embedding, model)

    async def aclose(self) -> None:
        await self.primary.aclose()
        await self.outbox.aclose()
