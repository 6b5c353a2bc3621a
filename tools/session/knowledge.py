"""Knowledge base tools (add_knowledge, search_knowledge): reference notes, a second MemoryStore."""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer

from ..deps import ToolDeps
from .memory_tools import register_store_tools


def register(server: MCPServer, deps: ToolDeps) -> None:
    register_store_tools(
        server, deps, store_attr="knowledge_store", add_name="add_knowledge", search_name="search_knowledge",
        noun="knowledge", default_kind="note",
        add_doc="Add a reference note to the knowledge base (a method, a dataset's caveat, a definition).",
        search_doc="Find knowledge-base notes (methods, dataset caveats, definitions) related to a question, most similar first.")
