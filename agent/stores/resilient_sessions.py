"""Sessions on a server, falling back to the embedded store while the server is away."""

from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable, Sequence, TypeVar

from ..dock_text import translatable
from .base import SessionInfo, SessionRecord, SessionStore
from .errors import StoreUnavailable
from .server_health import ServerHealth

log = logging.getLogger(__name__)
T = TypeVar("T")


class ResilientSessionStore:
    """`SessionStore` that uses `primary` (Redis) when it answers and `fallback` (the SQLite file)
    when it does not. Sessions changed during an outage are copied to the server when it returns."""

    def __init__(self, primary: SessionStore, fallback: SessionStore, health: ServerHealth):
        self.primary = primary
        self.fallback = fallback
        self.health = health
        self._changed: set[str] = set()  # changed on the fallback while the server was away
        health.add_catch_up(self._copy_back)

    async def _either(self, what: str, on_primary: Callable[[], Awaitable[T]],
                      on_fallback: Callable[[], Awaitable[T]], session_id: str | None = None) -> T:
        if self.health.should_try():
            try:
                await self.health.catch_up()
                result = await self.health.call(what, on_primary)
                self.health.recovered()
                return result
            except StoreUnavailable as exc:
                self.health.failed(exc)
        result = await on_fallback()
        if session_id is not None:
            self._changed.add(session_id)
        return result

    async def _copy_back(self) -> None:
        for session_id in sorted(self._changed):
            record = await self.fallback.history(session_id)
            if record is None:
                await self.health.call(translatable("deleting a session"), lambda sid=session_id: self.primary.delete(sid))
            else:
                await self.health.call(translatable("copying a session back"), lambda rec=record: self._push(rec))
            self._changed.discard(session_id)
            self.health.sent(translatable("{n} session(s) copied back"))

    async def _push(self, record: SessionRecord) -> None:
        info = record.info
        await self.primary.get_or_create(info.session_id, user=info.user, title=info.title)
        await self.primary.save(info.session_id, record.memory, record.events, user=info.user)
        if info.title:
            await self.primary.rename(info.session_id, info.title)

    async def get_or_create(self, session_id: str, user: str = "default", title: str = "") -> SessionRecord:
        return await self._either(translatable("opening a session"),
                                  lambda: self.primary.get_or_create(session_id, user, title),
                                  lambda: self.fallback.get_or_create(session_id, user, title), session_id)

    async def save(self, session_id: str, memory: dict[str, Any], events: Sequence[dict[str, Any]] = (),
                   user: str = "default") -> None:
        await self._either(translatable("saving a session"),
                           lambda: self.primary.save(session_id, memory, events, user=user),
                           lambda: self.fallback.save(session_id, memory, events, user=user), session_id)

    async def list(self, user: str = "default") -> list[SessionInfo]:
        return await self._either(translatable("listing sessions"), lambda: self.primary.list(user),
                                  lambda: self.fallback.list(user))

    async def rename(self, session_id: str, title: str) -> None:
        await self._either(translatable("renaming a session"), lambda: self.primary.rename(session_id, title),
                           lambda: self.fallback.rename(session_id, title), session_id)

    async def delete(self, session_id: str) -> None:
        await self._either(translatable("deleting a session"), lambda: self.primary.delete(session_id),
                           lambda: self.fallback.delete(session_id), session_id)

    async def history(self, session_id: str) -> SessionRecord | None:
        return await self._either(translatable("reading a session"), lambda: self.primary.history(session_id),
                                  lambda: self.fallback.history(session_id))

    async def aclose(self) -> None:
        for store in {id(self.primary): self.primary, id(self.fallback): self.fallback}.values():
            try:
                await store.aclose()
            except Exception:
                log.debug("closing %r failed", store, exc_info=True)
