"""Keeping the prompt inside the model's context window (`num_ctx`).

Ollama drops the oldest messages silently when a prompt overflows, so we estimate first,
compact what is least useful, and learn from `prompt_eval_count` how far off we were.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any, Sequence

from .conversation import ConversationMemory
from .dock_text import Said, SaidError, say, translatable
from .llm.types import Message, ToolSpec

log = logging.getLogger(__name__)

CHARS_PER_TOKEN = 3.6  # measured on English + JSON with Qwen/Llama tokenizers
MESSAGE_OVERHEAD = 6  # role markers and separators of the chat template
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_ID_KEYS = ("id", "ids", "layer_id", "item_id", "collection", "name", "path", "url", "href", "crs")


class ContextTooSmall(SaidError):
    """Even after compaction the prompt does not fit; the message says what to do."""


class TokenEstimator:
    """chars / ratio, corrected by comparing with the server's `prompt_eval_count`."""

    def __init__(self, chars_per_token: float = CHARS_PER_TOKEN):
        self.chars_per_token = chars_per_token
        self.factor = 1.0

    def raw(self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None = None) -> int:
        chars = 0
        for m in messages:
            chars += len(m.get("content") or "") + len(m.get("thinking") or "")
            if m.get("tool_calls"):
                chars += len(json.dumps(m["tool_calls"], separators=(",", ":")))
        if tools:
            chars += len(json.dumps(list(tools), separators=(",", ":")))
        return int(chars / self.chars_per_token) + MESSAGE_OVERHEAD * len(messages)

    def estimate(self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None = None) -> int:
        return int(self.raw(messages, tools) * self.factor)

    def observe(self, estimated_raw: int, prompt_eval_count: int) -> None:
        """Moves the correction factor toward what the server counted."""
        if estimated_raw <= 0 or prompt_eval_count <= 0:
            return
        ratio = prompt_eval_count / estimated_raw
        if ratio < 0.5:  # the server reused its prompt cache and counted only the new tail
            return
        self.factor = min(3.0, max(0.5, 0.5 * self.factor + 0.5 * ratio))


def compact_tool_result(tool_name: str, call_id: str, content: str, limit: int = 400) -> str:
    """A short stand-in for an old tool result that keeps ids, names and key numbers."""
    if len(content) <= limit:
        return content
    keep: dict[str, Any] = {"compacted": True, "tool": tool_name, "call_id": call_id,
                            "original_chars": len(content)}
    try:
        data = json.loads(content)
    except ValueError:
        data = None
    if isinstance(data, (dict, list)):
        keep.update(_key_facts(data))
    else:
        keep["start"] = content[:160]
        keep["numbers"] = _NUMBER.findall(content)[:12]
    text = json.dumps(keep, ensure_ascii=False, default=str, separators=(",", ":"))  # spaces are tokens too
    return text[: limit * 2]


def _key_facts(data: Any) -> dict[str, Any]:
    facts: dict[str, Any] = {}
    if isinstance(data, list):
        facts["count"] = len(data)
        ids = [_first_id(x) for x in data[:25]]
        facts["ids"] = [i for i in ids if i is not None]
        return facts
    for key, value in data.items():
        if isinstance(value, (int, float, bool)) and len(facts) < 16:
            facts[key] = value
        elif isinstance(value, str) and (key in _ID_KEYS or len(value) <= 40) and len(facts) < 16:
            facts[key] = value
        elif isinstance(value, list):
            facts[f"{key}_count"] = len(value)
            ids = [i for i in (_first_id(x) for x in value[:25]) if i is not None]
            if ids:
                facts[f"{key}_ids"] = ids
    return facts


def _first_id(item: Any) -> Any:
    if isinstance(item, (str, int, float)):
        return item
    if isinstance(item, dict):
        for key in _ID_KEYS:
            if isinstance(item.get(key), (str, int)):
                return item[key]
    return None


class ContextFitter:
    """Makes one step's prompt fit: compact tool results, oldest first (earlier requests', then
    this request's but the latest step's), then drop the oldest whole turns, then give up with an
    error the user can act on. Nothing changes while the prompt fits: any change to an earlier
    message makes the model re-read everything after it."""

    def __init__(self, num_ctx: int, estimator: TokenEstimator | None = None,
                 reserve_tokens: int | None = None):
        self.num_ctx = num_ctx
        self.estimator = estimator or TokenEstimator()
        # room for the answer itself; Ollama counts generated tokens against num_ctx too
        self.reserve = reserve_tokens if reserve_tokens is not None else min(2048, num_ctx // 6)
        self.said_actions: list[Said] = []  # the last fit's actions in their parts, for the dock's notice

    @property
    def budget(self) -> int:
        return self.num_ctx - self.reserve

    def fit(self, head: list[Message], memory: ConversationMemory, turn_start: int,
            tools: Sequence[ToolSpec] | None, tail: list[Message] | None = None,
            ) -> tuple[list[Message], list[str], int]:
        """Returns the messages to send, what was done to make them fit (for a notice) and the
        new index of this turn's user message (`turn_start`). Memory is changed in place so the
        next step starts from the compacted state."""
        tail = tail or []
        actions: list[str] = []
        self.said_actions = []

        def build() -> list[Message]:
            return head + memory.window(keep_from=turn_start) + tail

        messages = build()
        if self.estimator.estimate(messages, tools) <= self.budget:
            return messages, actions, turn_start
        shown_from = len(memory) - len(memory.window(keep_from=turn_start))  # the window is a suffix
        compacted = self._compact_oldest(memory, shown_from, turn_start, lambda: self.estimator.estimate(
            build(), tools) <= self.budget)
        if compacted:
            actions.append(f"compacted {compacted} tool result(s) of earlier requests")
            self.said_actions.append(say(translatable("compacted {count} tool result(s) of earlier requests"),
                                         count=compacted))
            messages = build()
            if self.estimator.estimate(messages, tools) <= self.budget:
                return self._done(messages, actions, turn_start, tools)
        compacted = self._compact_turn_results(memory, turn_start)
        if compacted:
            actions.append(f"compacted {compacted} earlier tool result(s) of this turn")
            self.said_actions.append(say(translatable("compacted {count} earlier tool result(s) of this turn"),
                                         count=compacted))
            messages = build()
        dropped = 0
        while self.estimator.estimate(messages, tools) > self.budget:
            removed = memory.drop_oldest_turn(keep_from=turn_start)
            if not removed:
                break
            dropped += 1
            turn_start -= removed
            messages = build()
        if dropped:
            actions.append(f"dropped the {dropped} oldest turn(s) of the conversation")
            self.said_actions.append(say(translatable("dropped the {count} oldest turn(s) of the conversation"),
                                         count=dropped))
        if self.estimator.estimate(messages, tools) > self.budget:
            compacted = self._compact_turn_results(memory, turn_start, keep_last=0)
            if compacted:
                actions.append(f"compacted {compacted} more tool result(s)")
                self.said_actions.append(say(translatable("compacted {count} more tool result(s)"), count=compacted))
                messages = build()
        return self._done(messages, actions, turn_start, tools)

    def _done(self, messages: list[Message], actions: list[str], turn_start: int,
              tools: Sequence[ToolSpec] | None) -> tuple[list[Message], list[str], int]:
        estimate = self.estimator.estimate(messages, tools)
        if estimate > self.budget:
            raise ContextTooSmall(say(translatable(
                "This request needs about {estimate} tokens but the model's context window (num_ctx) is {num_ctx}. "
                "Increase num_ctx in the plugin settings if your GPU memory allows it, use fewer tools, or start "
                "a new chat."), estimate=estimate, num_ctx=self.num_ctx))
        for action in actions:
            log.info("context: %s (estimate %d / %d tokens)", action, estimate, self.num_ctx)
        return messages, actions, turn_start

    @staticmethod
    def _compact_oldest(memory: ConversationMemory, start: int, end: int, fits: Any) -> int:
        """Compacts tool results in messages [start, end), oldest first, until `fits()`."""
        count = 0
        for i in range(start, min(end, len(memory))):
            m = memory.messages[i]
            if m.get("role") != "tool":
                continue
            content = str(m.get("content", ""))
            new = compact_tool_result(m.get("tool_name", ""), m.get("tool_call_id", ""), content)
            if new != content:
                memory.replace_content(i, new)
                count += 1
                if fits():
                    break
        return count

    @staticmethod
    def _compact_turn_results(memory: ConversationMemory, turn_start: int, keep_last: int = 1) -> int:
        msgs = memory.messages
        tool_idx = [i for i in range(turn_start, len(msgs)) if msgs[i].get("role") == "tool"]
        # results of the latest step stay whole: the model is about to read them
        last_assistant = max((i for i in range(turn_start, len(msgs)) if msgs[i].get("role") == "assistant"),
                             default=-1)
        targets = [i for i in tool_idx if keep_last == 0 or i < last_assistant]
        count = 0
        for i in targets:
            m = msgs[i]
            content = str(m.get("content", ""))
            new = compact_tool_result(m.get("tool_name", ""), m.get("tool_call_id", ""), content)
            if new != content:
                memory.replace_content(i, new)
                count += 1
        return count


def fitted_said(actions: list[Said]) -> Said:
    """"To fit the model's context window I compacted … and dropped …", for the dock."""
    done: Said | list[Said] = actions[0] if len(actions) == 1 else say(
        translatable("{first} and {last}"), first=actions[:-1], last=actions[-1])
    return say(translatable("To fit the model's context window I {actions}."), actions=done)
