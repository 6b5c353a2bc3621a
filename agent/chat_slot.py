"""A turn holds one slot of the concurrency gate (team setups): wait in line, keep it, give it back."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import Any, AsyncIterator, Callable

from .dock_text import Translate, as_written
from .stores.errors import StoreUnavailable

log = logging.getLogger(__name__)

POLL_S = 0.5  # how often the place in the queue is re-read while waiting
REFRESH_S = 30.0  # well inside the Redis gate's slot TTL


@dataclass(frozen=True)
class QueuePlace:
    """Where a waiting chat stands: chats queued before it, and chats holding a slot now."""

    ahead: int
    running: int

    @property
    def text(self) -> str:
        """The dock's waiting line. The first in line waits for the running chats, not for
        "0" others, so that is what it reads."""
        if self.ahead > 0:
            return f"Waiting for a free slot ({self.ahead} ahead)"
        if self.running <= 0:
            return "Waiting for a free slot: you are next"
        chats = "1 chat" if self.running == 1 else f"{self.running} chats"
        return f"Waiting for a free slot: {chats} running, you are next"


@contextlib.asynccontextmanager
async def chat_slot(gate: Any, session_id: str, on_queue: Callable[[QueuePlace | None], None],
                    on_notice: Callable[[str], None], tr: Translate = as_written) -> AsyncIterator[None]:
    """`on_queue(place)` while waiting, `on_queue(None)` once the wait is over.
    A gate that fails lets the turn run without it and says so (in the dock's language, `tr`): a chat is never
    lost to it."""
    if gate is None:
        yield
        return
    try:
        held = await _wait(gate, session_id, on_queue)
    except (ConnectionError, OSError) as exc:
        reason = exc.words(tr) if isinstance(exc, StoreUnavailable) else str(exc)
        on_notice(tr("The shared chat queue is unreachable ({reason}); running this message without it.")
                  .format(reason=reason))
        held = False
    keeper = asyncio.ensure_future(_keep(gate, session_id)) if held else None
    try:
        yield
    finally:
        if keeper is not None:
            keeper.cancel()
            with contextlib.suppress(Exception):
                await gate.release(session_id)


async def _wait(gate: Any, session_id: str, on_queue: Callable[[QueuePlace | None], None]) -> bool:
    if await gate.acquire(session_id, timeout=0):
        return True
    acquire = asyncio.ensure_future(gate.acquire(session_id))
    try:
        while not acquire.done():
            capacity = await gate.capacity(session_id)
            position = capacity.queue_position
            on_queue(QueuePlace(ahead=max(0, position - 1) if position else 0, running=capacity.active))
            await asyncio.wait([acquire], timeout=POLL_S)
        return acquire.result()
    finally:
        if not acquire.done():
            acquire.cancel()
            await asyncio.gather(acquire, return_exceptions=True)
        on_queue(None)


async def _keep(gate: Any, session_id: str) -> None:
    while True:
        await asyncio.sleep(REFRESH_S)
        try:
            await gate.refresh(session_id)
        except Exception as exc:  # the turn goes on; the slot may be pruned and retaken later
            log.warning("could not refresh the chat slot of %s: %s", session_id, exc)
