"""Tool selection: rank the tools by how well they answer a request, for large tool sets.

score = cosine(query, tool) + KEYWORD_WEIGHT x (sum over the request's keywords found in the
tool's name/description, each weighted by its rarity among the tools: 1 for a word only one
tool has, near 0 for a word every tool has). A word like "location" that many tools mention
no longer outweighs "elevation". Ties go to the tool with the higher cosine, then to the one
whose name holds more of the request's words, and only then to the server's order.

Tool vectors are embedded once and cached by name + description hash, so a request costs one
query embedding plus a few numpy operations. Which tools the model finally sees, and when that
list may change, is agent/visible_tools.py's job.
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
from dataclasses import dataclass
from typing import Awaitable, Callable, Iterable, Sequence

import numpy as np

log = logging.getLogger(__name__)

EmbedFn = Callable[[Sequence[str]], Awaitable[list[list[float]]]]
KEYWORD_WEIGHT = 0.1
_WORD = re.compile(r"[^\W_]+")
_STOPWORDS = frozenset("""
a an and are as at be by can could do does for from get give how i in into is it its me my of on or
our please show the this that these those to use using what when where which with you your all any
some make want would like need let lets now then there their them just one two over under per
""".split())

# Embedding models trained with task prefixes rank far better when given them.
_TASK_PREFIXES = {
    "nomic-embed-text": ("search_query: ", "search_document: "),
    "mxbai-embed-large": ("Represent this sentence for searching relevant passages: ", ""),
}


def task_prefixes(model: str) -> tuple[str, str]:
    """(query prefix, document prefix) the embedding `model` expects; ("", "") when none."""
    base = model.strip().lower().rsplit("/", 1)[-1].split(":", 1)[0]
    return _TASK_PREFIXES.get(base, ("", ""))


def as_query(model: str, text: str) -> str:
    """`text` as a search request for `model` (a user message looking for tools or memories)."""
    return task_prefixes(model)[0] + text


def as_document(model: str, text: str) -> str:
    """`text` as a searched document for `model` (a tool description, a memory)."""
    return task_prefixes(model)[1] + text


def keywords(text: str) -> set[str]:
    words = _WORD.findall(text.lower())
    return {_stem(w) for w in words if w not in _STOPWORDS and len(w) > 1}


def _stem(word: str) -> str:
    # crude on purpose: "layers"/"layer", "clipping"/"clip", "statistics"/"statistic" should meet
    for suffix in ("ing", "ies", "es", "ed", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix) and not word.endswith("ss"):  # class, process
            word = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            if suffix in ("ing", "ed") and len(word) > 3 and word[-1] == word[-2] and word[-1] not in "ls":
                word = word[:-1]  # clipp -> clip, mapp -> map
            break
    # "features" lost "es" above and "feature" must meet it: a final e goes ("featur", "chang", "lin")
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


@dataclass(frozen=True)
class ToolText:
    name: str
    description: str

    @property
    def text(self) -> str:
        return f"{self.name.replace('_', ' ')}: {self.description}"

    @property
    def cache_key(self) -> str:
        digest = hashlib.sha1(self.description.encode(), usedforsecurity=False).hexdigest()[:16]  # a cache key
        return f"{self.name}:{digest}"


# Tool vectors shared by every chat of this QGIS session, per embedding model.
_VECTORS: dict[str, dict[str, np.ndarray]] = {}


class ToolSelector:
    def __init__(self, embed: EmbedFn | None = None, top_k: int = 10,
                 keyword_weight: float = KEYWORD_WEIGHT, embedding_model: str = ""):
        self.embed = embed
        self.top_k = top_k
        self.keyword_weight = keyword_weight
        self.embedding_model = embedding_model
        # an unnamed model gets a private cache: vectors of different models must never mix
        self._cache = _VECTORS.setdefault(embedding_model, {}) if embedding_model else {}
        self.names: list[str] = []
        self._matrix: np.ndarray | None = None  # tools x dim, rows L2-normalised
        self._vocab: dict[str, int] = {}
        self._incidence = np.zeros((0, 0), dtype=np.float32)  # vocab x tools, weighted by rarity
        self._in_name = np.zeros((0, 0), dtype=np.float32)  # vocab x tools: the word is in the name
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
                vectors = await self.embed([as_document(self.embedding_model, t.text) for t in missing])
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
        in_name = np.zeros_like(incidence)
        for col, (tool, words) in enumerate(zip(tools, per_tool)):
            for w in words:
                incidence[self._vocab[w], col] = 1.0
            for w in keywords(tool.name.replace("_", " ")):
                in_name[self._vocab[w], col] = 1.0
        n = len(tools)
        if n > 1:  # rarity: 1 for a word of one tool, 0 for a word of every tool
            df = incidence.sum(axis=1, keepdims=True)
            incidence *= np.log(n / df) / math.log(n)
        self._incidence, self._in_name = incidence, in_name

    def _rows(self, query: str) -> list[int]:
        return [self._vocab[w] for w in keywords(query) if w in self._vocab]

    def _cosines(self, query_vector: Sequence[float] | np.ndarray | None) -> np.ndarray:
        if self._matrix is None or query_vector is None:
            return np.zeros(len(self.names), dtype=np.float32)
        return self._matrix @ _normalise(np.asarray(query_vector, dtype=np.float32))

    def scores(self, query: str, query_vector: Sequence[float] | np.ndarray | None = None) -> np.ndarray:
        total = self._cosines(query_vector).copy()
        rows = self._rows(query)
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
            rows = self._rows(query)
            name_hits = self._in_name[rows].sum(axis=0) if rows else np.zeros(len(scores), dtype=np.float32)
            # lexsort: last key first; ties on score go to the cosine, then to words in the name
            order = np.lexsort((np.arange(len(scores)), -name_hits, -self._cosines(query_vector),
                                -np.round(scores, 6)))
            for i in order[:k]:
                if np.isfinite(scores[i]) and self.names[i] not in chosen:
                    chosen.append(self.names[i])
        return chosen


def _normalise(vec: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vec))
    return vec / norm if norm > 0 else vec
