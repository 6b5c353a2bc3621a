"""Holding a chat slot for the length of one turn, refreshed so a long turn is never pruned."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import AsyncIterator

from .base import ConcurrencyGate

log = logging.getLogger(__name__)


class NoSlotFree(RuntimeError):
    """Every chat slot stayed busy for the whole wait."""


@contextlib.asynccontextmanager
async def holding_slot(gate: ConcurrencyGate, session_id: str, *, timeout: float | None = None,
                       refresh_every_s: float = 60.0) -> AsyncIterator[None]:
    """`async with holding_slot(gate, sid): ...` waits for a slot, refreshes it every
    `refresh_every_s` (keep it well under the gate's slot TTL) and releases it at the end,
    also when the turn is cancelled."""
    if not await gate.acquire(session_id, timeout):
        waited = f" for {timeout:g} s" if timeout else ""
        raise NoSlotFree(f"all chat slots stayed busy{waited}; try again in a moment "
                         "or ask the administrator to raise the maximum of concurrent chats")

    async def keep_alive() -> None:
        while True:
            await asyncio.sleep(refresh_every_s)
            try:
                await gate.refresh(session_id)
            except ConnectionError as exc:
                log.warning("could not refresh the chat slot: %s", exc)

    refresher = asyncio.create_task(keep_alive())
    try:
        yield
    finally:
        refresher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await refresher
        try:
            await asyncio.shield(gate.release(session_id))
        except ConnectionError as exc:  # the server prunes the slot after its TTL anyway
            log.warning("could not release the chat slot: %s", exc)
