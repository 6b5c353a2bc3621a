"""The base of the HTTP providers: one httpx client, errors a user can act on, fixed options.

Runner options (num_ctx, temperature, keep_alive) are fixed for the provider's lifetime because
changing them between requests makes Ollama reload the model.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from typing import Any, Iterable, Sequence

import httpx

from ..dock_text import Said, say, translatable
from .errors import LLMError
from .http_errors import error_text, status_error, transport_error
from .types import ChatOptions, ChatResponse, Message, ToolSpec

log = logging.getLogger(__name__)

EMBED_BATCH = 64  # inputs per embedding request
CHARS_PER_TOKEN = 3.6
MESSAGE_OVERHEAD = 6


def tool_names(tools: Sequence[ToolSpec] | None) -> set[str]:
    return {(t.get("function") or {}).get("name", "") for t in tools or ()} - {""}


def estimate_prompt_tokens(messages: Sequence[Message], tools: Sequence[ToolSpec] | None) -> int:
    chars = sum(len(m.get("content") or "") + len(m.get("thinking") or "")
                + (len(json.dumps(m["tool_calls"])) if m.get("tool_calls") else 0) for m in messages)
    chars += len(json.dumps(list(tools))) if tools else 0
    return int(chars / CHARS_PER_TOKEN) + MESSAGE_OVERHEAD * len(messages)


def overflow_notice(estimate: int, prompt_eval_count: int, num_ctx: int) -> Said:
    """A sentence when the prompt could not fit and the server read less than we sent (empty when it fitted)."""
    if prompt_eval_count <= 0 or estimate <= num_ctx or prompt_eval_count >= estimate:
        return Said()
    return say(translatable("The conversation (about {estimate} tokens) is larger than the model's context window "
                            "({num_ctx} tokens): the server dropped the oldest messages and read only {read} tokens. "
                            "Start a new chat, or raise the context size in the plugin settings."),
               estimate=estimate, num_ctx=num_ctx, read=prompt_eval_count)


class HttpProvider:
    """What every HTTP provider shares: the client, error mapping, fixed runner options."""

    server = "The LLM server"
    kind = "llm"

    def __init__(self, base_url: str, model: str, *, options: ChatOptions | None = None,
                 timeout_s: float = 120.0, connect_timeout_s: float = 3.0,
                 known_tools: Iterable[str] | None = None, embed_model: str = "nomic-embed-text",
                 headers: dict[str, str] | None = None):
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.embed_model = embed_model
        self.options = options or ChatOptions()
        self.timeout_s = timeout_s
        self.connect_timeout_s = connect_timeout_s
        self.known_tools = frozenset(known_tools or ())
        self.name = f"{self.kind} {model} @ {self.base_url}"
        self.headers = dict(headers or {})  # e.g. Authorization for a shared server
        self._client: httpx.AsyncClient | None = None

    # ---- plumbing ---------------------------------------------------------------------
    def _http(self) -> httpx.AsyncClient:
        if self._client is None:  # created on first use, inside the loop that will use it
            self._client = httpx.AsyncClient(
                base_url=self.base_url, trust_env=False, headers=self.headers,
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

    async def _tool_capable_models(self) -> tuple[str, ...]:
        return ()

    async def _call(self, method: str, path: str, body: Any = None, model: str = "") -> Any:
        try:
            response = await self._http().request(method, path, json=body)
        except httpx.HTTPError as exc:
            raise self._transport_error(exc, model=model) from exc
        if response.status_code != 200:
            raise await self._status_error(response, model)
        return response.json()

    def _options(self, options: ChatOptions | None) -> ChatOptions:
        """Per-call options may change think/num_predict (the session's cap when unset); runner options stay."""
        if options is None:
            return self.options
        session = self.options
        if (options.num_ctx, options.temperature, options.keep_alive) != (
                session.num_ctx, session.temperature, session.keep_alive):
            log.warning("ignoring per-call num_ctx/temperature/keep_alive: changing them reloads the model")
        num_predict = options.num_predict if options.num_predict is not None else session.num_predict
        return dataclasses.replace(session, think=options.think, num_predict=num_predict,
                                   response_schema=options.response_schema)

    def _scanned_tools(self, tools: Sequence[ToolSpec] | None, body: dict[str, Any]) -> frozenset[str]:
        """Tool names to look for in leaked text; none when the reply is schema-constrained JSON."""
        if "format" in body or "response_format" in body:
            return frozenset()
        return self.known_tools | tool_names(tools)

    def _finish(self, response: ChatResponse, messages: Sequence[Message],
                tools: Sequence[ToolSpec] | None) -> ChatResponse:
        """Says so when the prompt did not fit the window and the server dropped messages."""
        notice = overflow_notice(estimate_prompt_tokens(messages, tools),
                                 response.usage.prompt_eval_count, self.options.num_ctx)
        if notice.template:
            log.warning("%s", notice.text())
            response = dataclasses.replace(response, context_overflow=notice.text(), overflow_said=notice)
        return response
