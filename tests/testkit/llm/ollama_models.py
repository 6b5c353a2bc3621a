"""The emulator's installed models and how /api/tags, /api/ps and /api/show describe them."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

MODIFIED_AT = "2026-11-01T09:00:00.000000Z"


@dataclass
class InstalledModel:
    name: str
    capabilities: tuple[str, ...]
    context_length: int
    family: str
    size: int = 5_225_388_164
    num_ctx: int = 4096  # the window it was last loaded with
    loaded_until: float = 0.0  # monotonic deadline; 0 = not loaded


def tags_entry(m: InstalledModel) -> dict:
    return {"name": m.name, "model": m.name, "modified_at": MODIFIED_AT, "size": m.size,
            "digest": hashlib.sha256(m.name.encode()).hexdigest(),
            "details": {"parent_model": "", "format": "gguf", "family": m.family, "families": [m.family],
                        "parameter_size": "8.2B", "quantization_level": "Q4_K_M"}}


def ps_entry(m: InstalledModel, now: float) -> dict:
    entry = tags_entry(m)
    del entry["modified_at"]
    expires = datetime.now(timezone.utc).timestamp() + (m.loaded_until - now)
    entry["expires_at"] = datetime.fromtimestamp(expires, timezone.utc).isoformat().replace("+00:00", "Z")
    entry["size_vram"] = m.size
    entry["context_length"] = m.num_ctx
    return entry


def show_body(m: InstalledModel) -> dict:
    arch = m.family
    return {"modelfile": f"FROM {m.name}\n", "parameters": "temperature 0.6\ntop_p 0.95",
            "template": "{{ .Prompt }}", "details": tags_entry(m)["details"],
            "model_info": {"general.architecture": arch, "general.parameter_count": 8_190_735_360,
                           f"{arch}.context_length": m.context_length, f"{arch}.embedding_length": 4096},
            "capabilities": list(m.capabilities), "modified_at": MODIFIED_AT}


def openai_models_body(names: list[str]) -> dict:
    return {"object": "list", "data": [
        {"id": n, "object": "model", "created": 1764000000, "owned_by": "library"} for n in names]}


def mark_loaded(m: InstalledModel, body: dict[str, Any]) -> None:
    """keep_alive as Ollama reads it: "30m", "1h", "45s", seconds, 0 (unload) or negative (forever)."""
    keep_alive, seconds = body.get("keep_alive"), 300.0
    if isinstance(keep_alive, (int, float)):
        seconds = float(keep_alive)
    elif isinstance(keep_alive, str) and keep_alive:
        unit = {"s": 1, "m": 60, "h": 3600}.get(keep_alive[-1])
        seconds = float(keep_alive[:-1]) * unit if unit else float(keep_alive)
    m.loaded_until = time.monotonic() + (seconds if seconds >= 0 else 10 ** 9)
    m.num_ctx = int((body.get("options") or {}).get("num_ctx") or m.num_ctx)
