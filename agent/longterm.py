"""Long-term memory hook: recall what is relevant to a new message before the loop runs."""

from __future__ import annotations

import logging
from typing import Awaitable, Callable, Sequence

from .llm.types import Message
from .stores.base import MemoryHit, MemoryStore

log = logging.getLogger(__name__)

EmbedFn = Callable[[Sequence[str]], Awaitable[list[list[float]]]]
TOP_K = 5
MIN_SCORE = 0.2  # below this a memory is noise, not context


async def recall(store: MemoryStore, embed: EmbedFn, user: str, message: str, k: int = TOP_K,
                 model: str = "") -> list[MemoryHit]:
    vectors = await embed([message])
    hits = await store.search(user, vectors[0], k=k, model=model)
    return [h for h in hits if h.score >= MIN_SCORE][:k]


def memories_message(hits: Sequence[MemoryHit]) -> Message | None:
    """One system message listing the memories, or None when there are none."""
    if not hits:
        return None
    lines = [f"- ({h.kind}) {h.content}" for h in hits]
    return {"role": "system",
            "content": "Things you remember from earlier sessions (use them if relevant):\n" + "\n".join(lines)}
