"""Is the LLM server reachable and is the chosen model installed? With the exact fix when not."""

from __future__ import annotations

from dataclasses import dataclass

import httpx


@dataclass(frozen=True)
class ConnectionState:
    reachable: bool
    model_present: bool
    models: tuple[str, ...] = ()
    version: str = ""
    message: str = ""

    @property
    def ok(self) -> bool:
        return self.reachable and self.model_present


def _same_model(wanted: str, installed: str) -> bool:
    # "qwen3" and "qwen3:latest" name the same model in Ollama.
    def norm(name: str) -> str:
        return name if ":" in name else name + ":latest"

    return norm(wanted) == norm(installed)


async def check_ollama(base_url: str, model: str, timeout_s: float = 3.0,
                       client: httpx.AsyncClient | None = None) -> ConnectionState:
    owned = client is None
    http = client or httpx.AsyncClient(trust_env=False, timeout=httpx.Timeout(timeout_s))
    try:
        try:
            tags = await http.get(f"{base_url}/api/tags")
            tags.raise_for_status()
            models = tuple(m.get("name", "") for m in tags.json().get("models", []))
        except (httpx.HTTPError, ValueError) as exc:
            return ConnectionState(False, False, message=(
                f"Ollama is not reachable at {base_url} ({type(exc).__name__}). Start it with "
                f"`ollama serve` (install it from https://ollama.com), or set the Ollama URL in "
                f"the settings."))
        version = ""
        try:
            version = (await http.get(f"{base_url}/api/version")).json().get("version", "")
        except (httpx.HTTPError, ValueError):
            pass
        if any(_same_model(model, m) for m in models):
            return ConnectionState(True, True, models, version,
                                   f"Connected to Ollama {version} at {base_url} — model {model} ready.")
        others = ", ".join(models[:8]) or "none"
        return ConnectionState(True, False, models, version, (
            f"Ollama is running but the model {model} is not installed. Run `ollama pull {model}`, "
            f"or pick an installed model in the settings (installed: {others})."))
    finally:
        if owned:
            await http.aclose()
