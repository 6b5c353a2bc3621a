"""Calling tools of an in-process MCP server from tests."""

from __future__ import annotations

from typing import Any

from mcp import Client


class OneShotClient:
    """Opens an in-process MCP session per call: anyio wants a session entered and left in one task,
    which async pytest fixtures do not guarantee."""

    def __init__(self, server: Any) -> None:
        self.server = server

    async def call_tool(self, name: str, arguments: dict | None = None):
        async with Client(self.server) as session:
            return await session.call_tool(name, arguments or {})


def package_root() -> str:
    """The folder holding the `stacgis_agent` symlink (made by tests/conftest.py), for subprocesses."""
    from pathlib import Path

    import stacgis_agent

    return str(Path(stacgis_agent.__path__[0]).parent)
