"""Long-term memory tools (add_memory, search_memories) over the MemoryStore protocol."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from ...agent.tool_ranking import as_document, as_query
from ..common import DESTRUCTIVE, READ, WRITE, ToolInputError, ok, policy
from ..deps import ToolDeps


async def embed_one(deps: ToolDeps, text: str, *, query: bool = False) -> list[float]:
    """`text`'s vector, with the task prefix the embedding model expects (nomic: search_query/document)."""
    if deps.embed is None:
        raise ToolInputError("The embedding model is not available, so memory cannot be searched or saved now; "
                             "check that Ollama runs and the embedding model is pulled.")
    model = deps.settings.embedding_model
    return list((await deps.embed([as_query(model, text) if query else as_document(model, text)]))[0])


def hit_record(hit: Any) -> dict[str, Any]:
    return {"id": hit.id, "content": hit.content, "kind": hit.kind, "score": round(float(hit.score), 4),
            "metadata": hit.metadata}


def register_store_tools(server: MCPServer, deps: ToolDeps, *, store_attr: str, add_name: str, search_name: str,
                         noun: str, add_doc: str, search_doc: str, default_kind: str) -> None:
    """Adds an add/search pair over one MemoryStore (memories and knowledge share the shape)."""

    def store() -> Any:
        value = getattr(deps, store_attr)
        if value is None:
            raise ToolInputError(f"The {noun} store is not configured; check the storage settings.")
        return value

    async def add(content: Annotated[str, Field(min_length=1, max_length=4000)],
                  kind: Annotated[str, Field(description="e.g. fact, preference, place, method")] = default_kind,
                  source: Annotated[str | None, Field(description="Where this comes from (URL, layer, user)")] = None,
                  ) -> CallToolResult:
        vector = await embed_one(deps, content)
        metadata = {"source": source} if source else {}
        memory_id = await store().add(deps.settings.user, content, kind, vector, metadata,
                                      model=deps.settings.embedding_model)
        return ok({"id": memory_id, "kind": kind}, f"Saved to {noun} as {memory_id}")

    async def search(query: Annotated[str, Field(min_length=1)],
                     k: Annotated[int, Field(ge=1, le=20)] = 5) -> CallToolResult:
        hits = await store().search(deps.settings.user, await embed_one(deps, query, query=True), k=k,
                                    model=deps.settings.embedding_model)
        return ok({"results": [hit_record(h) for h in hits]}, f"{len(hits)} {noun} entr{'y' if len(hits) == 1 else 'ies'} found")

    server.add_tool(add, name=add_name, description=add_doc, annotations=WRITE, meta=policy())
    server.add_tool(search, name=search_name, description=search_doc, annotations=READ, meta=policy())


def register(server: MCPServer, deps: ToolDeps) -> None:
    register_store_tools(
        server, deps, store_attr="memory_store", add_name="add_memory", search_name="search_memories",
        noun="memory", default_kind="fact",
        add_doc="Remember a fact or preference of the user for later conversations (one short sentence). E.g. 'remember that I work in EPSG:2154'.",
        search_doc="Recall remembered facts and preferences of the user related to a question, most similar first. E.g. 'which CRS did I say I use?'")

    @server.tool(annotations=DESTRUCTIVE, meta=policy())
    async def delete_memory(memory_id: Annotated[str, Field(description="Id from search_memories")]) -> CallToolResult:
        """Forget one remembered fact for good (asks the user first)."""
        if deps.memory_store is None:
            raise ToolInputError("The memory store is not configured; check the storage settings.")
        if not await deps.memory_store.delete(deps.settings.user, memory_id):
            raise ToolInputError(f"No memory with id '{memory_id}'; use search_memories to find ids.")
        return ok({"deleted": memory_id}, f"Forgot memory {memory_id}")
