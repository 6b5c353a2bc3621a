"""Recovering tool calls that a model wrote as text instead of in the `tool_calls` field.

Small models often print `<tool_call>{"name": ..., "arguments": ...}</tool_call>`, the XML-ish
`<function=name>...</function>`, or a bare JSON object naming a tool. Text is only ever parsed
as JSON here (never evaluated), and a call is recovered only when its shape is unambiguous.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from typing import Any, Iterable

from .types import ToolCall

log = logging.getLogger(__name__)

_PARAMETER = re.compile(r"<parameter=([^>\s]+)>(.*?)</parameter>", re.S)
_FUNCTION = re.compile(r"<function=([^>\s]+)>(.*?)(?:</function>|$)", re.S)


def new_call_id() -> str:
    return "call_" + secrets.token_hex(4)


def parse_arguments(raw: Any) -> dict[str, Any]:
    """Arguments as an object, whether the server sent an object, a JSON string or nothing."""
    if isinstance(raw, dict):
        return raw
    if raw is None or raw == "":
        return {}
    if isinstance(raw, str):
        try:
            value = json.loads(raw)
        except ValueError:
            log.warning("tool call arguments are not valid JSON: %.200s", raw)
            return {}
        if isinstance(value, str):  # some servers double-encode
            return parse_arguments(value)
        return value if isinstance(value, dict) else {}
    return {}


def call_from_object(obj: Any, known_tools: Iterable[str] | None = None) -> ToolCall | None:
    """A ToolCall from {"name": ..., "arguments"|"parameters": ...} (or OpenAI's {"function": {...}})."""
    if not isinstance(obj, dict):
        return None
    if isinstance(obj.get("function"), dict):
        obj = {**obj["function"], "id": obj.get("id")}
    name = obj.get("name")
    if not isinstance(name, str) or not name:
        return None
    if known_tools is not None and name not in set(known_tools):
        return None
    args = obj.get("arguments", obj.get("parameters"))
    return ToolCall(id=obj.get("id") or new_call_id(), name=name, arguments=parse_arguments(args))


def parse_tool_call_tag(body: str) -> ToolCall | None:
    """The inside of `<tool_call>...</tool_call>`: JSON, or the `<function=name>` form."""
    body = body.strip()
    if body.startswith("<function="):
        return parse_function_tag(body)
    try:
        return call_from_object(json.loads(body))
    except ValueError:
        log.warning("could not read a leaked <tool_call>: %.200s", body)
        return None


def parse_function_tag(text: str) -> ToolCall | None:
    """`<function=name>{json}</function>` or `<function=name><parameter=k>v</parameter>...`."""
    match = _FUNCTION.search(text)
    if not match:
        return None
    name, body = match.group(1), match.group(2).strip()
    params = _PARAMETER.findall(body)
    if params:
        args = {key: _scalar(value.strip()) for key, value in params}
    else:
        args = parse_arguments(body)
    return ToolCall(id=new_call_id(), name=name, arguments=args)


def _scalar(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_bare_json(text: str, known_tools: Iterable[str]) -> list[ToolCall] | None:
    """Content that is only JSON object(s) naming known tools; None when it is anything else."""
    decoder = json.JSONDecoder()
    known = set(known_tools)
    calls: list[ToolCall] = []
    pos, text = 0, text.strip()
    while pos < len(text):
        try:
            obj, end = decoder.raw_decode(text, pos)
        except ValueError:
            return None
        objects = obj if isinstance(obj, list) else [obj]
        for item in objects:
            call = call_from_object(item, known)
            if call is None:
                return None
            calls.append(call)
        pos = end
        while pos < len(text) and text[pos] in " \t\r\n,;":
            pos += 1
    return calls or None
