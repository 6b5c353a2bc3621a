"""The per-turn numbers that matter on a laptop GPU, as one line of text, and how many prompt
tokens the model really re-read.

Ollama (llama.cpp) keeps the previous request in its KV cache and reads only what follows the
longest common prefix. Its `prompt_eval_count` means two things depending on the version:
since 0.30 the whole prompt including the cached part, before that only the tokens it
evaluated (and sometimes nothing on a full cache hit). `PromptCache` turns either into
(prompt size, tokens re-read), knowing whether this request starts with the previous one.
"""

from __future__ import annotations

from typing import Any, Sequence

from .dock_text import Translate, as_written
from .events import Usage


class PromptCache:
    """What the model's KV cache holds of the last request of this chat."""

    def __init__(self) -> None:
        self._messages: list[Any] = []
        self._tools: Any = None
        self._full = 0  # prompt tokens of the last request

    def observe(self, messages: Sequence[Any], tools: Any, prompt_eval_count: int) -> tuple[int, int]:
        """(prompt tokens, tokens re-read) of a request that the server answered with `prompt_eval_count`."""
        kept = bool(self._messages) and tools == self._tools and list(messages[:len(self._messages)]) == self._messages
        cached = self._full if kept else 0
        if kept and prompt_eval_count < cached:  # an Ollama before 0.30: only the evaluated tokens
            full, reread = cached + prompt_eval_count, prompt_eval_count
        else:
            full, reread = prompt_eval_count, max(0, prompt_eval_count - cached)
        self._messages, self._tools, self._full = list(messages), tools, full
        return full, reread


def _n(value: float) -> str:
    return f"{int(value):,}".replace(",", "\u202f")  # narrow no-break space groups thousands


def format_usage(usage: Usage, tr: Translate = as_written) -> str:
    """`tr`: the dock's translation of each piece (ui.i18n.tr; scripts/i18n_strings.py collects them here too)."""
    tokens_in = tr("{n} tokens in").format(n=_n(usage.prompt_tokens))
    reread = getattr(usage, "reread_tokens", -1)
    if usage.prompt_tokens and reread >= 0:
        prefill = getattr(usage, "prompt_eval_ms", 0.0)
        tokens_in += " (" + tr("{n} re-read").format(n=_n(reread)) + (f", {prefill / 1000:.1f} s)" if prefill else ")")
    parts = [tokens_in, tr("{n} out").format(n=_n(usage.eval_tokens))]
    if usage.eval_ms > 0 and usage.eval_tokens:
        parts.append(tr("{rate} tokens/s").format(rate=f"{usage.eval_tokens / (usage.eval_ms / 1000):.1f}"))
    # prompt_tokens adds up every step of the turn; what fills the window is the last step's prompt and answer
    used = usage.context_used or (usage.prompt_tokens + usage.eval_tokens if usage.steps <= 1 else 0)
    if usage.context_window and used:
        share = 100 * used / usage.context_window
        parts.append(tr("context {used} / {window} ({share}%)").format(
            used=_n(used), window=_n(usage.context_window), share=f"{share:.0f}"))
    first = getattr(usage, "first_token_ms", 0.0)
    if first:
        parts.append(tr("first token {seconds} s").format(seconds=f"{first / 1000:.1f}"))
    parts.append(f"{usage.wall_ms / 1000:.1f} s")
    if usage.steps:
        parts.append((tr("{n} step") if usage.steps == 1 else tr("{n} steps")).format(n=usage.steps))
    if usage.tool_calls:
        parts.append((tr("{n} tool call") if usage.tool_calls == 1 else tr("{n} tool calls")).format(n=usage.tool_calls))
    return " · ".join(parts)
