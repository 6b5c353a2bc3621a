"""Shared by the memory backends: table-name checks, vector handling, the exported form."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from .base import MemoryHit

_TABLE_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def checked_table_name(table: str) -> str:
    # A table name cannot be a query parameter, so it is restricted to a safe alphabet instead.
    if not _TABLE_NAME.match(table):
        raise ValueError(f"invalid table name {table!r}: use lowercase letters, digits and underscores")
    return table


def new_memory_id() -> str:
    return uuid.uuid4().hex


def as_vector(embedding: Sequence[float]) -> np.ndarray:
    vec = np.asarray(embedding, dtype=np.float32).reshape(-1)
    if vec.size == 0:
        raise ValueError("an embedding needs at least one number; check the embedding model is loaded")
    if not np.all(np.isfinite(vec)):
        raise ValueError("the embedding holds NaN or infinite values; the embedding model output is broken")
    return vec


def normalised_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k best scores, best first."""
    if k <= 0 or scores.size == 0:
        return np.empty(0, dtype=np.int64)
    if k >= scores.size:
        return np.argsort(-scores, kind="stable")
    part = np.argpartition(-scores, k - 1)[:k]
    return part[np.argsort(-scores[part], kind="stable")]


@dataclass(frozen=True)
class StoredMemory:
    """A memory with its vector: what moves between backends when a server comes back."""

    hit: MemoryHit
    embedding: list[float]
    model: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
