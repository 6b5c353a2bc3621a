"""Typed stream chunks and the Provider protocol shared by every LLM backend.

Messages are plain dicts in Ollama's chat format (role, content, thinking, tool_calls,
tool_name, tool_call_id) so they can be stored and sent without conversion.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Protocol, Sequence, Union

from ..dock_text import Said

Message = dict[str, Any]
ToolSpec = dict[str, Any]  # Ollama/OpenAI tool format: {"type": "function", "function": {...}}


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: dict[str, Any]

    def to_message_part(self, index: int = 0) -> dict[str, Any]:
        return {"id": self.id, "function": {"index": index, "name": self.name, "arguments": self.arguments}}


@dataclass(frozen=True)
class LLMUsage:
    prompt_eval_count: int = 0
    eval_count: int = 0
    total_duration_ns: int = 0
    load_duration_ns: int = 0
    prompt_eval_duration_ns: int = 0
    eval_duration_ns: int = 0


@dataclass(frozen=True)
class ChatResponse:
    content: str  # user-visible text: no thinking, no tool-call markup
    thinking: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    done_reason: str = "stop"
    usage: LLMUsage = field(default_factory=LLMUsage)
    model: str = ""
    # A sentence for the user when the prompt did not fit num_ctx and the server dropped
    # the oldest messages (prompt_eval_count below our estimate); "" when it fitted.
    context_overflow: str = ""
    overflow_said: Said = field(default_factory=Said)  # context_overflow in its parts, for the dock

    def as_message(self) -> Message:
        msg: Message = {"role": "assistant", "content": self.content}
        if self.thinking:
            msg["thinking"] = self.thinking
        if self.tool_calls:
            msg["tool_calls"] = [c.to_message_part(i) for i, c in enumerate(self.tool_calls)]
        return msg


@dataclass(frozen=True)
class ThinkingChunk:
    text: str


@dataclass(frozen=True)
class ContentChunk:
    text: str


@dataclass(frozen=True)
class ToolCallChunk:
    call: ToolCall


@dataclass(frozen=True)
class FinalChunk:
    response: ChatResponse


@dataclass(frozen=True)
class ProviderSwitchChunk:
    """The primary provider failed before any output and a backup took over this request."""

    from_provider: str
    to_provider: str
    reason: str
    cause: Exception | None = None  # the primary's error (an LLMError: its `said` is the reason for the dock)


@dataclass(frozen=True)
class ProtocolChunk:
    """Which tool-calling protocol this request uses ("native" or "constrained") and why."""

    protocol: str
    model: str
    reason: str = ""


StreamChunk = Union[ThinkingChunk, ContentChunk, ToolCallChunk, FinalChunk, ProviderSwitchChunk, ProtocolChunk]


@dataclass(frozen=True)
class ChatOptions:
    """Runner options held constant within a session: changing them reloads the model."""

    num_ctx: int = 16384
    temperature: float = 0.2
    keep_alive: str = "30m"
    think: bool | str | None = None  # None: let the server decide
    num_predict: int | None = None
    # A JSON schema the reply must match (Ollama `format`, OpenAI `response_format`): per call
    response_schema: dict[str, Any] | None = None

    @classmethod
    def from_settings(cls, settings: Any) -> ChatOptions:
        """The session's runner options from the plugin settings (`agent.config.Settings`)."""
        return cls(num_ctx=settings.num_ctx, temperature=settings.temperature, keep_alive=settings.keep_alive)


@dataclass(frozen=True)
class ModelInfo:
    name: str
    capabilities: tuple[str, ...] = ()
    context_length: int = 0
    family: str = ""
    parameter_size: str = ""
    quantization: str = ""

    @property
    def supports_tools(self) -> bool:
        return "tools" in self.capabilities

    @property
    def supports_thinking(self) -> bool:
        return "thinking" in self.capabilities


class Provider(Protocol):
    name: str  # shown to the user, e.g. "ollama qwen3:8b @ http://localhost:11434"
    model: str

    def chat_stream(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None = None,
        options: ChatOptions | None = None,
    ) -> AsyncIterator[StreamChunk]: ...

    async def chat(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None = None,
        options: ChatOptions | None = None,
    ) -> ChatResponse: ...

    async def embed(self, texts: Sequence[str]) -> list[list[float]]: ...

    async def aclose(self) -> None: ...


@dataclass(frozen=True)
class LoadedModel:
    """A model Ollama holds in memory (`/api/ps`): what it costs in VRAM and until when."""

    name: str
    size: int = 0
    size_vram: int = 0
    expires_at: str = ""
    context_length: int = 0
