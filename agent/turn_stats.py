"""The per-turn numbers that matter on a laptop GPU, as one line of text."""

from __future__ import annotations

from .events import Usage


def _n(value: float) -> str:
    return f"{int(value):,}".replace(",", "\u202f")  # narrow no-break space groups thousands


def format_usage(usage: Usage) -> str:
    parts = [f"{_n(usage.prompt_tokens)} tokens in", f"{_n(usage.eval_tokens)} out"]
    if usage.eval_ms > 0 and usage.eval_tokens:
        parts.append(f"{usage.eval_tokens / (usage.eval_ms / 1000):.1f} tokens/s")
    # prompt_tokens adds up every step of the turn; what fills the window is the last step's prompt and answer
    used = usage.context_used or (usage.prompt_tokens + usage.eval_tokens if usage.steps <= 1 else 0)
    if usage.context_window and used:
        share = 100 * used / usage.context_window
        parts.append(f"context {_n(used)} / {_n(usage.context_window)} ({share:.0f}%)")
    parts.append(f"{usage.wall_ms / 1000:.1f} s")
    if usage.steps:
        parts.append(f"{usage.steps} step{'s' if usage.steps != 1 else ''}")
    if usage.tool_calls:
        parts.append(f"{usage.tool_calls} tool call{'s' if usage.tool_calls != 1 else ''}")
    return " · ".join(parts)
