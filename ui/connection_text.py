"""Whether the model can answer (`agent.health.ConnectionState`), in the analyst's language: the status line and
the welcome card say it from the state's parts; the log keeps the agent's English message."""

from __future__ import annotations

from .i18n import tr, translatable

# The reasons agent.health gives in words (others, a timeout's, show as written).
REASONS = (translatable("nothing answers at that address"), translatable("what answered there is not Ollama"),
           translatable("the connection failed"))


def connection_text(state) -> str:
    if not state.url:  # a state made without its parts: as the agent wrote it
        return state.message
    if state.ok:
        return tr("Connected to Ollama {version} at {url} — model {model} ready.").format(
            version=state.version, url=state.url, model=state.model)
    if state.reachable:
        return tr("Ollama is running but the model {model} is not installed. Run `ollama pull {model}`, or pick an "
                  "installed model with the Settings… button (installed: {installed}).").format(
            model=state.model, installed=", ".join(state.models[:8]) or tr("none"))
    return tr("Ollama is not reachable at {url}: {why}. Start it with `ollama serve` (install it from "
              "https://ollama.com), or set the Ollama URL with the Settings… button.").format(
        url=state.url, why=tr(state.why))
