"""Who made a change (issue 40 item 9): the analyst (the dock's chat turns; hand edits are never turns, they
are kept), or an outside MCP client, known by what the server issued it: the endpoint's bearer token, which the
endpoint checked before the call got here (tools/outside/http_endpoint.py), never a header or name the client
chooses. Every client holding the profile's token (the stdio bridge included) is one owner, across reconnects;
the analyst's turns are never theirs.

`TurnOwners`, a middleware of the outside endpoint's server, runs each outside call with `CALLER` set to
that client and gives the call a turn of its own in the history (`TurnHistory.begin_call`/`end_call`), so
what the call changes is recorded as that client's, and `undo_last_turn` undoes only the caller's turns.
"""

from __future__ import annotations

import hashlib
from contextvars import ContextVar
from typing import Any, Callable

from ....agent.safety import Safety, tool_safety
from .record import ANALYST

# The owner of the call being run: the dock's server never sets it (the analyst); the outside server does.
CALLER: ContextVar[str] = ContextVar("stacgis_change_owner", default=ANALYST)
NOT_A_CHANGE = frozenset({"undo_last_turn"})  # it undoes a turn: it is not one


def outside_owner(ctx: Any) -> str:
    """The outside client of this call as the history keeps it: a digest of the token the endpoint issued and
    checked, so no secret or header value lands in the project file ("local" in process: the tests' clients)."""
    headers = getattr(getattr(ctx, "request", None), "headers", None)
    token = headers.get("authorization", "") if headers is not None else "local"
    return "outside:" + hashlib.sha256(token.encode("utf-8")).hexdigest()[:16]


class TurnOwners:
    """Server middleware (outside endpoint): each call of a client runs as that client's, in a turn of its own."""

    def __init__(self, server: Any, history: Callable[[], Any]) -> None:
        self.server = server
        self.history = history
        self._read_only: set[str] | None = None

    async def read_only(self) -> set[str]:
        if self._read_only is None:
            self._read_only = {t.name for t in await self.server.list_tools() if tool_safety(t) == Safety.READ}
        return self._read_only

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        if ctx.method != "tools/call":
            return await call_next(ctx)
        owner = outside_owner(ctx)
        name = str((ctx.params or {}).get("name"))
        token = CALLER.set(owner)
        opens = name not in NOT_A_CHANGE and name not in await self.read_only()
        history = self.history()
        if opens:
            history.begin_call(owner)
        try:
            return await call_next(ctx)
        finally:
            if opens:
                history.end_call(owner)
            CALLER.reset(token)
