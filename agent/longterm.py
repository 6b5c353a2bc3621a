"""Long-term memory hook: recall what is relevant to a new message before the loop runs.

The memories found go with the user's message (after the history), never into the system
prompt: they change with every message, and anything that changes near the top of the prompt
makes the model re-read everything after it.
"""

from __future__ import annotations

import logging
from typing import Awaitable, Callable, Sequence

from .stores.base import MemoryHit, MemoryStore
from .tool_ranking import as_query

log = logging.getLogger(__name__)

EmbedFn = Callable[[Sequence[str]], Awaitable[list[list[float]]]]
TOP_K = 5
MIN_SCORE = 0.2  # below this a memory is noise, not context
MARKER = "[memories] "  # starts the block appended to a user message; session titles cut it off


async def recall(store: MemoryStore, embed: EmbedFn, user: str, message: str, k: int = TOP_K,
                 model: str = "") -> list[MemoryHit]:
    vectors = await embed([as_query(model, message)])
    hits = await store.search(user, vectors[0], k=k, model=model)
    return [h for h in hits if h.score >= MIN_SCORE][:k]


def memories_note(hits: Sequence[MemoryHit]) -> str:
    """The memories as a block for the end of the user's message, or "" when there are none."""
    if not hits:
        return ""
    lines = [f"- ({h.kind}) {h.content}" for h in hits]
    return MARKER + "Things you remember from earlier sessions (use them if relevant):\n" + "\n".join(lines)
