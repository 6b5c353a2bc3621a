"""How a scripted `Turn` looks on the wire: Ollama NDJSON lines, OpenAI SSE chunks, whole replies,
and the emulator's deterministic embeddings. Shapes follow shared/reference/OLLAMA_API.md."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import re
import secrets
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

import jsonschema

EMBEDDING_DIM = 256


@dataclass
class Turn:
    """One scripted model reply; consumed by one /api/chat or /v1/chat/completions call."""

    thinking: str = ""
    content: str = ""
    tool_calls: list = field(default_factory=list)  # (name, args) tuples or {"name", "arguments"[, "id"]}
    chunk_chars: int = 8
    split_tool_calls: bool = False
    think_in_content: bool = False
    leak: str | None = None  # "tool_call_tags" | "bare_json" | "function_tags"
    string_arguments: bool = False
    done_reason: str = "stop"
    error_line_after: int | None = None
    error_message: str = "an error was encountered while running the model"
    http_status: int = 200
    http_error: str | None = None
    drop_after: int | None = None
    chunk_delay_s: float = 0.0
    prompt_eval_count: int | None = None
    eval_count: int | None = None
    eval_duration_ns: int | None = None


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


def embed_text(text: str) -> list[float]:
    """Deterministic embedding: hashed bag of lower-cased words and their character trigrams."""
    vec = [0.0] * EMBEDDING_DIM
    for word in re.findall(r"\w+", text.lower()):
        vec[_bucket(word)] += 1.0
        padded = f"#{word}#"
        for i in range(len(padded) - 2):
            vec[_bucket(padded[i:i + 3])] += 0.25
    norm = math.sqrt(sum(v * v for v in vec))
    if norm == 0:
        vec[0], norm = 1.0, 1.0
    return [v / norm for v in vec]


def _bucket(token: str) -> int:
    return int.from_bytes(hashlib.blake2b(token.encode(), digest_size=4).digest(), "big") % EMBEDDING_DIM


def _pieces(text: str, size: int) -> list[str]:
    size = max(1, size)
    return [text[i:i + size] for i in range(0, len(text), size)]


def scripted_calls(turn: Turn) -> list[dict]:
    out = []
    for raw in turn.tool_calls:
        if isinstance(raw, dict):
            name, args, call_id = raw["name"], raw.get("arguments", {}), raw.get("id")
        else:
            name, args = raw
            call_id = None
        out.append({"id": call_id or "call_" + secrets.token_hex(4), "name": name, "arguments": args})
    return out


def _leak_text(calls: list[dict], style: str) -> str:
    if style == "tool_call_tags":
        return "".join(f'<tool_call>{json.dumps({"name": c["name"], "arguments": c["arguments"]})}</tool_call>'
                       for c in calls)
    if style == "bare_json":
        return "\n".join(json.dumps({"name": c["name"], "arguments": c["arguments"]}) for c in calls)
    if style == "function_tags":
        return "".join(f'<function={c["name"]}>{json.dumps(c["arguments"])}</function>' for c in calls)
    raise ValueError(f"unknown leak style {style!r}")


def _visible_content(turn: Turn, calls: list[dict]) -> tuple[str, str]:
    """(thinking sent in its own field, text sent as content) for this turn."""
    content = turn.content
    if turn.leak:
        content += _leak_text(calls, turn.leak)
    if turn.think_in_content and turn.thinking:
        return "", f"<think>{turn.thinking}</think>{content}"
    return turn.thinking, content


def _estimate_prompt_tokens(body: dict) -> int:
    chars = sum(len(str(m.get("content") or "")) + len(json.dumps(m.get("tool_calls") or []))
                for m in body.get("messages") or [])
    chars += len(json.dumps(body.get("tools") or []))
    return max(1, chars // 4)


def usage_numbers(turn: Turn, body: dict, calls: list[dict]) -> dict[str, int]:
    num_ctx = int((body.get("options") or {}).get("num_ctx") or 4096)
    # Ollama silently truncates the prompt to the window: the count never exceeds num_ctx.
    prompt = turn.prompt_eval_count if turn.prompt_eval_count is not None else min(
        _estimate_prompt_tokens(body), num_ctx)
    generated = len(turn.thinking) + len(turn.content) + len(json.dumps(calls)) * bool(calls)
    evals = turn.eval_count if turn.eval_count is not None else max(1, generated // 4)
    eval_ns = turn.eval_duration_ns if turn.eval_duration_ns is not None else evals * 20_000_000
    load_ns, prompt_ns = 41_295_167, prompt * 150_000
    return {"total_duration": load_ns + prompt_ns + eval_ns, "load_duration": load_ns,
            "prompt_eval_count": prompt, "prompt_eval_duration": prompt_ns,
            "eval_count": evals, "eval_duration": eval_ns}


def has_string_arguments(messages: list) -> bool:
    return any(isinstance((call.get("function") or {}).get("arguments"), str)
               for m in messages if isinstance(m, dict) for call in (m.get("tool_calls") or []))


def ndjson(payload: dict | None) -> bytes:
    return json.dumps(payload, separators=(",", ":")).encode() + b"\n"


def sse(payload: dict | None) -> bytes:
    return b"data: [DONE]\n\n" if payload is None else b"data: " + json.dumps(payload, separators=(",", ":")).encode() + b"\n\n"


def error_payload(message: str, content_type: str) -> dict:
    if content_type == "text/event-stream":
        return {"error": {"message": message, "type": "api_error", "param": None, "code": None}}
    return {"error": message}


def turn_events(turn: Turn, calls: list[dict]) -> list[tuple[str, Any]]:
    """The reply as ordered pieces: ("thinking", text), ("content", text), ("tools", [call, ...])."""
    thinking, content = _visible_content(turn, calls)
    events: list[tuple[str, Any]] = [("thinking", t) for t in _pieces(thinking, turn.chunk_chars)]
    events += [("content", t) for t in _pieces(content, turn.chunk_chars)]
    if calls and not turn.leak:
        indexed = [dict(c, index=i) for i, c in enumerate(calls)]
        events += [("tools", [c]) for c in indexed] if turn.split_tool_calls else [("tools", indexed)]
    return events


def _ollama_call(call: dict, index: int, as_string: bool) -> dict:
    args = json.dumps(call["arguments"]) if as_string else call["arguments"]
    return {"id": call["id"], "function": {"index": index, "name": call["name"], "arguments": args}}


def ollama_lines(name: str, events: list, turn: Turn, usage: dict) -> list[tuple[str, dict | None]]:
    lines: list[tuple[str, dict | None]] = []
    for kind, value in events:
        message: dict[str, Any] = {"role": "assistant", "content": value if kind == "content" else ""}
        if kind == "thinking":
            message["thinking"] = value
        elif kind == "tools":
            message["tool_calls"] = [_ollama_call(c, c["index"], turn.string_arguments) for c in value]
        lines.append((kind, {"model": name, "created_at": now(), "message": message, "done": False}))
    lines.append(("final", {"model": name, "created_at": now(), "message": {"role": "assistant", "content": ""},
                            "done": True, "done_reason": turn.done_reason, **usage}))
    return lines


def ollama_whole(name: str, turn: Turn, calls: list[dict], usage: dict) -> dict:
    thinking, content = _visible_content(turn, calls)
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if thinking:
        message["thinking"] = thinking
    if calls and not turn.leak:
        message["tool_calls"] = [_ollama_call(c, i, turn.string_arguments) for i, c in enumerate(calls)]
    return {"model": name, "created_at": now(), "message": message, "done": True,
            "done_reason": turn.done_reason, **usage}


def _finish_reason(turn: Turn, calls: list[dict]) -> str:
    return "tool_calls" if calls and not turn.leak else turn.done_reason


def _openai_usage(usage: dict) -> dict:
    prompt, completion = usage["prompt_eval_count"], usage["eval_count"]
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def openai_lines(name: str, events: list, turn: Turn, calls: list[dict], usage: dict,
                  include_usage: bool) -> list[tuple[str, dict | None]]:
    chat_id, created = "chatcmpl-" + secrets.token_hex(4), int(time.time())

    def chunk(delta: dict, finish: str | None = None) -> dict:
        return {"id": chat_id, "object": "chat.completion.chunk", "created": created, "model": name,
                "system_fingerprint": "fp_ollama",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    lines: list[tuple[str, dict | None]] = []
    for kind, value in events:
        if kind == "thinking":
            lines.append((kind, chunk({"role": "assistant", "content": "", "reasoning": value})))
        elif kind == "content":
            lines.append((kind, chunk({"role": "assistant", "content": value})))
        else:
            for c in value:  # arguments arrive as string fragments to concatenate
                head = {"index": c["index"], "id": c["id"], "type": "function",
                        "function": {"name": c["name"], "arguments": ""}}
                lines.append((kind, chunk({"role": "assistant", "content": "", "tool_calls": [head]})))
                for piece in _pieces(json.dumps(c["arguments"]), turn.chunk_chars):
                    part = {"index": c["index"], "function": {"arguments": piece}}
                    lines.append((kind, chunk({"tool_calls": [part]})))
    lines.append(("final", chunk({}, _finish_reason(turn, calls))))
    if include_usage:
        lines.append(("usage", {**chunk({}), "choices": [], "usage": _openai_usage(usage)}))
    lines.append(("done", None))
    return lines


def openai_whole(name: str, turn: Turn, calls: list[dict], usage: dict) -> dict:
    thinking, content = _visible_content(turn, calls)
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if thinking:
        message["reasoning"] = thinking
    if calls and not turn.leak:
        message["tool_calls"] = [{"id": c["id"], "index": i, "type": "function",
                                  "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])}}
                                 for i, c in enumerate(calls)]
    return {"id": "chatcmpl-" + secrets.token_hex(4), "object": "chat.completion", "created": int(time.time()),
            "model": name, "system_fingerprint": "fp_ollama",
            "choices": [{"index": 0, "message": message, "finish_reason": _finish_reason(turn, calls)}],
            "usage": _openai_usage(usage)}


def response_schema(body: dict) -> dict | None:
    """The JSON schema a request forces on the reply: Ollama `format`, OpenAI `response_format`."""
    if isinstance(body.get("format"), dict):
        return body["format"]
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return (fmt.get("json_schema") or {}).get("schema")
    if fmt.get("type") == "json_object":
        return fmt.get("schema")
    return None


def constrained_turn(turn: Turn, schema: dict) -> Turn:
    """What a grammar-constrained model writes: the scripted call or answer as one JSON action.

    Content that is already a JSON object is sent as scripted. Raises ValueError when the reply
    would not match the schema (a real server could not have produced it: the script is wrong).
    """
    if turn.tool_calls:
        call = scripted_calls(turn)[0]
        text = json.dumps({"tool": call["name"], "arguments": call["arguments"]})
    else:
        try:
            parsed = json.loads(turn.content)
        except ValueError:
            parsed = None
        text = turn.content if isinstance(parsed, dict) else json.dumps({"answer": turn.content})
    try:
        jsonschema.validate(json.loads(text), schema)
    except jsonschema.ValidationError as exc:
        raise ValueError(f"emulator: scripted reply does not match the format schema: {exc.message}") from exc
    except ValueError:
        pass  # deliberately broken JSON in the script: a server cut by the length limit sends that
    return dataclasses.replace(turn, content=text, tool_calls=[], leak=None)

