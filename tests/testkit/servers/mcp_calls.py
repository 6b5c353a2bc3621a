"""Calling tools of an in-process MCP server from tests."""

from __future__ import annotations

from typing import Any

from mcp import Client


class OneShotClient:
    """Opens an in-process MCP session per call: anyio wants a session entered and left in one task,
    which async pytest fixtures do not guarantee."""

    def __init__(self, server: Any, user_approves: bool = False) -> None:
        """`user_approves`: the user says yes whenever a destructive call asks for confirmation."""
        self.server = server
        self.user_approves = user_approves

    async def call_tool(self, name: str, arguments: dict | None = None):
        kwargs = {"elicitation_callback": _yes} if self.user_approves else {}
        async with Client(self.server, **kwargs) as session:
            return await session.call_tool(name, arguments or {})


async def _yes(_context: Any, _params: Any):
    from mcp_types import ElicitResult

    return ElicitResult(action="accept", content={"confirm": True})


def package_root() -> str:
    """The folder holding the `stacgis_agent` symlink (made by tests/conftest.py), for subprocesses."""
    from pathlib import Path

    import stacgis_agent

    return str(Path(stacgis_agent.__path__[0]).parent)
