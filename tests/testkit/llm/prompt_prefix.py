"""How much of one rendered prompt the model's cache holds from the previous one."""

from __future__ import annotations

from typing import Sequence


def common_prefix(before: Sequence, after: Sequence) -> int:
    """Length of the common prefix (characters of text, or tokens): what a KV cache reuses."""
    n = 0
    for a, b in zip(before, after):
        if a != b:
            break
        n += 1
    return n
