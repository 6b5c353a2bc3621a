"""Ollama's native API over httpx: streaming chat with thinking and tools, embeddings, models."""

from __future__ import annotations

import asyncio
import json
from typing import Any, AsyncIterator, Sequence

import httpx

from .errors import LLMError, cut_answer
from .http_provider import EMBED_BATCH, HttpProvider
from .messages import to_ollama_messages
from .stream_parse import OllamaStreamParser
from .types import (
    ChatOptions,
    ChatResponse,
    FinalChunk,
    LoadedModel,
    Message,
    ModelInfo,
    StreamChunk,
    ToolSpec,
)


class OllamaProvider(HttpProvider):
    """Ollama's native API (/api/*)."""

    server = "Ollama"
    kind = "ollama"

    def chat_body(self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None,
                  options: ChatOptions | None, stream: bool) -> dict[str, Any]:
        opts = self._options(options)
        runner: dict[str, Any] = {"num_ctx": opts.num_ctx, "temperature": opts.temperature}
        if opts.num_predict is not None:
            runner["num_predict"] = opts.num_predict
        body: dict[str, Any] = {"model": self.model, "messages": to_ollama_messages(messages),
                                "stream": stream, "options": runner, "keep_alive": opts.keep_alive}
        if tools:
            body["tools"] = list(tools)
        if opts.think is not None:
            body["think"] = opts.think
        if opts.response_schema is not None:
            body["format"] = opts.response_schema
        return body

    # ---- chat ---------------------------------------------------------------------------
    async def chat_stream(self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None = None,
                          options: ChatOptions | None = None) -> AsyncIterator[StreamChunk]:
        """Thinking, content and tool-call chunks as they arrive, then one FinalChunk.

        Cancelling the consuming task closes the HTTP stream, which makes Ollama stop generating.
        """
        body = self.chat_body(messages, tools, options, stream=True)
        parser = OllamaStreamParser(self._scanned_tools(tools, body))
        try:
            async with self._http().stream("POST", "/api/chat", json=body) as response:
                if response.status_code != 200:
                    await response.aread()
                    raise await self._status_error(response)
                async for line in response.aiter_lines():
                    if not line:
                        continue
                    for chunk in parser.feed(line):
                        if isinstance(chunk, FinalChunk):
                            chunk = FinalChunk(self._finish(chunk.response, body["messages"], tools))
                        yield chunk
        except httpx.HTTPError as exc:
            raise self._transport_error(exc, parser.produced) from exc
        if parser.final is None:
            raise self._transport_error(httpx.RemoteProtocolError("stream ended without a done line"),
                                        parser.produced)

    async def chat(self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None = None,
                   options: ChatOptions | None = None) -> ChatResponse:
        body = self.chat_body(messages, tools, options, stream=False)
        data = await self._call("POST", "/api/chat", body)
        parser = OllamaStreamParser(self._scanned_tools(tools, body))
        parser.feed(json.dumps(data))
        if parser.final is None:  # a whole reply always carries done: true, so this one was cut short
            raise cut_answer()
        return self._finish(parser.final, body["messages"], tools)

    async def preload(self) -> None:
        """Loads the chat model with the session's options so the first answer starts fast."""
        opts = self.options
        await self._call("POST", "/api/chat", {
            "model": self.model, "messages": [], "keep_alive": opts.keep_alive,
            "options": {"num_ctx": opts.num_ctx, "temperature": opts.temperature}})

    # ---- embeddings and models ---------------------------------------------------------
    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), EMBED_BATCH):
            batch = list(texts[start:start + EMBED_BATCH])
            data = await self._call("POST", "/api/embed", {
                "model": self.embed_model, "input": batch, "truncate": True,
                "keep_alive": self.options.keep_alive}, model=self.embed_model)
            vectors.extend(data["embeddings"])
        return vectors

    async def version(self) -> str:
        return (await self._call("GET", "/api/version"))["version"]

    async def list_models(self) -> list[ModelInfo]:
        """Installed models (names and sizes; `show()` tells capabilities and context length)."""
        data = await self._call("GET", "/api/tags")
        return [ModelInfo(name=m["name"], family=(m.get("details") or {}).get("family", ""),
                          parameter_size=(m.get("details") or {}).get("parameter_size", ""),
                          quantization=(m.get("details") or {}).get("quantization_level", ""))
                for m in data.get("models", [])]

    async def installed_models(self) -> list[ModelInfo]:
        """Installed models with their capabilities and context length (`show()` of each); a model
        the server cannot describe keeps what the list says."""
        listed = await self.list_models()
        shown = await asyncio.gather(*(self.show(m.name) for m in listed), return_exceptions=True)
        return [info if isinstance(info, ModelInfo) else model for model, info in zip(listed, shown)]

    async def show(self, model: str | None = None) -> ModelInfo:
        name = model or self.model
        data = await self._call("POST", "/api/show", {"model": name}, model=name)
        info = data.get("model_info") or {}
        arch = info.get("general.architecture", "")
        details = data.get("details") or {}
        return ModelInfo(name=name, capabilities=tuple(data.get("capabilities") or ()),
                         context_length=int(info.get(f"{arch}.context_length") or 0),
                         family=details.get("family", arch),
                         parameter_size=details.get("parameter_size", ""),
                         quantization=details.get("quantization_level", ""))

    async def loaded_models(self) -> list[LoadedModel]:
        data = await self._call("GET", "/api/ps")
        return [LoadedModel(name=m["name"], size=int(m.get("size") or 0), size_vram=int(m.get("size_vram") or 0),
                            expires_at=m.get("expires_at", ""), context_length=int(m.get("context_length") or 0))
                for m in data.get("models", [])]

    async def _tool_capable_models(self) -> tuple[str, ...]:
        try:
            infos = await self.installed_models()
        except LLMError:
            return ()
        return tuple(info.name for info in infos if info.supports_tools)
