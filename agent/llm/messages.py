"""Chat history made safe to send: Ollama refuses string `arguments` (400) and needs
`tool_name` on tool results; OpenAI-compatible servers want the opposite (JSON strings)."""

from __future__ import annotations

import json
from typing import Any, Sequence

from .leaks import new_call_id, parse_arguments
from .types import Message, ToolCall

_OLLAMA_KEYS = ("role", "content", "thinking", "images", "tool_calls", "tool_name", "tool_call_id")


def _call_parts(raw: Any) -> tuple[str, str, dict[str, Any]]:
    """(id, name, arguments as an object) from a ToolCall, an Ollama or an OpenAI tool call."""
    if isinstance(raw, ToolCall):
        return raw.id, raw.name, dict(raw.arguments)
    function = raw.get("function") or raw
    return (raw.get("id") or "", function.get("name", ""),
            parse_arguments(function.get("arguments")))


def _text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return json.dumps(content, ensure_ascii=False, default=str)


def _tool_names(messages: Sequence[Message]) -> dict[str, str]:
    names: dict[str, str] = {}
    for m in messages:
        for raw in m.get("tool_calls") or ():
            call_id, name, _ = _call_parts(raw)
            if call_id:
                names[call_id] = name
    return names


def to_ollama_messages(messages: Sequence[Message]) -> list[Message]:
    """Arguments always objects, content always text, `tool_name` on every tool message."""
    names = _tool_names(messages)
    out: list[Message] = []
    for m in messages:
        msg = {k: m[k] for k in _OLLAMA_KEYS if k in m and m[k] is not None}
        msg["content"] = _text(m.get("content"))
        if m.get("tool_calls"):
            calls = []
            for index, raw in enumerate(m["tool_calls"]):
                call_id, name, args = _call_parts(raw)
                part: dict[str, Any] = {"function": {"index": index, "name": name, "arguments": args}}
                if call_id:
                    part = {"id": call_id, **part}
                calls.append(part)
            msg["tool_calls"] = calls
        if msg.get("role") == "tool" and not msg.get("tool_name"):
            name = m.get("name") or names.get(m.get("tool_call_id") or "")
            if name:
                msg["tool_name"] = name
        out.append(msg)
    return out


def to_openai_messages(messages: Sequence[Message]) -> list[Message]:
    """The OpenAI chat format: arguments as JSON strings, tool results keyed by tool_call_id."""
    names = _tool_names(messages)
    out: list[Message] = []
    for m in messages:
        role = m.get("role", "user")
        msg: Message = {"role": role, "content": _text(m.get("content"))}
        if m.get("tool_calls"):
            msg["tool_calls"] = []
            for raw in m["tool_calls"]:
                call_id, name, args = _call_parts(raw)
                msg["tool_calls"].append({"id": call_id or new_call_id(), "type": "function", "function": {
                    "name": name, "arguments": json.dumps(args, ensure_ascii=False)}})
        if role == "tool":
            if m.get("tool_call_id"):
                msg["tool_call_id"] = m["tool_call_id"]
            name = m.get("tool_name") or m.get("name") or names.get(m.get("tool_call_id") or "")
            if name:
                msg["name"] = name
        out.append(msg)
    return out
