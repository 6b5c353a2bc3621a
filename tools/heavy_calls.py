"""A limit on long analyses (tools marked `policy(heavy=True)`: collection_statistics, compute_index,
detect_change) per MCP client (see client_key): one runs at a time per client, MAX_WAITING more wait their turn
in order, and a call beyond that is refused with a sentence saying what to do. All clients of one server
together run at most MAX_RUNNING at once. The dock's chat has a server of its own (the outside endpoint
builds another), so an outside client never makes the analyst's own chat wait. A call that becomes an MCP
task (tools.outside.tasks) takes its place here at once and holds it until its job ends.

Six concurrent collection_statistics calls from one outside client were all accepted and ran together:
48 read threads, and their GUI-thread work (planning, result assembly) stacked up into stalls of 500 ms."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from dataclasses import dataclass, field
from typing import Any

from mcp_types import CallToolResult, TextContent
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from ..agent.safety import tool_policy_meta

log = logging.getLogger(__name__)

MAX_WAITING = 2  # per client, behind its running call
MAX_RUNNING = 2  # every client of this server together


@dataclass
class _ClientTurns:
    """One client's heavy calls: the one running and those waiting, in order."""
    turn: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(1))
    names: list[str] = field(default_factory=list)  # running first, then waiting


class HeavyCallLimit:
    """Server middleware: runs a client's heavy calls one after the other (a few may wait), refuses more."""

    def __init__(self, server: Any, max_waiting: int = MAX_WAITING, max_running: int = MAX_RUNNING,
                 tasks: Any = None) -> None:
        """`tasks`: the server's tasks extension (tools.outside.tasks.ToolTasks), or None where there is none."""
        self.server = server
        self.max_waiting = max_waiting
        self.running = asyncio.Semaphore(max_running)
        self.tasks = tasks
        self._heavy: set[str] | None = None
        self._clients: dict[str, _ClientTurns] = {}

    async def heavy_tools(self) -> set[str]:
        if self._heavy is None:
            self._heavy = {t.name for t in await self.server.list_tools() if tool_policy_meta(t).get("heavy")}
        return self._heavy

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        if ctx.method != "tools/call":
            return await call_next(ctx)
        name = str((ctx.params or {}).get("name"))
        if name not in await self.heavy_tools():
            return await call_next(ctx)
        key = client_key(ctx)
        turns = self._clients.setdefault(key, _ClientTurns())
        if len(turns.names) > self.max_waiting:
            return _refused(name, turns.names)
        ahead = list(turns.names)
        turns.names.append(name)  # counted now, before any await: a task's job holds its place too
        released = False

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                turns.names.remove(name)
                if not turns.names and self._clients.get(key) is turns:
                    self._clients.pop(key)

        async def in_turn(call_ctx: Any) -> Any:
            if turns.turn.locked():
                await _tell_waiting(call_ctx, ahead)
            async with turns.turn, self.running:
                return await call_next(call_ctx)

        if self.tasks is not None and self.tasks.wanted(ctx):
            return self.tasks.start(ctx, key, name, in_turn, release)
        try:
            return await in_turn(ctx)
        finally:
            release()


def client_key(ctx: Any) -> str:
    """Who is calling, by what the server issued, never by what the client chooses. Over HTTP: the MCP session
    on the handshake-era protocol (the session manager created its id and answers 404 to any other), else the
    bearer token: on the sessionless protocol (2026-07-28) every request stands alone, an `mcp-session-id`
    header there is the client's own word, and everyone holding the profile's token is one client.
    In process (the dock): the one local client. Never the client's self-declared name."""
    headers = getattr(getattr(ctx, "request", None), "headers", None)
    if headers is None:
        return "local"
    session = headers.get("mcp-session-id")
    if session and getattr(ctx, "protocol_version", None) in HANDSHAKE_PROTOCOL_VERSIONS:
        return f"session:{session}"
    token = headers.get("authorization", "")
    return "token:" + hashlib.sha256(token.encode()).hexdigest()[:16]


def _refused(name: str, names: list[str]) -> CallToolResult:
    text = (f"Refused '{name}': this client already has {len(names)} long analyses under way "
            f"({', '.join(names)}); they run one at a time per client, tasks included. Wait for one to finish, "
            "or cancel it (tasks/cancel for a task), then call again.")
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


async def _tell_waiting(ctx: Any, ahead: list[str]) -> None:
    """A progress line for a call that waits its turn (sent only when the client asked for progress; a task
    shows it as its status)."""
    message = (f"waiting: {len(ahead)} earlier long analysis call(s) of this client "
               f"({', '.join(ahead)}) run first")
    try:
        await ctx.session.report_progress(0, None, message)
    except Exception as exc:  # a progress line is a courtesy; the call still waits its turn
        log.debug("could not send the waiting notice: %s", exc)
