"""list_available_tools: what the server can do, with each tool's safety."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from ...agent.safety import tool_safety
from ..common import READ, ok, policy
from ..deps import ToolDeps


def register(server: MCPServer, deps: ToolDeps) -> None:
    @server.tool(annotations=READ, meta=policy(discovery=True))
    async def list_available_tools(
        keyword: Annotated[str | None, Field(description="Only tools whose name or description contains this; "
                                                         "a tool's exact name also gives its parameters")] = None,
    ) -> CallToolResult:
        """List the tools, each with one line on what it does and whether it reads, writes or destroys. Answers 'what can you do?'"""
        rows = []
        for tool in await server.list_tools():
            first_line = (tool.description or "").strip().split("\n")[0]
            if keyword and keyword.lower() not in (tool.name + " " + first_line).lower():
                continue
            row = {"name": tool.name, "description": first_line[:200], "safety": tool_safety(tool).value}
            if keyword and keyword.strip() == tool.name:  # a tool reached through call_tool: how to call it
                row["parameters"] = tool.input_schema
            rows.append(row)
        return ok({"tools": rows}, f"{len(rows)} tool(s): " + ", ".join(r["name"] for r in rows))
