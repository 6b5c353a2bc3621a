"""Short-term memory: the conversation as Ollama chat messages, windowed without ever
separating an assistant's tool call from its result.

What goes back to the model is the history without the model's thinking (`as_sent`). Chat templates show an
assistant message's thinking only until the next user message (Qwen3's drops it then), so a history that
carries it reads differently at every new message: everything after the previous message's first step fell
out of the model's KV cache and was read again (1,240 tokens for 206 new). Without it each request starts with
the whole previous one, steps and messages alike. The thinking stays in memory for the dock and the exports."""

from __future__ import annotations

import copy
from typing import Any, Iterable

from .llm.types import Message

DEFAULT_WINDOW = 50
MAX_TOOL_RESULT_CHARS = 10_000
MAX_IMAGE_MESSAGES = 2  # only the latest map views stay attached: each is tens of kB of base64
CANCELLED_RESULT = "Cancelled by the user before it finished; nothing was returned."
NOT_SENT_BACK = ("thinking",)


def as_sent(message: Message) -> Message:
    """The message as the model reads it again in a later request: what it said and called, not its thinking."""
    if not any(key in message for key in NOT_SENT_BACK):
        return message
    return {k: v for k, v in message.items() if k not in NOT_SENT_BACK}


def truncation_notice(hidden: int) -> str:
    return (f"\n[truncated: {hidden} more characters not shown. To get the rest, call the tool again "
            "with narrower arguments (a smaller area or date range, a limit/offset or page, fewer fields).]")


class ConversationMemory:
    def __init__(self, max_messages: int = DEFAULT_WINDOW, max_tool_chars: int = MAX_TOOL_RESULT_CHARS):
        self.max_messages = max_messages
        self.max_tool_chars = max_tool_chars
        self._messages: list[Message] = []

    def __len__(self) -> int:
        return len(self._messages)

    @property
    def messages(self) -> list[Message]:
        """Everything kept, oldest first (the window is `window()`)."""
        return list(self._messages)

    def add_user(self, content: str) -> None:
        self._messages.append({"role": "user", "content": content})

    def add_assistant(self, message: Message) -> None:
        self._messages.append(dict(message, role="assistant"))

    def add_tool_result(self, call_id: str, tool_name: str, content: str, images: Iterable[str] = ()) -> None:
        """`images`: base64 pictures the tool returned (a map view), for models that can see."""
        if len(content) > self.max_tool_chars:
            content = content[: self.max_tool_chars] + truncation_notice(len(content) - self.max_tool_chars)
        message: Message = {"role": "tool", "tool_name": tool_name, "tool_call_id": call_id, "content": content}
        images = list(images)
        if images:
            with_images = [m for m in self._messages if m.get("images")]
            for old in with_images[:max(0, len(with_images) - MAX_IMAGE_MESSAGES + 1)]:
                del old["images"]
            message["images"] = images
        self._messages.append(message)

    def add(self, message: Message) -> None:
        if message.get("role") == "tool":
            self.add_tool_result(message.get("tool_call_id", ""), message.get("tool_name", ""),
                                 str(message.get("content", "")), message.get("images") or ())
        else:
            self._messages.append(dict(message))

    def window(self, keep_from: int | None = None) -> list[Message]:
        """The most recent whole units (a user message, or an assistant message with all its
        tool results) that fit in `max_messages`, as sent to the model (`as_sent`); messages from
        index `keep_from` on (the turn in progress) are always kept."""
        split = len(self._messages) if keep_from is None else max(0, min(keep_from, len(self._messages)))
        current = self._messages[split:]
        kept: list[list[Message]] = []
        count = len(current)
        for unit in reversed(list(_units(self._messages[:split]))):
            if count + len(unit) > self.max_messages and (kept or current):
                break
            kept.append(unit)
            count += len(unit)
        window = [m for unit in reversed(kept) for m in unit] + current
        # start on a user message: an answer without its question (or an orphan result) misleads
        while window and window[0].get("role") != "user" and any(m.get("role") == "user" for m in window):
            window.pop(0)
        return [as_sent(m) for m in window]

    def pending_calls(self) -> list[tuple[str, str]]:
        """(call_id, tool_name) of tool calls that have no result yet."""
        answered = {m.get("tool_call_id") for m in self._messages if m.get("role") == "tool"}
        pending = []
        for m in self._messages:
            for call in m.get("tool_calls") or ():
                if call.get("id") not in answered:
                    pending.append((call.get("id", ""), call["function"]["name"]))
        return pending

    def close_dangling_calls(self, note: str = CANCELLED_RESULT) -> int:
        """Give every unanswered tool call a result, so the history stays valid after a stop."""
        pending = self.pending_calls()
        for call_id, name in pending:
            self.add_tool_result(call_id, name, note)
        return len(pending)

    def turn_starts(self) -> list[int]:
        return [i for i, m in enumerate(self._messages) if m.get("role") == "user"]

    def drop_oldest_turn(self, keep_from: int) -> int:
        """Drops the oldest user turn (and everything it led to) before index `keep_from`.
        Returns how many messages went (0 when there is nothing older to drop)."""
        starts = self.turn_starts()
        older = [i for i in starts if i < keep_from]
        if not older:
            return 0
        end = next((i for i in starts if i > older[0]), len(self._messages))
        end = min(end, keep_from)
        del self._messages[:end]
        return end

    def replace_content(self, index: int, content: str) -> None:
        self._messages[index] = dict(self._messages[index], content=content)

    def clear(self) -> None:
        self._messages.clear()

    def to_dict(self) -> dict[str, Any]:
        return {"version": 1, "max_messages": self.max_messages, "max_tool_chars": self.max_tool_chars,
                "messages": copy.deepcopy(self._messages)}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> ConversationMemory:
        data = data or {}
        memory = cls(int(data.get("max_messages", DEFAULT_WINDOW)),
                     int(data.get("max_tool_chars", MAX_TOOL_RESULT_CHARS)))
        memory._messages = [dict(m) for m in data.get("messages", ()) if isinstance(m, dict) and "role" in m]
        return memory


def _units(messages: list[Message]) -> Iterable[list[Message]]:
    unit: list[Message] = []
    for message in messages:
        # a tool result belongs to the assistant message before it
        if message.get("role") == "tool" and unit:
            unit.append(message)
            continue
        if unit:
            yield unit
        unit = [message]
    if unit:
        yield unit
