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

    def _switch(self, exc: LLMError) -> tuple[Provider, ProviderSwitchChunk] | None:
        """The backup and the notice saying so, or None when the failure must reach the caller (no backup,
        or the primary had already answered something)."""
        backup = self.backup
        if backup is None or not exc.before_output:
            return None
        log.warning("%s failed before answering (%s); using %s for this request",
                    self.primary.name, exc, backup.name)
        self.last_switch = ProviderSwitchChunk(from_provider=self.primary.name,
                                               to_provider=backup.name, reason=str(exc),
                                               cause=exc)
        return backup, self.last_switch

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
            switched = None if produced else self._switch(exc)
            if switched is None:
                raise
        backup, notice = switched
        yield notice
        async with closing(backup.chat_stream(messages, tools, options)) as stream:
            async for chunk in stream:
                yield chunk

    async def chat(self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None = None,
                   options: ChatOptions | None = None) -> ChatResponse:
        self.last_switch = None
        try:
            return await self.primary.chat(messages, tools, options)
        except LLMError as exc:
            switched = self._switch(exc)
            if switched is None:
                raise
        return await switched[0].chat(messages, tools, options)

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.last_switch = None
        try:
            return await self.primary.embed(texts)
        except LLMError as exc:
            switched = self._switch(exc)
            if switched is None:
                raise
        return await switched[0].embed(texts)

    async def aclose(self) -> None:
        await self.primary.aclose()
        if self.backup is not None:
            await self.backup.aclose()

    def __getattr__(self, name: str) -> Any:
        # show(), list_models(), preload(), ...: questions about the configured (primary) server
        if name.startswith("__") or name in ("primary", "backup"):
            raise AttributeError(name)
        return getattr(self.primary, name)
