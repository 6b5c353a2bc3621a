"""Turning what httpx and the server say into errors a user can act on."""

from __future__ import annotations

import json
import re

import httpx

from .errors import (
    LLMError,
    LLMTimeout,
    ModelNotFound,
    ServerError,
    ServerUnreachable,
    StreamError,
    ThinkingNotSupported,
    ToolsNotSupported,
    unreachable_message,
)


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
        return ServerUnreachable(unreachable_message(server, url))
    if isinstance(exc, httpx.ConnectTimeout):
        return ServerUnreachable(unreachable_message(server, url, f"no answer within {timeout_s:g} s"))
    if isinstance(exc, httpx.TimeoutException):
        return LLMTimeout(
            f"{model} gave no answer within {timeout_s:g} s. Loading a model the first time can take a "
            "while: try again, or raise the request timeout in the plugin settings.", before_output=not produced)
    return StreamError(
        f"{server} at {url} closed the connection in the middle of the answer ({type(exc).__name__}); "
        "it may have crashed or run out of memory. Try again.", before_output=not produced)


def status_error(status: int, message: str, *, server: str, url: str, model: str,
                 tool_capable: tuple[str, ...] = ()) -> LLMError:
    lowered = message.lower()
    if status == 404 and "not found" in lowered:
        missing = _quoted(message) or model
        hint = f"run `ollama pull {missing}`" if server == "Ollama" else "load it on the server"
        return ModelNotFound(f"Model '{missing}' is not installed on {url}: {hint}, "
                             "or pick an installed model in the plugin settings.")
    if "does not support tools" in lowered:
        choice = (f"Installed models that can: {', '.join(tool_capable)}." if tool_capable
                  else "Install one that can, e.g. `ollama pull qwen3:8b`.")
        return ToolsNotSupported(f"Model '{model}' cannot call tools, which this assistant needs. "
                                 f"Pick another model in the plugin settings. {choice}", tool_capable=tool_capable)
    if "does not support thinking" in lowered:
        return ThinkingNotSupported(f"Model '{model}' cannot think step by step: turn thinking off for it "
                                    "in the plugin settings, or pick a thinking model such as qwen3.")
    if status >= 500:
        return ServerError(f"{server} at {url} failed ({status}): {message}. Try again; if it keeps "
                           "failing, check the server's log.")
    return ServerError(f"{server} at {url} refused the request ({status}): {message}.")


def _quoted(message: str) -> str:
    match = re.search(r"""model ['"]([^'"]+)['"]""", message)
    return match.group(1) if match else ""
