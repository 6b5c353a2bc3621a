"""Constrained-JSON tool calling, for models without native tool support (or too weak for it).

The tools of this step are described in the system prompt and the reply is forced by a JSON
schema to be exactly one action: {"tool": T, "arguments": {...T's schema}} or {"answer": "..."}.
The reply is read back into the same ToolCall / ChatResponse as a native call, so the agent
loop, its events and the UI do not change. History is rewritten into plain user/assistant turns
(tool calls as the JSON the model would have written, tool results as user messages) because
chat templates of such models know no `tool` role and often demand alternating roles.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
from typing import Any, Sequence

from .leaks import new_call_id
from .types import ChatResponse, ContentChunk, Message, StreamChunk, ToolCall, ToolCallChunk, ToolSpec

log = logging.getLogger(__name__)

TOOL_KEY, ARGS_KEY, ANSWER_KEY = "tool", "arguments", "answer"
PROTOCOL_NOTE = (
    "Reply with exactly one JSON object and nothing else. To use a tool: "
    '{"tool": "<tool name>", "arguments": {<the tool\'s arguments>}}. '
    'To answer the user (when you have what you need, or need nothing): {"answer": "<your answer>"}. '
    "After a tool runs, its result comes back in the next user message.")
_ANSWER_START = re.compile(r'\s*\{\s*"answer"\s*:\s*"')
_ANSWER_PREFIX = '{"answer":"'
_CUT_CALL = re.compile(r'\s*\{\s*"tool"\s*:\s*"([^"]+)"')


def action_schema(specs: Sequence[ToolSpec] | None) -> dict[str, Any]:
    """The JSON schema a reply must match: one of the tool calls, or the final answer."""
    variants: list[dict[str, Any]] = []
    for spec in specs or ():
        function = spec.get("function") or {}
        params = function.get("parameters") or {"type": "object", "properties": {}}
        variants.append({"type": "object", "properties": {
            TOOL_KEY: {"type": "string", "enum": [function.get("name", "")]}, ARGS_KEY: params},
            "required": [TOOL_KEY, ARGS_KEY]})
    variants.append({"type": "object", "properties": {ANSWER_KEY: {"type": "string"}}, "required": [ANSWER_KEY]})
    return variants[0] if len(variants) == 1 else {"anyOf": variants}


def describe_tools(specs: Sequence[ToolSpec] | None) -> str:
    """The tools as compact signatures, e.g. `- zoom_to_location(place: string — a place name)`."""
    lines = []
    for spec in specs or ():
        function = spec.get("function") or {}
        params = function.get("parameters") or {}
        required = set(params.get("required") or ())
        args = [f"{name}{'' if name in required else '?'}: {_type_text(prop)}"
                + (f" — {prop['description']}" if prop.get("description") else "")
                for name, prop in (params.get("properties") or {}).items()]
        description = " ".join((function.get("description") or "").split())
        lines.append(f"- {function.get('name', '')}({'; '.join(args)}): {description}".rstrip(": "))
    return "\n".join(lines)


def _type_text(prop: dict[str, Any]) -> str:
    if "enum" in prop:
        return "|".join(json.dumps(v, ensure_ascii=False) for v in prop["enum"])
    if "anyOf" in prop:
        return " or ".join(_type_text(v) for v in prop["anyOf"])
    kind = prop.get("type", "any")
    if kind == "array":
        return f"array of {_type_text(prop.get('items') or {})}"
    return "|".join(kind) if isinstance(kind, list) else str(kind)


def system_text(specs: Sequence[ToolSpec] | None) -> str:
    if not specs:
        return PROTOCOL_NOTE.split(" To use a tool")[0] + ' Answer as {"answer": "<your answer>"}.'
    return f"{PROTOCOL_NOTE}\nTools you can use now:\n{describe_tools(specs)}"


def constrained_messages(messages: Sequence[Message], specs: Sequence[ToolSpec] | None) -> list[Message]:
    """The history in plain user/assistant turns, with the protocol added to the system prompt."""
    out: list[Message] = []
    for index, m in enumerate(messages):
        role = m.get("role", "user")
        content = _text(m.get("content"))
        msg: Message = {"role": role, "content": content}
        if role == "system" and index > 0:  # later instructions: many templates allow one system message
            msg["role"] = "user"
        elif role == "assistant":
            calls = m.get("tool_calls") or ()
            msg["content"] = "\n".join(_call_json(c) for c in calls) if calls else json.dumps(
                {ANSWER_KEY: content}, ensure_ascii=False)
            if m.get("thinking"):
                msg["thinking"] = m["thinking"]
        elif role == "tool":
            name = m.get("tool_name") or m.get("name") or "the tool"
            msg = {"role": "user", "content": f"Result of {name}: {content}"}
        if m.get("images"):
            msg["images"] = list(m["images"])
        _append_merged(out, msg)
    note = system_text(specs)
    if out and out[0]["role"] == "system":
        out[0]["content"] = f"{out[0]['content']}\n\n{note}".strip()
    else:
        out.insert(0, {"role": "system", "content": note})
    return out


def _append_merged(out: list[Message], msg: Message) -> None:
    """Consecutive user (or assistant) messages become one: templates often demand alternation."""
    last = out[-1] if out else None
    if last is None or last["role"] != msg["role"] or msg["role"] == "system" or (
            last["role"] == "system"):
        out.append(msg)
        return
    last["content"] = f"{last['content']}\n\n{msg['content']}".strip()
    if msg.get("images"):
        last["images"] = [*last.get("images", []), *msg["images"]]


def _call_json(raw: Any) -> str:
    if isinstance(raw, ToolCall):
        name, args = raw.name, raw.arguments
    else:
        function = raw.get("function") or raw
        name, args = function.get("name", ""), function.get("arguments") or {}
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except ValueError:
                args = {}
    return json.dumps({TOOL_KEY: name, ARGS_KEY: args}, ensure_ascii=False)


def _text(content: Any) -> str:
    if content is None:
        return ""
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False, default=str)


class ConstrainedReply:
    """Reads the JSON action as it streams: answer text is passed on as it arrives, a tool call
    once the object is complete. `response()` turns the raw final response into the parsed one."""

    def __init__(self, tool_names: Sequence[str] = ()):
        self.tool_names = set(tool_names)
        self.raw = ""
        self._mode = "start"  # start -> answer (streaming the string) -> end | other
        self._pos = 0  # where undecoded answer text begins in `raw`
        self.answer_parts: list[str] = []

    def feed(self, text: str) -> list[StreamChunk]:
        self.raw += text
        if self._mode == "start":
            match = _ANSWER_START.match(self.raw)
            if match:
                self._mode, self._pos = "answer", match.end()
            elif not _ANSWER_PREFIX.startswith(re.sub(r"\s+", "", self.raw)[:len(_ANSWER_PREFIX)]):
                self._mode = "other"  # a tool call, or something unexpected: read it whole at the end
        if self._mode != "answer":
            return []
        piece = self._decode()
        if not piece:
            return []
        self.answer_parts.append(piece)
        return [ContentChunk(piece)]

    def _decode(self) -> str:
        """Decodes the answer string up to what is complete (an escape may be cut in two)."""
        raw, i, end = self.raw, self._pos, len(self.raw)
        while i < end:
            ch = raw[i]
            if ch == '"':
                self._mode = "end"
                break
            if ch == "\\":
                need = 6 if raw[i + 1:i + 2] == "u" else 2
                if i + need > end:
                    break
                i += need
                continue
            i += 1
        segment, self._pos = raw[self._pos:i], i
        try:
            return json.loads(f'"{segment}"', strict=False)
        except ValueError:
            return segment

    def response(self, raw: ChatResponse) -> tuple[ChatResponse, list[StreamChunk]]:
        """The parsed response, and the chunks still to emit (a tool call, or a late answer)."""
        action = _parse_object(self.raw)
        streamed = "".join(self.answer_parts)
        if isinstance(action, dict) and isinstance(action.get(TOOL_KEY), str):
            args = action.get(ARGS_KEY)
            call = ToolCall(new_call_id(), action[TOOL_KEY], args if isinstance(args, dict) else {})
            return dataclasses.replace(raw, content=streamed, tool_calls=(call,)), [ToolCallChunk(call)]
        if isinstance(action, dict) and ANSWER_KEY in action:
            answer = _text(action[ANSWER_KEY])
        elif streamed:  # cut by the length limit inside the answer: keep what came
            answer = streamed
        elif _CUT_CALL.match(self.raw):
            name = _CUT_CALL.match(self.raw).group(1)
            log.warning("constrained tool call cut before its end (%s): %.200s", raw.done_reason, self.raw)
            answer = (f"My call to '{name}' was cut off before it was complete, so I did not run it. "
                      "Ask again more simply, or raise the answer length limit in the plugin settings.")
        else:
            log.warning("constrained reply is not the expected JSON: %.200s", self.raw)
            answer = self.raw.strip()
        late = answer[len(streamed):] if answer.startswith(streamed) else ""
        chunks: list[StreamChunk] = [ContentChunk(late)] if late else []
        return dataclasses.replace(raw, content=answer, tool_calls=()), chunks


def _parse_object(text: str) -> Any:
    # strict=False: some grammars let raw newlines into strings, which strict JSON refuses
    text = text.strip()
    try:
        return json.loads(text, strict=False)
    except ValueError:
        pass
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:  # stray text around the object (servers without strict grammars)
        try:
            return json.loads(text[start:end + 1], strict=False)
        except ValueError:
            return None
    return None
