"""Long-term memory tools (add_memory, search_memories, delete_memory) over the MemoryStore protocol.

delete_memory's card quotes the remembered text it would forget, read from the store (`assess_forgetting`)."""

from __future__ import annotations

import logging
import textwrap
import time
from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from ...agent.tool_ranking import as_document, as_query
from ..common import DESTRUCTIVE, READ, WRITE, ToolInputError, ok, policy
from ..confirmation import Assessment, fold
from ..declare import assesses, deps_of, tool
from ..deps import ToolDeps

log = logging.getLogger(__name__)
SCANNED = 1000  # the store protocol reads memories by recency: the card looks for the id among this many
QUOTED = 80  # characters of the memory quoted in the card's title; the effect line quotes it in full


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


def store_of(deps: ToolDeps, store_attr: str, noun: str) -> Any:
    value = getattr(deps, store_attr)
    if value is None:
        raise ToolInputError(f"The {noun} store is not configured; check the storage settings.")
    return value


async def add_to_store(deps: ToolDeps, store_attr: str, noun: str, content: str, kind: str,
                       source: str | None, extra: dict[str, Any] | None = None) -> CallToolResult:
    """The add half of a memory-like store (memories and knowledge share the shape); `extra`: more metadata."""
    vector = await embed_one(deps, content)
    metadata = {**({"source": source} if source else {}), **(extra or {})}
    memory_id = await store_of(deps, store_attr, noun).add(deps.settings.user, content, kind, vector, metadata,
                                                           model=deps.settings.embedding_model)
    return ok({"id": memory_id, "kind": kind}, f"Saved to {noun} as {memory_id}")


async def search_store(deps: ToolDeps, store_attr: str, noun: str, query: str, k: int) -> CallToolResult:
    hits = await store_of(deps, store_attr, noun).search(deps.settings.user, await embed_one(deps, query, query=True),
                                                         k=k, model=deps.settings.embedding_model)
    return ok({"results": [hit_record(h) for h in hits]}, f"{len(hits)} {noun} entr{'y' if len(hits) == 1 else 'ies'} found")


CONTENT = Annotated[str, Field(min_length=1, max_length=4000)]
SOURCE = Annotated[str | None, Field(description="Where this comes from (URL, layer, user)")]
QUERY = Annotated[str, Field(min_length=1)]
HITS = Annotated[int, Field(ge=1, le=20)]


@tool(annotations=WRITE, meta=policy())
async def add_memory(ctx: Context, content: CONTENT,
                     kind: Annotated[str, Field(description="e.g. fact, preference, place, method")] = "fact",
                     source: SOURCE = None) -> CallToolResult:
    """Remember a fact or preference of the user for later conversations (one short sentence). E.g. 'remember that I work in EPSG:2154'."""
    deps = deps_of(ctx)
    return await add_to_store(deps, "memory_store", "memory", content, kind, source,
                              {"learned_from": await learned_from(deps)})


async def learned_from(deps: ToolDeps) -> dict[str, Any]:
    """Where a memory is being learned, for the Memories list (agent/memory_book.py): the dock's chat and the
    user's message it answers, or an outside client."""
    if deps.outside_client:
        return {"client": "outside"}
    if deps.chat_record is None:
        return {}
    try:
        record = await deps.chat_record()
    except Exception as exc:  # noqa: BLE001 - where it came from is a bonus, the memory is saved anyway
        log.warning("could not read the chat a memory is learned in: %s", exc)
        return {}
    if record is None:
        return {}
    asked = [e for e in record.events if isinstance(e, dict) and e.get("type") == "user_message"]
    title = record.info.title or (" ".join(str(asked[0].get("text", "")).split())[:60] if asked else "")
    return {"session_id": record.info.session_id, "message_id": asked[-1].get("message_id", "") if asked else "",
            "chat": title, "message": len(asked)}


@tool(annotations=READ, meta=policy())
async def search_memories(ctx: Context, query: QUERY, k: HITS = 5) -> CallToolResult:
    """Recall remembered facts and preferences of the user related to a question, most similar first. E.g. 'which CRS did I say I use?'"""
    return await search_store(deps_of(ctx), "memory_store", "memory", query, k)


@tool(annotations=DESTRUCTIVE, meta=policy())
async def delete_memory(ctx: Context,
                        memory_id: Annotated[str, Field(description="Id from search_memories")]) -> CallToolResult:
    """Forget one remembered fact for good (asks the user first)."""
    deps = deps_of(ctx)
    if deps.memory_store is None:
        raise ToolInputError("The memory store is not configured; check the storage settings.")
    if not await deps.memory_store.delete(deps.settings.user, memory_id):
        raise ToolInputError(f"No memory with id '{memory_id}'; use search_memories to find ids.")
    return ok({"deleted": memory_id}, f"Forgot memory {memory_id}")


@assesses("delete_memory")
async def assess(deps: ToolDeps, arguments: dict[str, Any]) -> Assessment:
    return await assess_forgetting(deps, str(arguments.get("memory_id", "")))


async def assess_forgetting(deps: ToolDeps, memory_id: str) -> Assessment:
    """What delete_memory(memory_id) would forget; never raises (an unreadable store is said as such)."""
    shown, user = _inline(repr(memory_id)), deps.settings.user
    if deps.memory_store is None:
        return Assessment(True, (f"would delete memory {shown}, but the memory store is not configured, so nothing "
                                 "would be deleted",), action="Forget a remembered fact")
    try:
        hits = await deps.memory_store.recent(user, SCANNED)
    except Exception as exc:  # noqa: BLE001 - the card says what it could not read
        log.warning("could not read the memory store for the confirmation card: %s", exc)
        return Assessment(True, (f"deletes memory {shown} of user '{user}' for good; the store could not be read to "
                                 f"say what it holds ({exc})",), action="Forget a remembered fact")
    hit = next((h for h in hits if h.id == memory_id), None)
    if hit is None:
        among = f" among the newest {len(hits)}" if len(hits) >= SCANNED else ""
        return Assessment(True, (f"no memory with id {shown} is stored for user '{user}'{among}, so nothing would "
                                 "be deleted",), action="Forget a memory that is not in the store")
    saved = time.strftime("%Y-%m-%d", time.localtime(hit.created_at)) if hit.created_at else "at an unknown date"
    return Assessment(True, (f"deletes for good the {hit.kind} {_inline(repr(hit.content))}, saved {saved} "
                             f"(memory {shown}); later chats no longer recall it",),
                      action=f"Forget the remembered {hit.kind} {textwrap.shorten(hit.content, QUOTED)!r}")


def _inline(text: str, width: int = 40) -> str:
    """Short text stays in the sentence; longer text goes in full on folded lines of its own."""
    return text if len(text) <= width else "\n    " + fold(text)
