"""Moves memories embedded by an older model to the current one, so they can be searched again."""

from __future__ import annotations

import logging
from typing import Awaitable, Callable, Protocol, Sequence

from ..tool_ranking import as_document

log = logging.getLogger(__name__)

Embed = Callable[[Sequence[str]], Awaitable[list[list[float]]]]


class ReembeddableStore(Protocol):
    async def stale(self, user: str, model: str, dim: int, limit: int = 64) -> list[tuple[str, str]]: ...
    async def replace_embedding(self, user: str, memory_id: str, embedding: Sequence[float],
                                model: str) -> None: ...


async def reembed(store: ReembeddableStore, embed: Embed, model: str, user: str, batch: int = 32) -> int:
    """Re-embeds the user's memories whose model or dimension differs from `model`; returns how
    many. Only that user's: teammates sharing the server may still use the old model.

    Until this has run, such memories are simply not found by searches with the new model."""
    probe = await embed(["dimension probe"])
    dim = len(probe[0])
    done = 0
    while True:
        rows = await store.stale(user, model, dim, batch)
        if not rows:
            return done
        vectors = await embed([as_document(model, content) for _, content in rows])
        for (memory_id, _), vector in zip(rows, vectors):
            if len(vector) != dim:
                raise ValueError(f"the embedding model {model!r} returned vectors of {len(vector)} and {dim} "
                                 "numbers; it must always return the same size")
            await store.replace_embedding(user, memory_id, vector, model)
        done += len(rows)
        log.info("re-embedded %d memories with %s", done, model)
