"""OpenAI-compatible servers: llama.cpp server, LM Studio, vLLM and Ollama's own /v1."""

from __future__ import annotations

import logging
from typing import Any, AsyncIterator, Iterable, Sequence

import httpx

from .http_provider import EMBED_BATCH, HttpProvider, tool_names
from .messages import to_openai_messages
from .sse_parse import OpenAIStreamParser, response_from_openai
from .types import ChatOptions, ChatResponse, FinalChunk, Message, ModelInfo, StreamChunk, ToolSpec

log = logging.getLogger(__name__)


def api_root(url: str) -> str:
    """Accepts "http://host:8080" or "http://host:8080/v1"; returns the /v1 root."""
    url = url.rstrip("/")
    return url if url.endswith("/v1") else url + "/v1"


class OpenAICompatProvider(HttpProvider):
    server = "The OpenAI-compatible server"
    kind = "openai"

    def __init__(self, base_url: str, model: str, *, options: ChatOptions | None = None,
                 timeout_s: float = 120.0, connect_timeout_s: float = 3.0,
                 known_tools: Iterable[str] | None = None, embed_model: str = "nomic-embed-text",
                 api_key: str = ""):
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        super().__init__(api_root(base_url), model, options=options, timeout_s=timeout_s,
                         connect_timeout_s=connect_timeout_s, known_tools=known_tools,
                         embed_model=embed_model, headers=headers)

    def chat_body(self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None,
                  options: ChatOptions | None, stream: bool) -> dict[str, Any]:
        opts = self._options(options)
        body: dict[str, Any] = {"model": self.model, "messages": to_openai_messages(messages),
                                "stream": stream, "temperature": opts.temperature}
        if stream:
            body["stream_options"] = {"include_usage": True}
        if opts.num_predict is not None:
            body["max_tokens"] = opts.num_predict
        if tools:
            body["tools"] = list(tools)
        return body

    async def chat_stream(self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None = None,
                          options: ChatOptions | None = None) -> AsyncIterator[StreamChunk]:
        """Same chunks as OllamaProvider.chat_stream; cancelling closes the HTTP stream."""
        body = self.chat_body(messages, tools, options, stream=True)
        parser = OpenAIStreamParser(self.known_tools | tool_names(tools))
        try:
            async with self._http().stream("POST", "/chat/completions", json=body) as response:
                if response.status_code != 200:
                    await response.aread()
                    raise await self._status_error(response)
                async for line in response.aiter_lines():
                    for chunk in parser.feed(line):
                        if isinstance(chunk, FinalChunk):
                            chunk = FinalChunk(self._finish(chunk.response, messages, tools))
                        yield chunk
                    if parser.final is not None:
                        return
        except httpx.HTTPError as exc:
            raise self._transport_error(exc, parser.produced) from exc
        if parser.final is None:  # some servers end the stream without [DONE]
            if not parser.produced:
                raise self._transport_error(httpx.RemoteProtocolError("empty stream"), False)
            for chunk in parser.finish():
                yield FinalChunk(self._finish(chunk.response, messages, tools)) \
                    if isinstance(chunk, FinalChunk) else chunk

    async def chat(self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None = None,
                   options: ChatOptions | None = None) -> ChatResponse:
        body = self.chat_body(messages, tools, options, stream=False)
        data = await self._call("POST", "/chat/completions", body)
        return self._finish(response_from_openai(data, self.known_tools | tool_names(tools)), messages, tools)

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), EMBED_BATCH):
            batch = list(texts[start:start + EMBED_BATCH])
            data = await self._call("POST", "/embeddings", {"model": self.embed_model, "input": batch},
                                    model=self.embed_model)
            vectors.extend(d["embedding"] for d in sorted(data["data"], key=lambda d: d.get("index", 0)))
        return vectors

    async def list_models(self) -> list[ModelInfo]:
        data = await self._call("GET", "/models")
        return [ModelInfo(name=m["id"]) for m in data.get("data", [])]
