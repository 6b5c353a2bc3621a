"""Where the plugin lives, computed once: its folder as QGIS loaded it (a symbolic link is kept, so the
profile's plugins folder is the one found, not where the link points) and its plain-file resources
(icons, prompt texts, the demo catalog)."""

from __future__ import annotations

import os
from pathlib import Path

PLUGIN_DIR = Path(os.path.abspath(__file__)).parents[1]
PLUGINS_DIR = PLUGIN_DIR.parent  # the folder that holds the plugin package (a profile's python/plugins)


def resources_path(*parts: str) -> Path:
    return PLUGIN_DIR.joinpath("resources", *parts)
