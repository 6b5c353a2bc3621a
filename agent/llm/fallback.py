"""A primary provider with an optional backup: used for one request when the primary fails
before producing any output, and always said (a ProviderSwitchChunk), never silent."""

from __future__ import annotations

import logging
from typing import Any, AsyncIterator, Sequence

from .errors import LLMError
from .streams import closing
from .types import (
    ChatOptions,
    ChatResponse,
    Message,
    ProtocolChunk,
    Provider,
    ProviderSwitchChunk,
    StreamChunk,
    ToolSpec,
)

log = logging.getLogger(__name__)


class FallbackProvider:
    def __init__(self, primary: Provider, backup: Provider | None):
        self.primary = primary
        self.backup = backup
        self.name = primary.name
        self.model = primary.model
        self.last_switch: ProviderSwitchChunk | None = None  # for callers of chat()/embed()

    def _switch(self, exc: LLMError) -> ProviderSwitchChunk:
        assert self.backup is not None
        log.warning("%s failed before answering (%s); using %s for this request",
                    self.primary.name, exc, self.backup.name)
        self.last_switch = ProviderSwitchChunk(from_provider=self.primary.name,
                                               to_provider=self.backup.name, reason=str(exc),
                                               cause=exc)
        return self.last_switch

    def _can_switch(self, exc: LLMError) -> bool:
        return self.backup is not None and exc.before_output

    async def chat_stream(self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None = None,
                          options: ChatOptions | None = None) -> AsyncIterator[StreamChunk]:
        self.last_switch = None
        produced = False
        try:
            async with closing(self.primary.chat_stream(messages, tools, options)) as stream:
                async for chunk in stream:
                    produced = produced or not isinstance(chunk, ProtocolChunk)  # a notice, not model output
                    yield chunk
            return
        except LLMError as exc:
            if produced or not self._can_switch(exc):
                raise
            switch = self._switch(exc)
        assert self.backup is not None
        yield switch
        async with closing(self.backup.chat_stream(messages, tools, options)) as stream:
            async for chunk in stream:
                yield chunk

    async def chat(self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None = None,
                   options: ChatOptions | None = None) -> ChatResponse:
        self.last_switch = None
        try:
            return await self.primary.chat(messages, tools, options)
        except LLMError as exc:
            if not self._can_switch(exc):
                raise
            self._switch(exc)
        assert self.backup is not None
        return await self.backup.chat(messages, tools, options)

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.last_switch = None
        try:
            return await self.primary.embed(texts)
        except LLMError as exc:
            if not self._can_switch(exc):
                raise
            self._switch(exc)
        assert self.backup is not None
        return await self.backup.embed(texts)

    async def aclose(self) -> None:
        await self.primary.aclose()
        if self.backup is not None:
            await self.backup.aclose()

    def __getattr__(self, name: str) -> Any:
        # show(), list_models(), preload(), ...: questions about the configured (primary) server
        if name.startswith("__") or name in ("primary", "backup"):
            raise AttributeError(name)
        return getattr(self.primary, name)
