"""Builds the embedded MCP server: one module per tool family, each with `register(server, deps)`.

Another family (e.g. canvas tools) joins by adding its module name to TOOL_FAMILIES or by
calling `build_server(deps, extra_families=[module])`.
"""

from __future__ import annotations

import importlib
import logging
import time
from contextlib import asynccontextmanager
from types import ModuleType
from typing import Any, AsyncIterator, Iterable

from mcp.server.mcpserver import MCPServer

from .confirmation import PREFLIGHT_KEY, ConfirmDestructiveMiddleware
from .deps import ToolDeps
from .heavy_calls import HeavyCallLimit

log = logging.getLogger(__name__)

TOOL_FAMILIES = ("stac.tools", "raster", "vector", "analytics", "charts", "memory_tools", "knowledge", "discovery",
                 "resources", "mcp_prompts", "collection_stats")
EXTRA_MODULES = ()

INSTRUCTIONS = ("Tools for a GIS analyst in QGIS: find STAC collections and items, read rasters and vectors "
                "in place, compute statistics, remember facts. Errors say what to change; read them.")


def build_server(deps: ToolDeps, extra_families: Iterable[ModuleType] = ()) -> MCPServer:
    @asynccontextmanager
    async def lifespan(_server: MCPServer) -> AsyncIterator[ToolDeps]:
        yield deps  # tools reach it via ctx.request_context.lifespan_context; the owner closes deps

    # log_level: MCPServer calls logging.basicConfig, which would make QGIS log every HTTP request
    server: MCPServer = MCPServer("stacgis-agent", instructions=INSTRUCTIONS, lifespan=lifespan, log_level="WARNING")
    for name in TOOL_FAMILIES + EXTRA_MODULES:
        importlib.import_module(f"{__package__}.{name}").register(server, deps)
    for module in extra_families:
        module.register(server, deps)
    server.middleware.append(SessionStatsMiddleware(deps))
    server.middleware.append(ConfirmDestructiveMiddleware(server))  # every client's calls, the dock's too
    server.middleware.append(HeavyCallLimit(server))  # after the OK: a slot is not held while the user decides
    return server


class SessionStatsMiddleware:
    """Counts tool calls, errors and time for the analytics://summary resource."""

    def __init__(self, deps: ToolDeps) -> None:
        self.deps = deps

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        if ctx.method != "tools/call" or ((ctx.params or {}).get("_meta") or {}).get(PREFLIGHT_KEY):
            return await call_next(ctx)  # a preflight (what would this call do?) is not a call
        name = str((ctx.params or {}).get("name", "?"))
        started = time.perf_counter()
        failed = True
        try:
            result = await call_next(ctx)
            failed = bool(getattr(result, "is_error", False) or (isinstance(result, dict) and result.get("isError")))
            return result
        finally:
            self.deps.stats.record(name, time.perf_counter() - started, failed)
