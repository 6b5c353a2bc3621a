"""Plain-file resources (icons, prompt texts, the demo catalog) behind one helper."""

from __future__ import annotations

from pathlib import Path

PLUGIN_DIR = Path(__file__).resolve().parents[1]


def resources_path(*parts: str) -> Path:
    return PLUGIN_DIR.joinpath("resources", *parts)
