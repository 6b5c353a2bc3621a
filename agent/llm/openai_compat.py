"""OpenAI-compatible servers: llama.cpp server, LM Studio, vLLM and Ollama's own /v1."""

from __future__ import annotations

import logging
from typing import Any, AsyncIterator, Iterable, Sequence

import httpx

from .errors import LLMError
from .http_errors import error_text
from .http_provider import EMBED_BATCH, HttpProvider
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
        self._schema_style = "json_schema"  # the OpenAI form; llama-cpp-python wants "json_object"

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
        if opts.response_schema is not None:
            body["response_format"] = self._response_format(opts.response_schema)
        return body

    def _response_format(self, schema: dict[str, Any]) -> dict[str, Any]:
        if self._schema_style == "json_object":  # llama-cpp-python's server takes the schema this way
            return {"type": "json_object", "schema": schema}
        return {"type": "json_schema", "json_schema": {"name": "action", "schema": schema}}

    def _retry_schema_style(self, body: dict[str, Any], response: httpx.Response) -> bool:
        """True (and the style switched) when the server refused `json_schema` but names `json_object`."""
        if "response_format" not in body or self._schema_style != "json_schema":
            return False
        if "json_object" not in error_text(response):
            return False
        log.info("%s takes a response schema as json_object; using that form", self.base_url)
        self._schema_style = "json_object"
        return True

    async def chat_stream(self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None = None,
                          options: ChatOptions | None = None) -> AsyncIterator[StreamChunk]:
        """Same chunks as OllamaProvider.chat_stream; cancelling closes the HTTP stream."""
        for _attempt in range(2):
            body = self.chat_body(messages, tools, options, stream=True)
            parser = OpenAIStreamParser(self._scanned_tools(tools, body))
            try:
                async with self._http().stream("POST", "/chat/completions", json=body) as response:
                    if response.status_code != 200:
                        await response.aread()
                        if self._retry_schema_style(body, response):
                            continue
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
            break
        if parser.final is None:  # some servers end the stream without [DONE]
            if not parser.produced:
                raise self._transport_error(httpx.RemoteProtocolError("empty stream"), False)
            for chunk in parser.finish():
                yield FinalChunk(self._finish(chunk.response, messages, tools)) \
                    if isinstance(chunk, FinalChunk) else chunk

    async def chat(self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None = None,
                   options: ChatOptions | None = None) -> ChatResponse:
        body = self.chat_body(messages, tools, options, stream=False)
        try:
            data = await self._call("POST", "/chat/completions", body)
        except LLMError:
            if "response_format" not in body or self._schema_style != "json_schema":
                raise
            self._schema_style = "json_object"  # one retry in the other schema form
            body = self.chat_body(messages, tools, options, stream=False)
            data = await self._call("POST", "/chat/completions", body)
        return self._finish(response_from_openai(data, self._scanned_tools(tools, body)), messages, tools)

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
