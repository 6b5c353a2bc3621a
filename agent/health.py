"""Is the LLM server reachable and is the chosen model installed? With the exact fix when not."""

from __future__ import annotations

from dataclasses import dataclass

from .llm.errors import NOTHING_ANSWERS, LLMError, unreachable_message
from .llm.ollama import OllamaProvider


@dataclass(frozen=True)
class ConnectionState:
    reachable: bool
    model_present: bool
    models: tuple[str, ...] = ()
    version: str = ""
    message: str = ""
    # what the message is made of, for a dock that says it in the analyst's language (ui/connection_text.py)
    url: str = ""
    model: str = ""
    why: str = ""  # why it is not reachable, in words

    @property
    def ok(self) -> bool:
        return self.reachable and self.model_present


def _same_model(wanted: str, installed: str) -> bool:
    # "qwen3" and "qwen3:latest" name the same model in Ollama.
    def norm(name: str) -> str:
        return name if ":" in name else name + ":latest"

    return norm(wanted) == norm(installed)


async def check_ollama(base_url: str, model: str, timeout_s: float = 3.0) -> ConnectionState:
    provider = OllamaProvider(base_url, model, timeout_s=timeout_s, connect_timeout_s=timeout_s)
    try:
        try:
            models = tuple(m.name for m in await provider.list_models())
        except (LLMError, ValueError, KeyError) as exc:
            cause = exc.__cause__ if isinstance(exc, LLMError) and exc.__cause__ is not None else exc
            why = _why(cause, timeout_s)
            return ConnectionState(False, False, message=unreachable_message("Ollama", base_url, why),
                                   url=base_url, model=model, why=why)
        version = ""
        try:
            version = await provider.version()
        except (LLMError, ValueError, KeyError):
            pass
        if any(_same_model(model, m) for m in models):
            return ConnectionState(True, True, models, version,
                                   f"Connected to Ollama {version} at {base_url} — model {model} ready.",
                                   url=base_url, model=model)
        others = ", ".join(models[:8]) or "none"
        return ConnectionState(True, False, models, version, (
            f"Ollama is running but the model {model} is not installed. Run `ollama pull {model}`, "
            f"or pick an installed model with the Settings… button (installed: {others})."),
            url=base_url, model=model)
    finally:
        await provider.aclose()


def _why(cause: BaseException, timeout_s: float) -> str:
    """The reason in words, not an exception class name."""
    import httpx

    if isinstance(cause, httpx.ConnectError):
        return NOTHING_ANSWERS
    if isinstance(cause, httpx.TimeoutException):
        return f"no answer within {timeout_s:g} s"
    if isinstance(cause, (ValueError, KeyError)):
        return "what answered there is not Ollama"
    return str(cause).strip().splitlines()[0][:120] if str(cause).strip() else "the connection failed"
