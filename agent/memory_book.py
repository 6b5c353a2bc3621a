"""The analyst's view of the long-term memories: the same store the model's memory tools read and write
(tools/session/memory_tools.py), listed with what each was learned from and when, searched, edited (the new
text is embedded again, so the model recalls it by what it says now), deleted, and exported to or imported from
Markdown. The dock's Memories tab (ui/memories_panel.py) shows it; no Qt here.

The Markdown is one section per memory, readable and editable in any editor:

    ## preference · 2026-12-06 10:15
    I work in EPSG:2154.

    _Learned from: chat “remember my CRS”, message 1 · memory 4f3a…_
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Awaitable, Callable, Sequence

from .dock_text import Translate, as_written
from .stores.base import MemoryHit, MemoryStore
from .tool_ranking import as_document

EmbedFn = Callable[[Sequence[str]], Awaitable[list[list[float]]]]
LISTED = 1000  # the newest memories the list shows and searches
TITLE = "# Memories (STAC GIS Agent)"
_SECTION = re.compile(r"^## (?P<kind>[^·\n]*?)\s*(?:·\s*(?P<when>[^\n]*))?$", re.MULTILINE)
_FOOTER = re.compile(r"^_(?:Learned from|Imported from|Learned).*_$", re.MULTILINE)


@dataclass(frozen=True)
class LearnedFrom:
    """Where a memory came from, as the add_memory tool recorded it (metadata["learned_from"])."""

    session_id: str = ""
    message_id: str = ""
    chat: str = ""  # the chat's title when it was learned
    message: int = 0  # the user's message number in that chat, from 1
    client: str = ""  # "outside" for an outside MCP client; "import" for a Markdown import

    @classmethod
    def of(cls, hit: MemoryHit) -> LearnedFrom:
        data = hit.metadata.get("learned_from") if isinstance(hit.metadata, dict) else None
        if not isinstance(data, dict):
            return cls()
        return cls(str(data.get("session_id") or ""), str(data.get("message_id") or ""), str(data.get("chat") or ""),
                   int(data.get("message") or 0), str(data.get("client") or ""))

    def words(self, tr: Translate = as_written) -> str:
        if self.client == "outside":
            return tr("an outside MCP client")
        if self.client == "import":
            return tr("an imported Markdown file")
        if not self.session_id:
            return tr("not recorded")
        chat = tr("chat “{title}”").format(title=self.chat) if self.chat else tr("an untitled chat")
        return tr("{chat}, message {number}").format(chat=chat, number=self.message) if self.message else chat


def when(hit: MemoryHit) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(hit.created_at)) if hit.created_at else ""


class MemoryBook:
    def __init__(self, store: MemoryStore, embed: EmbedFn | None, user: str, model: str):
        self.store = store
        self.embed = embed
        self.user = user
        self.model = model

    async def entries(self, query: str = "") -> list[MemoryHit]:
        """The newest memories first; `query` keeps those whose text, kind or origin holds every word of it."""
        hits = await self.store.recent(self.user, LISTED)
        words = query.lower().split()
        if not words:
            return hits
        return [h for h in hits if all(w in f"{h.content} {h.kind} {LearnedFrom.of(h).chat}".lower() for w in words)]

    async def edit(self, hit: MemoryHit, content: str, kind: str) -> bool:
        """Rewrites a memory with the analyst's text, embedded again; where it was learned is kept."""
        content, kind = content.strip(), (kind.strip() or hit.kind)
        if not content:
            raise ValueError("a memory needs some text; delete it instead")
        vector = await self._vector(content)
        metadata = {**(hit.metadata or {}), "edited_at": time.time()}
        return await self.store.update(self.user, hit.id, content, kind, vector, self.model, metadata)

    async def forget(self, hit: MemoryHit) -> bool:
        return await self.store.delete(self.user, hit.id)

    async def export_markdown(self, tr: Translate = as_written) -> str:
        """Every listed memory, oldest first, as Markdown (see the module's docstring)."""
        sections = [TITLE, ""]
        for hit in reversed(await self.store.recent(self.user, LISTED)):
            sections += [f"## {hit.kind or 'fact'} · {when(hit)}", hit.content.strip(), "",
                         f"_{tr('Learned from: {origin}').format(origin=LearnedFrom.of(hit).words(tr))} · "
                         f"{tr('memory {id}').format(id=hit.id)}_", ""]
        return "\n".join(sections)

    async def import_markdown(self, text: str) -> int:
        """Adds the memories of a Markdown export that are not stored yet (same text and kind); returns how many."""
        have = {(h.content.strip(), h.kind) for h in await self.store.recent(self.user, LISTED)}
        added = 0
        for kind, content in parse_markdown(text):
            if (content, kind) in have:
                continue
            vector = await self._vector(content)
            await self.store.add(self.user, content, kind, vector, {"learned_from": {"client": "import"}},
                                 model=self.model)
            have.add((content, kind))
            added += 1
        return added

    async def _vector(self, content: str) -> list[float]:
        if self.embed is None:
            raise RuntimeError("the embedding model is not available, so the memory cannot be saved now; "
                               "check that Ollama runs and the embedding model is pulled")
        return list((await self.embed([as_document(self.model, content)]))[0])


def parse_markdown(text: str) -> list[tuple[str, str]]:
    """(kind, content) of each `## kind · date` section; text before the first section and footers are left out."""
    found = []
    matches = list(_SECTION.finditer(text))
    for match, following in zip(matches, [*matches[1:], None]):
        body = text[match.end(): following.start() if following else len(text)]
        content = _FOOTER.sub("", body).strip()
        if content:
            found.append(((match.group("kind") or "fact").strip() or "fact", content))
    return found
