"""How a family declares what it offers: module-level functions marked `tool`, `resource`, `prompt` or
`assesses`, each once, with the MCP SDK's own options. `build_server` adds a family's marked functions to
its server in the order the module writes them.

The shared dependencies are one typed object, `ToolDeps`, which `build_server` hands the SDK as the
lifespan context. A tool or prompt asks for it with a `ctx: Context` parameter (the SDK fills it and keeps
it out of the tool's schema) and `deps_of(ctx)`; a static resource and an assessor, which the SDK calls
without a Context, are given it as their first argument when they are added.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Awaitable, Callable

from mcp.server.mcpserver import Context, MCPServer

from .confirmation import Assessment, add_assessor
from .deps import ToolDeps

MARK = "__stacgis_declared__"


def tool(**options: Any) -> Callable[[Callable], Callable]:
    """A tool: `options` are `MCPServer.tool`'s (annotations, meta, name, description…)."""
    return _marked("tool", None, options)


def resource(uri: str, **options: Any) -> Callable[[Callable], Callable]:
    """A static resource read as `fn(deps)`: `options` are `MCPServer.resource`'s."""
    return _marked("resource", uri, options)


def prompt(**options: Any) -> Callable[[Callable], Callable]:
    return _marked("prompt", None, options)


def assesses(*tool_names: str) -> Callable[[Callable], Callable]:
    """What a call of these tools would do, judged from its arguments: `fn(deps, arguments) -> Assessment`."""
    return _marked("assessor", tool_names, {})


def deps_of(ctx: Context) -> ToolDeps:
    """The dependencies of the server this call reached."""
    deps = ctx.request_context.lifespan_context
    if not isinstance(deps, ToolDeps):
        raise RuntimeError("this server was not built by build_server, so its tools have no dependencies")
    return deps


def declared(module: ModuleType) -> list[tuple[Callable, tuple[str, Any, dict[str, Any]]]]:
    """The module's own marked functions, in the order it writes them."""
    return [(fn, getattr(fn, MARK)) for fn in vars(module).values()
            if callable(fn) and hasattr(fn, MARK) and getattr(fn, "__module__", None) == module.__name__]


def add_family(server: MCPServer, module: ModuleType, deps: ToolDeps) -> None:
    for fn, (kind, target, options) in declared(module):
        if kind == "tool":
            server.tool(**options)(fn)
        elif kind == "prompt":
            server.prompt(**options)(fn)
        elif kind == "resource":
            server.resource(target, **options)(_read_with(fn, deps))
        else:
            for name in target:
                add_assessor(server, name, _assess_with(fn, deps))


def _marked(kind: str, target: Any, options: dict[str, Any]) -> Callable[[Callable], Callable]:
    def mark(fn: Callable) -> Callable:
        setattr(fn, MARK, (kind, target, options))
        return fn
    return mark


def _read_with(fn: Callable[[ToolDeps], Awaitable[Any]], deps: ToolDeps) -> Callable[[], Awaitable[Any]]:
    async def read() -> Any:
        return await fn(deps)
    read.__name__, read.__doc__ = fn.__name__, fn.__doc__
    return read


def _assess_with(fn: Callable[[ToolDeps, dict[str, Any]], Awaitable[Assessment]],
                 deps: ToolDeps) -> Callable[[dict[str, Any]], Awaitable[Assessment]]:
    async def assess(arguments: dict[str, Any]) -> Assessment:
        return await fn(deps, arguments)
    return assess
