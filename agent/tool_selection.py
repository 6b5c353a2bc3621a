"""Dynamic tool selection: offer the model only the tools relevant to this step.

score = cosine(query, tool) + KEYWORD_WEIGHT x (number of query keywords in the tool's
name/description). Tool vectors are embedded once and cached by name + description hash,
so a step costs one query embedding plus a few numpy operations.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from typing import Awaitable, Callable, Iterable, Sequence

import numpy as np

log = logging.getLogger(__name__)

EmbedFn = Callable[[Sequence[str]], Awaitable[list[list[float]]]]
KEYWORD_WEIGHT = 0.1
_WORD = re.compile(r"[a-z0-9]+")
_STOPWORDS = frozenset("""
a an and are as at be by can could do does for from get give how i in into is it its me my of on or
our please show the this that these those to use using what when where which with you your all any
some make want would like need let lets now then there their them just one two over under per
""".split())


def keywords(text: str) -> set[str]:
    words = _WORD.findall(text.lower().replace("_", " "))
    return {_stem(w) for w in words if w not in _STOPWORDS and len(w) > 1}


def _stem(word: str) -> str:
    # crude on purpose: "layers"/"layer", "clipping"/"clip" should meet
    for suffix in ("ing", "ies", "es", "ed", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


@dataclass(frozen=True)
class ToolText:
    name: str
    description: str

    @property
    def text(self) -> str:
        return f"{self.name.replace('_', ' ')}: {self.description}"

    @property
    def cache_key(self) -> str:
        digest = hashlib.sha1(self.description.encode()).hexdigest()[:16]
        return f"{self.name}:{digest}"


# Tool vectors shared by every chat of this QGIS session, per embedding model.
_VECTORS: dict[str, dict[str, np.ndarray]] = {}


class ToolSelector:
    def __init__(self, embed: EmbedFn | None = None, top_k: int = 20,
                 keyword_weight: float = KEYWORD_WEIGHT, embedding_model: str = ""):
        self.embed = embed
        self.top_k = top_k
        self.keyword_weight = keyword_weight
        # an unnamed model gets a private cache: vectors of different models must never mix
        self._cache = _VECTORS.setdefault(embedding_model, {}) if embedding_model else {}
        self.names: list[str] = []
        self._matrix: np.ndarray | None = None  # tools x dim, rows L2-normalised
        self._vocab: dict[str, int] = {}
        self._incidence = np.zeros((0, 0), dtype=np.float32)  # vocab x tools
        self.embeddings_ok = False

    async def index(self, tools: Iterable[ToolText]) -> None:
        """(Re)builds the index; only tools whose name or description changed are embedded."""
        tools = list(tools)
        self.names = [t.name for t in tools]
        self._build_keywords(tools)
        self._matrix = None
        self.embeddings_ok = False
        if self.embed is None or not tools:
            return
        missing = [t for t in tools if t.cache_key not in self._cache]
        try:
            if missing:
                vectors = await self.embed([t.text for t in missing])
                for tool, vec in zip(missing, vectors):
                    self._cache[tool.cache_key] = _normalise(np.asarray(vec, dtype=np.float32))
        except Exception as exc:  # the embedding model may be missing: keywords still work
            log.warning("tool embeddings unavailable, selecting by keywords only: %s", exc)
            return
        self._matrix = np.stack([self._cache[t.cache_key] for t in tools])
        self.embeddings_ok = True

    def _build_keywords(self, tools: list[ToolText]) -> None:
        per_tool = [keywords(t.text) for t in tools]
        self._vocab = {w: i for i, w in enumerate(sorted(set().union(*per_tool)))} if per_tool else {}
        incidence = np.zeros((len(self._vocab), len(tools)), dtype=np.float32)
        for col, words in enumerate(per_tool):
            for w in words:
                incidence[self._vocab[w], col] = 1.0
        self._incidence = incidence

    def scores(self, query: str, query_vector: Sequence[float] | np.ndarray | None = None) -> np.ndarray:
        n = len(self.names)
        total = np.zeros(n, dtype=np.float32)
        if self._matrix is not None and query_vector is not None:
            total += self._matrix @ _normalise(np.asarray(query_vector, dtype=np.float32))
        rows = [self._vocab[w] for w in keywords(query) if w in self._vocab]
        if rows:
            total += self.keyword_weight * self._incidence[rows].sum(axis=0)
        return total

    def select(self, query: str, query_vector: Sequence[float] | np.ndarray | None = None, *,
               k: int | None = None, allowed: set[str] | None = None,
               required: Iterable[str] = ()) -> list[str]:
        """Names of the top-k tools for `query` among `allowed`, plus every `required` one."""
        k = self.top_k if k is None else k
        scores = self.scores(query, query_vector)
        if allowed is not None:
            mask = np.fromiter((name in allowed for name in self.names), dtype=bool, count=len(self.names))
            scores = np.where(mask, scores, -np.inf)
        chosen: list[str] = [name for name in required if allowed is None or name in allowed]
        if k > 0 and len(scores):
            take = min(k, len(scores))
            top = np.argpartition(-scores, take - 1)[:take]
            for i in top[np.argsort(-scores[top], kind="stable")]:
                if np.isfinite(scores[i]) and self.names[i] not in chosen:
                    chosen.append(self.names[i])
        return chosen


def _normalise(vec: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vec))
    return vec / norm if norm > 0 else vec
