"""Knowledge base tools (add_knowledge, search_knowledge): reference notes, a second MemoryStore."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from ..common import READ, WRITE, policy
from ..declare import deps_of, tool
from .memory_tools import CONTENT, HITS, QUERY, SOURCE, add_to_store, search_store


@tool(annotations=WRITE, meta=policy())
async def add_knowledge(ctx: Context, content: CONTENT,
                        kind: Annotated[str, Field(description="e.g. fact, preference, place, method")] = "note",
                        source: SOURCE = None) -> CallToolResult:
    """Add a reference note to the knowledge base (a method, a dataset's caveat, a definition)."""
    return await add_to_store(deps_of(ctx), "knowledge_store", "knowledge", content, kind, source)


@tool(annotations=READ, meta=policy())
async def search_knowledge(ctx: Context, query: QUERY, k: HITS = 5) -> CallToolResult:
    """Find knowledge-base notes (methods, dataset caveats, definitions) related to a question, most similar first."""
    return await search_store(deps_of(ctx), "knowledge_store", "knowledge", query, k)
