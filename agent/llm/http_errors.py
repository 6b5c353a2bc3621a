"""Turning what httpx and the server say into errors a user can act on."""

from __future__ import annotations

import json
import re

import httpx

from ..dock_text import Said, say, translatable
from .errors import (
    LLMError,
    LLMTimeout,
    ModelNotFound,
    ServerError,
    ServerUnreachable,
    StreamError,
    ThinkingNotSupported,
    ToolsNotSupported,
    unreachable_said,
)

# The providers' names for their servers (HttpProvider.server) in our words; "Ollama" is a name.
_SERVER_WORDS = {"The LLM server": say(translatable("The LLM server")),
                 "The OpenAI-compatible server": say(translatable("The OpenAI-compatible server"))}


def _named(server: str) -> str | Said:
    return _SERVER_WORDS.get(server, server)


def error_text(response: httpx.Response) -> str:
    """The server's message from {"error": "..."} (Ollama) or {"error": {"message": ...}} (OpenAI)."""
    try:
        body = json.loads(response.content or b"{}")
    except ValueError:
        return response.text.strip()[:300] or response.reason_phrase
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        error = error.get("message")
    return str(error or response.text.strip()[:300] or response.reason_phrase)


def transport_error(exc: httpx.HTTPError, *, server: str, url: str, model: str, timeout_s: float,
                    produced: bool) -> LLMError:
    if isinstance(exc, httpx.ConnectError):
        return ServerUnreachable(unreachable_said(_named(server), url))
    if isinstance(exc, httpx.ConnectTimeout):
        return ServerUnreachable(unreachable_said(_named(server), url, say(translatable("no answer within {seconds} s"),
                                                                    seconds=f"{timeout_s:g}")))
    if isinstance(exc, httpx.TimeoutException):
        return LLMTimeout(say(translatable(
            "{model} gave no answer within {seconds} s. Loading a model the first time can take a while: try "
            "again, or raise the request timeout in the plugin settings."), model=model, seconds=f"{timeout_s:g}"),
            before_output=not produced)
    return StreamError(say(translatable(
        "{server} at {url} closed the connection in the middle of the answer ({error}); it may have crashed or "
        "run out of memory. Try again."), server=_named(server), url=url, error=type(exc).__name__),
        before_output=not produced)


def status_error(status: int, message: str, *, server: str, url: str, model: str,
                 tool_capable: tuple[str, ...] = ()) -> LLMError:
    lowered = message.lower()
    if status == 404 and "not found" in lowered:
        missing = _quoted(message) or model
        if server == "Ollama":
            hint = say(translatable("run `ollama pull {model}`"), model=missing)
        else:
            hint = say(translatable("load it on the server"))
        return ModelNotFound(say(translatable("Model '{model}' is not installed on {url}: {hint}, or pick an "
                                              "installed model in the plugin settings."),
                                 model=missing, url=url, hint=hint))
    if "does not support tools" in lowered:
        if tool_capable:
            choice = say(translatable("Installed models that can: {models}."), models=", ".join(tool_capable))
        else:
            choice = say(translatable("Install one that can, e.g. `ollama pull qwen3:8b`."))
        return ToolsNotSupported(say(translatable("Model '{model}' cannot call tools, which this assistant needs. "
                                                  "Pick another model in the plugin settings. {choice}"),
                                     model=model, choice=choice), tool_capable=tool_capable)
    if "does not support thinking" in lowered:
        return ThinkingNotSupported(say(translatable(
            "Model '{model}' cannot think step by step: turn thinking off for it in the plugin settings, or pick "
            "a thinking model such as qwen3."), model=model))
    if status >= 500:
        return ServerError(say(translatable("{server} at {url} failed ({status}): {error}. Try again; if it keeps "
                                            "failing, check the server's log."),
                               server=_named(server), url=url, status=status, error=message))
    return ServerError(say(translatable("{server} at {url} refused the request ({status}): {error}."),
                           server=_named(server), url=url, status=status, error=message))


def _quoted(message: str) -> str:
    match = re.search(r"""model ['"]([^'"]+)['"]""", message)
    return match.group(1) if match else ""
