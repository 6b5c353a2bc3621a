"""Whether a configured server is up, with the user told once when it goes and once when it returns."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from typing import Awaitable, Callable, Optional, TypeVar

from ..dock_text import Translate, as_written, translatable
from .errors import StoreUnavailable

log = logging.getLogger(__name__)
T = TypeVar("T")
NoticeCallback = Optional[Callable[[str], None]]
CatchUp = Callable[[], Awaitable[None]]


class ServerHealth:
    """Decides when to try the server again (backing off while it stays down) and turns slowness
    into `StoreUnavailable`, so the caller falls back instead of freezing the chat.

    Several stores share one server (Redis: sessions and the chat gate; PostgreSQL: sessions,
    memories, notes). Whichever reaches it first after an outage runs every store's catch-up
    (what was kept locally meanwhile goes back), so the single recovery notice says all of it.

    The notices are for the dock, in its language: `tr` is its translation (agent/dock_text.py) and
    `what_falls_back` a translatable text."""

    def __init__(self, name: str, what_falls_back: str, on_notice: NoticeCallback = None, *,
                 op_timeout_s: float = 3.0, retry_after_s: float = 2.0, max_retry_after_s: float = 60.0,
                 tr: Translate = as_written):
        self.name = name
        self.what_falls_back = what_falls_back
        self.on_notice = on_notice
        self.tr = tr
        self.op_timeout_s = op_timeout_s
        self.retry_after_s = retry_after_s
        self.max_retry_after_s = max_retry_after_s
        self.down = False
        self._next_try = 0.0
        self._wait = retry_after_s
        self._catch_ups: list[CatchUp] = []
        self._catching_up = asyncio.Lock()  # two calls at once must not send the same item twice
        self._sent: Counter[str] = Counter()  # "{n} session(s) copied back" -> how many, since the outage

    def add_catch_up(self, catch_up: CatchUp) -> None:
        """`catch_up()` sends the server what a store kept locally; it reports each item with
        `sent()` and raises StoreUnavailable when the server fails midway."""
        self._catch_ups.append(catch_up)

    async def catch_up(self) -> None:
        """Runs before any call that reaches the server, so it never answers with older data
        than this computer holds. Cheap when nothing is waiting."""
        async with self._catching_up:
            for catch_up in self._catch_ups:
                await catch_up()

    def sent(self, phrase: str, n: int = 1) -> None:
        """Counts items sent back for the recovery notice; `phrase`, a translatable text, holds {n} for the number."""
        self._sent[phrase] += n

    def should_try(self) -> bool:
        return not self.down or time.monotonic() >= self._next_try

    async def call(self, what: str, op: Callable[[], Awaitable[T]]) -> T:
        try:
            return await asyncio.wait_for(op(), self.op_timeout_s)
        except asyncio.TimeoutError as exc:
            raise StoreUnavailable.said(translatable("{server} took longer than {seconds} s while {what}"),
                                        server=self.name, seconds=f"{self.op_timeout_s:g}", what=what) from exc

    def failed(self, exc: BaseException) -> None:
        now = time.monotonic()
        if self.down:
            self._wait = min(self._wait * 2, self.max_retry_after_s)
        else:
            self.down = True
            self._wait = self.retry_after_s
            log.warning("%s unavailable: %s", self.name, exc)
            tr = self.tr
            reason = exc.words(tr) if isinstance(exc, StoreUnavailable) else str(exc)
            self._tell(tr("{reason}. Until it is back, {what} stay on this computer; nothing is lost, and the "
                          "plugin reconnects by itself when it returns.").format(reason=reason, what=tr(self.what_falls_back)))
        self._next_try = now + self._wait

    def recovered(self) -> None:
        if self.down:
            self.down = False
            self._wait = self.retry_after_s
            sent = ", ".join(phrase.format(n=n) for phrase, n in self._sent.items())
            log.info("%s is back%s", self.name, f" ({sent})" if sent else "")
            tr = self.tr
            shown = ", ".join(tr(phrase).format(n=n) for phrase, n in self._sent.items())
            self._tell(tr("{server} is reachable again ({sent}).").format(server=self.name, sent=shown) if shown
                       else tr("{server} is reachable again.").format(server=self.name))
        self._sent.clear()

    def _tell(self, text: str) -> None:
        if self.on_notice is not None:
            try:
                self.on_notice(text)
            except Exception:  # a broken UI callback must not break saving
                log.exception("notice callback failed")
