"""Builds the embedded MCP server from one explicit list of families: modules whose tools, resources,
prompts and assessors are module-level functions marked as such (`tools/declare.py`), added in the order
written. The canvas family (tools that act on the QGIS project) is added with `canvas=True`, because only
the plugin has a project. The one `ToolDeps` is the server's lifespan context, which tools read through
the SDK's Context (`deps_of(ctx)`); the SDK closes nothing (the owner closes deps).
"""

from __future__ import annotations

import logging
import time
from contextlib import asynccontextmanager
from types import ModuleType
from typing import Any, AsyncIterator

from mcp.server.mcpserver import MCPServer

from ..agent.redaction import redacted
from ..agent.safety import PREFLIGHT_KEY
from .analysis import charts, collection_stats, measure, raster_tools, vector_tools, zonal_change
from .confirmation import ConfirmDestructiveMiddleware, ReadOnlyMiddleware
from .declare import add_family
from .deps import ToolDeps
from .heavy_calls import HeavyCallLimit
from .search import stac_search
from .session import discovery, knowledge, mcp_prompts, memory_tools, resources

log = logging.getLogger(__name__)

TOOL_FAMILIES: tuple[ModuleType, ...] = (
    stac_search, raster_tools, vector_tools, measure, zonal_change, charts, collection_stats,  # analyses
    memory_tools, knowledge, discovery, resources, mcp_prompts,  # the session's own surfaces
)

INSTRUCTIONS = ("Tools for a GIS analyst in QGIS: find STAC collections and items, read rasters and vectors "
                "in place, compute statistics, remember facts. Errors say what to change; read them.")


def families(canvas: bool = False) -> tuple[ModuleType, ...]:
    """Every family a server built with `canvas` has, in the order their tools are listed."""
    if not canvas:
        return TOOL_FAMILIES
    from .canvas import family  # imports qgis: only where there is a project

    return TOOL_FAMILIES + family.MODULES


def build_server(deps: ToolDeps, *, canvas: bool = False, tasks: Any = None) -> MCPServer:
    """`tasks`: a `tools.outside.tasks.ToolTasks` to offer long analyses as MCP tasks (the outside endpoint)."""
    @asynccontextmanager
    async def lifespan(_server: MCPServer) -> AsyncIterator[ToolDeps]:
        yield deps  # the owner closes deps

    # log_level: MCPServer calls logging.basicConfig, which would make QGIS log every HTTP request
    server: MCPServer = MCPServer("stacgis-agent", instructions=INSTRUCTIONS, lifespan=lifespan, log_level="WARNING",
                                   extensions=[tasks] if tasks is not None else None)
    if canvas:
        from .canvas import family

        family.prepare(deps)
    for module in families(canvas):
        add_family(server, module, deps)
    server.middleware.append(SessionStatsMiddleware(deps))
    if deps.read_only:  # an outside client the analyst lets read only: nothing that writes is listed or run
        server.middleware.append(ReadOnlyMiddleware(server))
    server.middleware.append(ConfirmDestructiveMiddleware(server))  # every client's calls, the dock's too
    # after the OK: a slot is not held while the user decides, and a task never skips the question
    server.middleware.append(HeavyCallLimit(server, tasks=tasks))
    server.middleware.append(redacted_errors)  # inside the limit: a task's kept result is redacted too
    if canvas and deps.outside_client:  # innermost: what runs is recorded as the outside client's own turn
        server.middleware.append(family.turn_owners(server, deps))
    return server


async def redacted_errors(ctx: Any, call_next: Any) -> Any:
    """A failed call's text with its secrets redacted (GDAL's message naming a signed URL, a token in an error)
    before the model, an outside client or the session log sees it."""
    result = await call_next(ctx)
    if ctx.method == "tools/call" and isinstance(result, dict) and result.get("isError"):  # the wire form here
        for part in result.get("content") or []:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                part["text"] = redacted(part["text"])
    return result


class SessionStatsMiddleware:
    """Counts tool calls, errors and time for the analytics://summary resource."""

    def __init__(self, deps: ToolDeps) -> None:
        self.deps = deps

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        if ctx.method != "tools/call" or ((ctx.params or {}).get("_meta") or {}).get(PREFLIGHT_KEY):
            return await call_next(ctx)  # a preflight (what would this call do?) is not a call
        name = str((ctx.params or {}).get("name", "?"))
        started = time.perf_counter()
        failed: bool | None = True
        try:
            result = await call_next(ctx)
            if isinstance(result, dict) and result.get("resultType") == "task":
                failed = None  # the call goes on as a task: tools.outside.tasks records it when it ends
                return result
            failed = bool(getattr(result, "is_error", False) or (isinstance(result, dict) and result.get("isError")))
            return result
        finally:
            if failed is not None:
                self.deps.stats.record(name, time.perf_counter() - started, failed)
