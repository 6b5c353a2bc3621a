"""The incremental parser of an OpenAI-compatible chat stream (server-sent events).

Tool-call arguments arrive as string fragments keyed by `index`; they are concatenated and
parsed once the server says the message is finished (`finish_reason` or `[DONE]`).
"""

from __future__ import annotations

import json
import time
from typing import Any, Iterable

from ..dock_text import say, translatable
from .content_scan import ContentScanner
from .errors import MODEL_STOPPED, StreamError
from .leaks import new_call_id, parse_arguments
from .stream_parse import StreamAssembly
from .types import ChatResponse, FinalChunk, LLMUsage, StreamChunk, ThinkingChunk, ToolCall, ToolCallChunk

_DONE_REASONS = {"stop": "stop", "tool_calls": "stop", "function_call": "stop", "length": "length"}


def usage_from_openai(usage: dict[str, Any] | None) -> LLMUsage:
    usage = usage or {}
    return LLMUsage(prompt_eval_count=int(usage.get("prompt_tokens") or 0),
                    eval_count=int(usage.get("completion_tokens") or 0))


def reasoning_of(part: dict[str, Any]) -> str:
    # Ollama and LM Studio say `reasoning`; llama.cpp and vLLM say `reasoning_content`.
    return part.get("reasoning") or part.get("reasoning_content") or ""


class OpenAIStreamParser:
    """Feed each SSE line; `final` is set at `data: [DONE]` (or by `finish()` at end of stream)."""

    def __init__(self, known_tools: Iterable[str] = ()):
        self._scanner = ContentScanner(known_tools)
        self.parts = StreamAssembly()
        self.final: ChatResponse | None = None
        self._pending: dict[int, dict[str, str]] = {}
        self._finish_reason = ""
        self._usage = LLMUsage()
        self._model = ""
        self._deltas = 0  # events carrying generated text: one token each on llama.cpp servers
        self._first_ns = self._last_ns = 0

    @property
    def produced(self) -> bool:
        return self.parts.produced

    def feed(self, line: str) -> list[StreamChunk]:
        if not line.startswith("data:"):
            return []  # blank separators, `: keep-alive` comments, `event:` names
        data = line[5:].strip()
        if data == "[DONE]":
            return self.finish()
        try:
            event = json.loads(data)
        except ValueError:
            raise StreamError(say(translatable("The server sent an event that is not JSON: {line}"),
                                  line=repr(data[:200])), before_output=not self.produced) from None
        if "error" in event:
            error = event["error"]
            message = error.get("message") if isinstance(error, dict) else error
            raise StreamError(say(MODEL_STOPPED, error=message), before_output=not self.produced)
        self._model = event.get("model") or self._model
        if event.get("usage"):
            self._usage = usage_from_openai(event["usage"])
        out: list[StreamChunk] = []
        for choice in event.get("choices") or ():
            delta = choice.get("delta") or {}
            if delta.get("content") or delta.get("tool_calls") or reasoning_of(delta):
                self._count_delta()
            reasoning = reasoning_of(delta)
            if reasoning:
                out.append(ThinkingChunk(reasoning))
            if delta.get("content"):
                out.extend(self._scanner.feed(delta["content"]))
            for part in delta.get("tool_calls") or ():
                slot = self._pending.setdefault(int(part.get("index", len(self._pending))),
                                                {"id": "", "name": "", "arguments": ""})
                function = part.get("function") or {}
                slot["id"] = part.get("id") or slot["id"]
                slot["name"] += function.get("name") or ""
                slot["arguments"] += function.get("arguments") or ""
            if choice.get("finish_reason"):
                self._finish_reason = choice["finish_reason"]
                out.extend(self._flush_calls())
        return self.parts.record(out)

    def _count_delta(self) -> None:
        now = time.perf_counter_ns()
        self._first_ns = self._first_ns or now
        self._last_ns = now
        self._deltas += 1

    def _measured_usage(self) -> LLMUsage:
        """The server's usage; when it sends none (llama-cpp-python), tokens counted as they streamed."""
        if self._usage.eval_count or not self._deltas:
            return self._usage
        n = self._deltas
        # the first token's own time is not seen from here: extrapolate from the n-1 gaps
        duration = int((self._last_ns - self._first_ns) * n / (n - 1)) if n > 1 else 0
        return LLMUsage(prompt_eval_count=self._usage.prompt_eval_count, eval_count=n, eval_duration_ns=duration)

    def _flush_calls(self) -> list[StreamChunk]:
        calls = [ToolCallChunk(ToolCall(id=slot["id"] or new_call_id(), name=slot["name"],
                                        arguments=parse_arguments(slot["arguments"])))
                 for _, slot in sorted(self._pending.items()) if slot["name"]]
        self._pending.clear()
        return calls

    def finish(self) -> list[StreamChunk]:
        if self.final is not None:
            return []
        out = self.parts.record(self._scanner.finish() + self._flush_calls())
        reason = _DONE_REASONS.get(self._finish_reason, self._finish_reason or "stop")
        self.final = self.parts.response(reason, self._measured_usage(), self._model)
        return [*out, FinalChunk(self.final)]


def response_from_openai(body: dict[str, Any], known_tools: Iterable[str] = ()) -> ChatResponse:
    """A whole (non-streamed) /v1/chat/completions answer as a ChatResponse."""
    parser = OpenAIStreamParser(known_tools)
    choice = (body.get("choices") or [{}])[0]
    message = choice.get("message") or {}
    calls = [{"index": i, **c} for i, c in enumerate(message.get("tool_calls") or ())]
    for call in calls:  # whole arguments may already be objects on some servers
        function = call.get("function") or {}
        if isinstance(function.get("arguments"), dict):
            call["function"] = {**function, "arguments": json.dumps(function["arguments"])}
    event = {"model": body.get("model", ""), "usage": body.get("usage"), "choices": [{
        "delta": {"content": message.get("content"), "reasoning": reasoning_of(message), "tool_calls": calls},
        "finish_reason": choice.get("finish_reason") or "stop"}]}
    parser.feed("data: " + json.dumps(event))
    return parser.finish()[-1].response  # a new parser's finish() ends with the whole answer (a FinalChunk)
