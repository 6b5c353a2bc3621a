"""list_available_tools: what the server can do, with each tool's safety."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from ...agent.safety import tool_safety
from ..common import READ, ok, policy
from ..declare import tool


@tool(annotations=READ, meta=policy(discovery=True))
async def list_available_tools(
    ctx: Context,
    keyword: Annotated[str | None, Field(description="Only tools whose name or description contains this; "
                                                     "a tool's exact name also gives its parameters")] = None,
) -> CallToolResult:
    """List the tools, each with one line on what it does and whether it reads, writes or destroys. Answers 'what can you do?'"""
    rows = []
    for offered in await ctx.mcp_server.list_tools():
        first_line = (offered.description or "").strip().split("\n")[0]
        if keyword and keyword.lower() not in (offered.name + " " + first_line).lower():
            continue
        row = {"name": offered.name, "description": first_line[:200], "safety": tool_safety(offered).value}
        if keyword and keyword.strip() == offered.name:  # a tool reached through call_tool: how to call it
            row["parameters"] = offered.input_schema
        rows.append(row)
    return ok({"tools": rows}, f"{len(rows)} tool(s): " + ", ".join(r["name"] for r in rows))
