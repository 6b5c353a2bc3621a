"""The team concurrency gate, falling back to an in-process gate while Redis is away."""

from __future__ import annotations

import logging

from ..dock_text import translatable
from .base import Capacity, ConcurrencyGate
from .errors import StoreUnavailable
from .server_health import ServerHealth

log = logging.getLogger(__name__)


class ResilientConcurrencyGate:
    """Slots come from `primary` (Redis) when it answers, else from `fallback` (this QGIS only).
    Each slot is released on the gate that granted it."""

    def __init__(self, primary: ConcurrencyGate, fallback: ConcurrencyGate, health: ServerHealth):
        self.primary = primary
        self.fallback = fallback
        self.health = health
        self._local: set[str] = set()  # sessions holding a fallback slot

    async def acquire(self, session_id: str, timeout: float | None = None) -> bool:
        if self.health.should_try():
            try:
                await self.health.catch_up()  # sessions kept here meanwhile go back before the turn reads them
                # No time limit here: waiting for a slot is not slowness; each poll has its own limit.
                granted = await self.primary.acquire(session_id, timeout)
                self.health.recovered()
                return granted
            except StoreUnavailable as exc:
                self.health.failed(exc)
        granted = await self.fallback.acquire(session_id, timeout)
        if granted:
            self._local.add(session_id)
        return granted

    async def refresh(self, session_id: str) -> None:
        if session_id in self._local:
            await self.fallback.refresh(session_id)
            return
        try:
            await self.health.call(translatable("refreshing a chat slot"), lambda: self.primary.refresh(session_id))
        except StoreUnavailable as exc:
            self.health.failed(exc)

    async def release(self, session_id: str) -> None:
        if session_id in self._local:
            self._local.discard(session_id)
            await self.fallback.release(session_id)
            return
        try:
            await self.health.call(translatable("releasing a chat slot"), lambda: self.primary.release(session_id))
        except StoreUnavailable as exc:  # the slot ages out on the server by itself
            self.health.failed(exc)

    async def capacity(self, session_id: str | None = None) -> Capacity:
        if self.health.should_try():
            try:
                await self.health.catch_up()
                result = await self.health.call(translatable("reading the chat capacity"),
                                                lambda: self.primary.capacity(session_id))
                self.health.recovered()
                return result
            except StoreUnavailable as exc:
                self.health.failed(exc)
        return await self.fallback.capacity(session_id)

    async def aclose(self) -> None:
        await self.primary.aclose()
        await self.fallback.aclose()
