"""Ollama's native API over httpx: streaming chat with thinking and tools, embeddings, models.

Runner options (num_ctx, temperature, keep_alive) are fixed for the provider's lifetime because
changing them between requests makes Ollama reload the model.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from typing import Any, AsyncIterator, Iterable, Sequence

import httpx

from .errors import LLMError
from .http_errors import error_text, status_error, transport_error
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

log = logging.getLogger(__name__)

EMBED_BATCH = 64  # inputs per /api/embed request
CHARS_PER_TOKEN = 3.6
MESSAGE_OVERHEAD = 6


def tool_names(tools: Sequence[ToolSpec] | None) -> set[str]:
    return {(t.get("function") or {}).get("name", "") for t in tools or ()} - {""}


def estimate_prompt_tokens(messages: Sequence[Message], tools: Sequence[ToolSpec] | None) -> int:
    chars = sum(len(m.get("content") or "") + len(m.get("thinking") or "")
                + (len(json.dumps(m["tool_calls"])) if m.get("tool_calls") else 0) for m in messages)
    chars += len(json.dumps(list(tools))) if tools else 0
    return int(chars / CHARS_PER_TOKEN) + MESSAGE_OVERHEAD * len(messages)


def overflow_notice(estimate: int, prompt_eval_count: int, num_ctx: int) -> str:
    """A sentence when the prompt could not fit and the server read less than we sent."""
    if prompt_eval_count <= 0 or estimate <= num_ctx or prompt_eval_count >= estimate:
        return ""
    return (f"The conversation (about {estimate} tokens) is larger than the model's context window "
            f"({num_ctx} tokens): the server dropped the oldest messages and read only {prompt_eval_count} "
            "tokens. Start a new chat, or raise the context size in the plugin settings.")


class OllamaProvider:
    server = "Ollama"

    def __init__(self, base_url: str, model: str, *, options: ChatOptions | None = None,
                 timeout_s: float = 120.0, connect_timeout_s: float = 3.0,
                 known_tools: Iterable[str] | None = None, embed_model: str = "nomic-embed-text"):
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.embed_model = embed_model
        self.options = options or ChatOptions()
        self.timeout_s = timeout_s
        self.connect_timeout_s = connect_timeout_s
        self.known_tools = frozenset(known_tools or ())
        self.name = f"ollama {model} @ {self.base_url}"
        self._client: httpx.AsyncClient | None = None

    # ---- plumbing ---------------------------------------------------------------------
    def _http(self) -> httpx.AsyncClient:
        if self._client is None:  # created on first use, inside the loop that will use it
            self._client = httpx.AsyncClient(
                base_url=self.base_url, trust_env=False,
                timeout=httpx.Timeout(self.timeout_s, connect=self.connect_timeout_s))
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def _transport_error(self, exc: httpx.HTTPError, produced: bool = False, model: str = "") -> LLMError:
        return transport_error(exc, server=self.server, url=self.base_url, model=model or self.model,
                               timeout_s=self.timeout_s, produced=produced)

    async def _status_error(self, response: httpx.Response, model: str = "") -> LLMError:
        message = error_text(response)
        capable: tuple[str, ...] = ()
        if "does not support tools" in message.lower():
            capable = await self._tool_capable_models()
        return status_error(response.status_code, message, server=self.server, url=self.base_url,
                            model=model or self.model, tool_capable=capable)

    async def _call(self, method: str, path: str, body: Any = None, model: str = "") -> Any:
        try:
            response = await self._http().request(method, path, json=body)
        except httpx.HTTPError as exc:
            raise self._transport_error(exc, model=model) from exc
        if response.status_code != 200:
            raise await self._status_error(response, model)
        return response.json()

    def _options(self, options: ChatOptions | None) -> ChatOptions:
        """Per-call options may change think/num_predict; runner options stay the session's."""
        if options is None:
            return self.options
        session = self.options
        if (options.num_ctx, options.temperature, options.keep_alive) != (
                session.num_ctx, session.temperature, session.keep_alive):
            log.warning("ignoring per-call num_ctx/temperature/keep_alive: changing them reloads the model")
        return dataclasses.replace(session, think=options.think, num_predict=options.num_predict)

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
        return body

    def _finish(self, response: ChatResponse, body: dict[str, Any]) -> ChatResponse:
        notice = overflow_notice(estimate_prompt_tokens(body["messages"], body.get("tools")),
                                 response.usage.prompt_eval_count, body["options"]["num_ctx"])
        if notice:
            log.warning("%s", notice)
            response = dataclasses.replace(response, context_overflow=notice)
        return response

    # ---- chat ---------------------------------------------------------------------------
    async def chat_stream(self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None = None,
                          options: ChatOptions | None = None) -> AsyncIterator[StreamChunk]:
        """Thinking, content and tool-call chunks as they arrive, then one FinalChunk.

        Cancelling the consuming task closes the HTTP stream, which makes Ollama stop generating.
        """
        body = self.chat_body(messages, tools, options, stream=True)
        parser = OllamaStreamParser(self.known_tools | tool_names(tools))
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
                            chunk = FinalChunk(self._finish(chunk.response, body))
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
        parser = OllamaStreamParser(self.known_tools | tool_names(tools))
        parser.feed(json.dumps(data))
        assert parser.final is not None, "a non-streamed reply always carries done"
        return self._finish(parser.final, body)

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
            names = [m.name for m in await self.list_models()]
            return tuple([n for n in names if (await self.show(n)).supports_tools])
        except LLMError:
            return ()
