"""The system prompt: role, rules and the resources known when the session starts."""

from __future__ import annotations

import json
from typing import Any, Sequence

from .paths import resources_path

PROMPTS_DIR = resources_path("prompts")

ANSWER_NOW = ("This is your last step: do not call any tool. Answer the user now with what you have "
              "found so far, and say what is still missing.")
SUMMARISE_NOW = ("The user asked you to stop exploring. Do not call any tool. Summarise what you found "
                 "and suggest the next step.")
CONTINUE = "Your answer was cut off by the length limit. Continue exactly where you stopped, without repeating."


def load_prompt(name: str) -> str:
    return (PROMPTS_DIR / name).read_text(encoding="utf-8")


def build_system_prompt(max_steps: int, catalogs: Sequence[Any] = (), resources: Sequence[str] = (),
                        extra: str = "", held_back: bool = False) -> str:
    """`held_back`: the tools are sent in their short form (agent/visible_tools.py), so the shared
    parameters are described here once and call_tool is explained."""
    parts = [load_prompt("system.md").replace("{max_steps}", str(max_steps)).strip()]
    if held_back:
        parts.append(load_prompt("held_back_tools.md").strip())
    if catalogs:
        lines = [f"- {getattr(c, 'name', c)}: {getattr(c, 'url', '')}".rstrip(": ") for c in catalogs]
        parts.append("Configured STAC catalogs:\n" + "\n".join(lines))
    for resource in resources:
        if resource.strip():
            parts.append(resource.strip())
    if extra.strip():
        parts.append(extra.strip())
    return "\n\n".join(parts)


def collections_brief(text: str, limit: int = 2000) -> str:
    """`collections://list` (a JSON list of catalogs with their collections) as a few lines."""
    try:
        catalogs = json.loads(text)
    except ValueError:
        return ""
    lines = []
    for catalog in catalogs if isinstance(catalogs, list) else ():
        if not isinstance(catalog, dict):
            continue
        if catalog.get("error"):
            lines.append(f"- {catalog.get('catalog')}: unavailable ({catalog['error']})")
            continue
        ids = ", ".join(str(c.get("id")) for c in catalog.get("collections", ()) if isinstance(c, dict))
        lines.append(f"- {catalog.get('catalog')}: {ids}")
    if not lines:
        return ""
    body = "\n".join(lines)
    if len(body) > limit:
        body = body[:limit] + " …(more: call the collection listing tool)"
    return "Collections available in the configured catalogs (ids):\n" + body
