"""The chat templates of the models the guide recommends, as the server renders a recorded /api/chat request:
Qwen3's and Llama 3.2's own (tests/data/chat_templates/, verbatim), and Gemma 3's layout (GEMMA_TEMPLATE)."""

from __future__ import annotations

from pathlib import Path

import jinja2

from .llama_server import GEMMA_TEMPLATE

TEMPLATES = Path(__file__).resolve().parents[2] / "data" / "chat_templates"


def _raise(message: str):
    raise jinja2.TemplateError(message)


def _template(source: str) -> jinja2.Template:
    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True)
    env.globals.update(raise_exception=_raise, strftime_now=lambda fmt: "01 Dec 2026")
    return env.from_string(source)


RENDERERS = {
    "qwen3": _template((TEMPLATES / "Qwen-Qwen3-0.6B.jinja").read_text()),
    "llama3.2": _template((TEMPLATES / "meta-llama-Llama-3.2-3B-Instruct.jinja").read_text()),
    "gemma3": _template(GEMMA_TEMPLATE),
}


def as_hf_messages(body: dict) -> list[dict]:
    """Ollama's /api/chat messages as the Hugging Face templates read them (thinking → reasoning_content)."""
    out = []
    for m in body["messages"]:
        msg = {"role": m["role"], "content": m.get("content") or ""}
        if m.get("thinking"):
            msg["reasoning_content"] = m["thinking"]
        if m.get("tool_calls"):
            msg["tool_calls"] = [{"type": "function", "function": {
                "name": c["function"]["name"], "arguments": c["function"]["arguments"]}} for c in m["tool_calls"]]
        out.append(msg)
    return out


def render(name: str, body: dict) -> str:
    """What the model reads for one recorded request, with template `name` (a key of RENDERERS)."""
    return RENDERERS[name].render(messages=as_hf_messages(body), tools=body.get("tools") or None,
                                  add_generation_prompt=True, bos_token="<bos>")
