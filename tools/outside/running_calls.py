"""The calls outside clients are running now, so the analyst sees them in the dock and can stop any of them
(issue 40.12: a 1,116-page atlas kept QGIS busy for 20 minutes with no Stop). The outside endpoint's server (and
the stdio bridge, which goes through it) runs every tool call inside a cancel scope registered here; the dock's
Stop cancels that scope: the call's work stops at its next pause (an atlas between two pages, a collection read
between two items), cleans up as on any cancel, and the client is told it was stopped by the analyst. A call that
became an MCP task is stopped the same way (its job runs the call).

Everything here runs on the GUI thread's event loop (qasync), where the dock's click arrives too."""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import anyio
from mcp_types import CallToolResult, TextContent

from ..confirmation import PREFLIGHT_KEY


@dataclass
class OutsideCall:
    number: int
    tool: str
    started: float  # time.monotonic()
    scope: anyio.CancelScope = field(repr=False)
    stopped: bool = False

    def seconds(self) -> float:
        return time.monotonic() - self.started


class OutsideCalls:
    """The running outside calls, oldest first; `listeners` are told of every change (no arguments)."""

    def __init__(self) -> None:
        self._calls: dict[int, OutsideCall] = {}
        self._numbers = itertools.count(1)
        self.listeners: list[Callable[[], None]] = []

    def running(self) -> list[OutsideCall]:
        return list(self._calls.values())

    def begin(self, tool: str, scope: anyio.CancelScope) -> OutsideCall:
        call = OutsideCall(next(self._numbers), tool, time.monotonic(), scope)
        self._calls[call.number] = call
        self._changed()
        return call

    def end(self, call: OutsideCall) -> None:
        if self._calls.pop(call.number, None) is not None:
            self._changed()

    def stop(self, number: int) -> bool:
        """Stops a running call (the dock's Stop); False when it has already ended."""
        call = self._calls.get(number)
        if call is None:
            return False
        call.stopped = True
        call.scope.cancel()
        return True

    def _changed(self) -> None:
        for listener in list(self.listeners):
            listener()


class StoppableCalls:
    """Server middleware, innermost: each tool call runs in a cancel scope the dock can cancel."""

    def __init__(self, calls: OutsideCalls) -> None:
        self.calls = calls

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        if ctx.method != "tools/call" or ((ctx.params or {}).get("_meta") or {}).get(PREFLIGHT_KEY):
            return await call_next(ctx)
        name = str((ctx.params or {}).get("name", "?"))
        with anyio.CancelScope() as scope:
            call = self.calls.begin(name, scope)
            try:
                return await call_next(ctx)
            finally:
                self.calls.end(call)
        return CallToolResult(content=[TextContent(
            type="text", text=f"'{name}' was stopped by the analyst in QGIS after {call.seconds():.0f} s; "
                              "what it had done so far was cleaned up. Ask the analyst before running it again.")],
            is_error=True)
