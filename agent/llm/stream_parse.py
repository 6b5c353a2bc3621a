"""The incremental parser of Ollama's NDJSON chat stream.

One line in, the typed chunks it carries out; the `done` line yields a FinalChunk with the
assembled response (content without thinking or tool-call markup, every tool call, usage).
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from ..dock_text import say, translatable
from .content_scan import ContentScanner
from .errors import MODEL_STOPPED, StreamError
from .leaks import call_from_object
from .types import (
    ChatResponse,
    ContentChunk,
    FinalChunk,
    LLMUsage,
    StreamChunk,
    ThinkingChunk,
    ToolCall,
    ToolCallChunk,
)


def usage_from(data: dict[str, Any]) -> LLMUsage:
    return LLMUsage(
        prompt_eval_count=int(data.get("prompt_eval_count") or 0),
        eval_count=int(data.get("eval_count") or 0),
        total_duration_ns=int(data.get("total_duration") or 0),
        load_duration_ns=int(data.get("load_duration") or 0),
        prompt_eval_duration_ns=int(data.get("prompt_eval_duration") or 0),
        eval_duration_ns=int(data.get("eval_duration") or 0),
    )


class StreamAssembly:
    """What has been streamed so far: the parts a FinalChunk is built from."""

    def __init__(self) -> None:
        self.content: list[str] = []
        self.thinking: list[str] = []
        self.calls: list[ToolCall] = []

    def record(self, chunks: list[StreamChunk]) -> list[StreamChunk]:
        for chunk in chunks:
            if isinstance(chunk, ContentChunk):
                self.content.append(chunk.text)
            elif isinstance(chunk, ThinkingChunk):
                self.thinking.append(chunk.text)
            elif isinstance(chunk, ToolCallChunk):
                self.calls.append(chunk.call)
        return chunks

    @property
    def produced(self) -> bool:
        return bool(self.content or self.thinking or self.calls)

    def response(self, done_reason: str, usage: LLMUsage, model: str) -> ChatResponse:
        return ChatResponse(content="".join(self.content), thinking="".join(self.thinking),
                            tool_calls=tuple(self.calls), done_reason=done_reason or "stop",
                            usage=usage, model=model)


class OllamaStreamParser:
    """Feed each NDJSON line of /api/chat; `final` is set once the `done` line arrived."""

    def __init__(self, known_tools: Iterable[str] = ()):
        self._scanner = ContentScanner(known_tools)
        self.parts = StreamAssembly()
        self.final: ChatResponse | None = None

    @property
    def produced(self) -> bool:
        return self.parts.produced

    def feed(self, line: str | bytes) -> list[StreamChunk]:
        try:
            data = json.loads(line)
        except ValueError:
            if not line.strip():
                return []
            raise StreamError(say(translatable("Ollama sent a line that is not JSON: {line}"),
                                  line=repr(line[:200])), before_output=not self.produced) from None
        if "error" in data:
            raise StreamError(say(MODEL_STOPPED, error=data["error"]), before_output=not self.produced)
        message = data.get("message")
        if message and not data.get("done"):  # the hot paths: one piece of text or of thinking
            content, size = message.get("content"), len(message)
            if size == 2 and content and self._scanner.passthrough and "<" not in content:
                self.parts.content.append(content)
                return [ContentChunk(content)]
            if size == 3 and not content and message.get("thinking"):
                self.parts.thinking.append(message["thinking"])
                return [ThinkingChunk(message["thinking"])]
        out: list[StreamChunk] = []
        if message:
            thinking = message.get("thinking")
            if thinking:
                out.append(ThinkingChunk(thinking))
            content = message.get("content")
            if content:
                out.extend(self._scanner.feed(content))
            for raw in message.get("tool_calls") or ():
                call = call_from_object(raw)
                if call is not None:
                    out.append(ToolCallChunk(call))
        if data.get("done"):
            out.extend(self._scanner.finish())
            self.parts.record(out)
            self.final = self.parts.response(data.get("done_reason", "stop"), usage_from(data),
                                             data.get("model", ""))
            out.append(FinalChunk(self.final))
            return out
        return self.parts.record(out)
