"""The embedded concurrency gate: a first-come, first-served semaphore inside this QGIS."""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from .base import Capacity


class LocalConcurrencyGate:
    """At most `max_concurrent` sessions run a turn at once; the others wait in arrival order.

    A session that already holds a slot gets it again without waiting (acquire is idempotent)."""

    def __init__(self, max_concurrent: int):
        if max_concurrent < 1:
            raise ValueError("max concurrent chats must be at least 1")
        self.max_concurrent = max_concurrent
        self._holders: set[str] = set()
        self._waiters: OrderedDict[str, asyncio.Future[None]] = OrderedDict()

    async def acquire(self, session_id: str, timeout: float | None = None) -> bool:
        """Waits for a slot; `timeout=None` waits as long as it takes, 0 only tries once."""
        if session_id in self._holders:
            return True
        if not self._waiters and len(self._holders) < self.max_concurrent:
            self._holders.add(session_id)
            return True
        if timeout is not None and timeout <= 0:
            return False
        waiter = self._waiters.get(session_id)
        if waiter is None:
            waiter = asyncio.get_running_loop().create_future()
            self._waiters[session_id] = waiter
        try:
            await asyncio.wait_for(asyncio.shield(waiter), timeout)
            return True
        except asyncio.TimeoutError:
            return self._give_up(session_id, waiter)
        except asyncio.CancelledError:
            if self._give_up(session_id, waiter):  # the slot came as we were cancelled: pass it on
                self._holders.discard(session_id)
                self._hand_over()
            raise

    def _give_up(self, session_id: str, waiter: asyncio.Future[None]) -> bool:
        """Leaves the queue; returns True when the slot arrived at the same moment (kept)."""
        if waiter.done() and not waiter.cancelled():
            return session_id in self._holders
        self._waiters.pop(session_id, None)
        waiter.cancel()
        return False

    async def refresh(self, session_id: str) -> None:
        """Nothing to refresh in-process: a slot lives as long as this QGIS does."""

    async def release(self, session_id: str) -> None:
        if session_id not in self._holders:
            return
        self._holders.discard(session_id)
        self._hand_over()

    def _hand_over(self) -> None:
        while self._waiters and len(self._holders) < self.max_concurrent:
            session_id, waiter = self._waiters.popitem(last=False)
            if waiter.done():
                continue
            self._holders.add(session_id)
            waiter.set_result(None)

    async def capacity(self, session_id: str | None = None) -> Capacity:
        active = len(self._holders)
        position = None
        if session_id is not None and session_id not in self._holders and session_id in self._waiters:
            position = list(self._waiters).index(session_id) + 1
        return Capacity(active=active, max=self.max_concurrent,
                        available=max(0, self.max_concurrent - active), queue_position=position)

    async def aclose(self) -> None:
        for waiter in self._waiters.values():
            waiter.cancel()
        self._waiters.clear()
        self._holders.clear()
