"""Which tool-calling protocol a model gets, decided once per model and remembered.

Native: the server's `tools` field. Constrained: the tools in the system prompt and the reply
forced into one JSON action (see constrained.py). A model gets the constrained protocol when the
user turns it on, when `/api/show` lists no `tools` capability, or when the server answers
"does not support tools" (then the same request is retried constrained, with no error shown).
Every request with tools starts with a ProtocolChunk so the loop can say which is in use.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
from pathlib import Path
from typing import Any, AsyncIterator, Sequence

from .constrained import ConstrainedReply, action_schema, constrained_messages
from .errors import LLMError, ToolsNotSupported, cut_answer
from .streams import closing
from .types import (
    ChatOptions,
    ChatResponse,
    ContentChunk,
    FinalChunk,
    Message,
    ModelInfo,
    ProtocolChunk,
    Provider,
    StreamChunk,
    ToolSpec,
)

log = logging.getLogger(__name__)

NATIVE, CONSTRAINED = "native", "constrained"
PROTOCOL_FILE = "tool_protocols.json"


class ProtocolMemory:
    """The protocol each model needed, in a small JSON file: {"<server> <model>": {"protocol", "reason"}}."""

    def __init__(self, folder: str | Path | None):
        self.path = Path(folder) / PROTOCOL_FILE if folder else None
        self._data: dict[str, dict[str, str]] = {}
        if self.path is not None and self.path.exists():
            try:
                loaded = json.loads(self.path.read_text(encoding="utf-8"))
                self._data = loaded if isinstance(loaded, dict) else {}
            except (OSError, ValueError) as exc:  # a damaged file only costs one detection
                log.warning("could not read %s (%s); detecting tool protocols again", self.path, exc)

    def get(self, key: str) -> tuple[str, str] | None:
        entry = self._data.get(key)
        if not isinstance(entry, dict) or entry.get("protocol") not in (NATIVE, CONSTRAINED):
            return None
        return entry["protocol"], str(entry.get("reason", ""))

    def set(self, key: str, protocol: str, reason: str) -> None:
        self._data[key] = {"protocol": protocol, "reason": reason}
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self._data, indent=1, sort_keys=True), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:
            log.warning("could not remember the tool protocol in %s: %s", self.path, exc)


async def sees_pictures(provider: Any) -> bool:
    """Whether the chat model can look at pictures: Ollama's /api/show lists "vision" among its capabilities.
    False where the server cannot say; a backup's model is asked only when it takes over (its pictures are
    removed then if it cannot see them)."""
    primary = getattr(provider, "primary", provider)
    model_info = getattr(primary, "model_info", None)
    info = await model_info() if model_info is not None else None
    return info is not None and "vision" in info.capabilities


class ToolProtocolProvider:
    """Wraps one provider; chooses native or constrained tool calling for its model."""

    def __init__(self, inner: Provider, *, force_constrained: bool = False,
                 memory: ProtocolMemory | None = None):
        self.inner = inner
        self.name = inner.name
        self.model = inner.model
        self.force_constrained = force_constrained
        self.memory = memory or ProtocolMemory(None)
        self._info: ModelInfo | None = None
        self._info_asked = False

    @property
    def key(self) -> str:
        return f"{getattr(self.inner, 'base_url', '')} {self.model}".strip()

    async def model_info(self) -> ModelInfo | None:
        """What the server says about the model (Ollama's /api/show); None where it cannot say."""
        if not self._info_asked:
            self._info_asked = True
            show = getattr(self.inner, "show", None)
            if show is not None:
                try:
                    self._info = await show()
                except LLMError as exc:  # the chat request itself will report a real problem
                    log.info("could not read the capabilities of %s: %s", self.model, exc)
        return self._info

    async def protocol(self) -> tuple[str, str]:
        if self.force_constrained:
            return CONSTRAINED, "turned on in the plugin settings"
        remembered = self.memory.get(self.key)
        if remembered is not None:
            return remembered
        info = await self.model_info()
        if info is not None and info.capabilities and not info.supports_tools:
            reason = f"the server lists no tool calling for {self.model}"
            self.memory.set(self.key, CONSTRAINED, reason)
            return CONSTRAINED, reason
        return NATIVE, ""

    async def chat_stream(self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None = None,
                          options: ChatOptions | None = None) -> AsyncIterator[StreamChunk]:
        messages = await self._images_for_model(messages)
        if not tools:  # an answer-only step: constrained only for a model known to need it
            if self.force_constrained or (self.memory.get(self.key) or ("",))[0] == CONSTRAINED:
                stream = self._constrained(messages, None, options)
            else:
                stream = self.inner.chat_stream(messages, None, options)
            async with closing(stream):
                async for chunk in stream:
                    yield chunk
            return
        protocol, reason = await self.protocol()
        if protocol == NATIVE:
            yield ProtocolChunk(NATIVE, self.model, reason)
            produced = False
            try:
                async with closing(self.inner.chat_stream(messages, tools, options)) as stream:
                    async for chunk in stream:
                        produced = True
                        yield chunk
                return
            except ToolsNotSupported:
                if produced:
                    raise
                reason = f"{self.model} answered that it does not support tools"
                log.info("%s; retrying the request with constrained tool calling", reason)
                self.memory.set(self.key, CONSTRAINED, reason)
        yield ProtocolChunk(CONSTRAINED, self.model, reason)
        async with closing(self._constrained(messages, tools, options)) as stream:
            async for chunk in stream:
                yield chunk

    async def _constrained(self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None,
                           options: ChatOptions | None) -> AsyncIterator[StreamChunk]:
        base = options or getattr(self.inner, "options", None) or ChatOptions()
        opts = dataclasses.replace(base, response_schema=action_schema(tools))
        reply = ConstrainedReply([(t.get("function") or {}).get("name", "") for t in tools or ()])
        stream = self.inner.chat_stream(constrained_messages(messages, tools), None, opts)
        try:
            async for chunk in stream:
                if isinstance(chunk, ContentChunk):
                    for part in reply.feed(chunk.text):
                        yield part
                elif isinstance(chunk, FinalChunk):
                    response, late = reply.response(chunk.response)
                    for part in late:
                        yield part
                    yield FinalChunk(response)
                else:  # thinking streams as usual; a backup switch is said as usual
                    yield chunk
        finally:  # closing the inner stream is what stops generation on the server
            close = getattr(stream, "aclose", None)
            if close is not None:
                await close()

    async def _images_for_model(self, messages: Sequence[Message]) -> Sequence[Message]:
        """Images (a map view) go only to a model the server says can see; others get the text."""
        if not any(m.get("images") for m in messages):
            return messages
        info = await self.model_info()
        if info is not None and "vision" in info.capabilities:
            return messages
        return [{k: v for k, v in m.items() if k != "images"} if m.get("images") else m for m in messages]

    async def chat(self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None = None,
                   options: ChatOptions | None = None) -> ChatResponse:
        final: ChatResponse | None = None
        async with closing(self.chat_stream(messages, tools, options)) as stream:
            async for chunk in stream:
                if isinstance(chunk, FinalChunk):
                    final = chunk.response
        if final is None:
            raise cut_answer()
        return final

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return await self.inner.embed(texts)

    async def aclose(self) -> None:
        await self.inner.aclose()

    def __getattr__(self, name: str) -> Any:
        # show(), list_models(), preload(), base_url, options, ...: the wrapped provider's
        if name.startswith("__") or name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)
