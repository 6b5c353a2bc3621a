"""Calling tools of an in-process MCP server from tests."""

from __future__ import annotations

from typing import Any

from mcp import Client


class OneShotClient:
    """Opens an in-process MCP session per call: anyio wants a session entered and left in one task,
    which async pytest fixtures do not guarantee. `confirm=True`: a client whose user says yes when a
    destructive call asks (MCP elicitation); by default the client cannot ask, so such calls are refused."""

    def __init__(self, server: Any, confirm: bool = False) -> None:
        self.server = server
        self.confirm = confirm

    async def call_tool(self, name: str, arguments: dict | None = None):
        kwargs = {"elicitation_callback": _user_says_yes} if self.confirm else {}
        async with Client(self.server, **kwargs) as session:
            return await session.call_tool(name, arguments or {})


async def _user_says_yes(_context: Any, _params: Any) -> Any:
    from mcp_types import ElicitResult

    return ElicitResult(action="accept", content={"confirm": True})


def package_root() -> str:
    """The folder holding the `stacgis_agent` symlink (made by tests/conftest.py), for subprocesses."""
    from pathlib import Path

    import stacgis_agent

    return str(Path(stacgis_agent.__path__[0]).parent)
