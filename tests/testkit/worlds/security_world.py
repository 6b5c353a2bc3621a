"""Files for the security tier: GeoPackages and GeoTIFFs the outside clients must not harm or read, a
QGIS profile laid out as a user's (the plugin's private package folder, an old token file at 0644),
an allowed folder, and a symlink inside the plugin's output folder pointing elsewhere."""

from __future__ import annotations

import os
import secrets
import sys
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path

from .cogs import smooth_field, write_cog
from .gpkg_files import write_gpkg


@dataclass
class SecurityWorld:
    root: Path
    profile: Path
    data: Path
    allowed: Path
    elsewhere: Path
    outputs: Path
    old_token: str
    layers: list[dict] = field(default_factory=list)

    def gpkg(self, name: str) -> Path:
        return self.data / f"{name}.gpkg"


def make_world(root: Path) -> SecurityWorld:
    profile, data, allowed, elsewhere = (root / n for n in ("profile", "data", "allowed", "elsewhere"))
    for folder in (profile, data, allowed, elsewhere):
        folder.mkdir(parents=True)
    outputs = profile / "stacgis_agent" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "shortcut").symlink_to(elsewhere, target_is_directory=True)
    # The plugin's private package folder, as the plugin's installer makes it (here: this venv's packages).
    deps = profile / "python" / "stacgis_agent_deps" / f"py{sys.version_info.major}.{sys.version_info.minor}"
    deps.parent.mkdir(parents=True)
    deps.symlink_to(sysconfig.get_paths()["purelib"], target_is_directory=True)
    token = profile / "stacgis_mcp_token"
    old = secrets.token_urlsafe(40)
    token.write_text(old)
    os.chmod(token, 0o644)  # an old install's file, readable by every user
    world = SecurityWorld(root, profile, data, allowed, elsewhere, outputs, old)
    for table in ("roads", "victims", "sqlvictims", "indexed"):
        write_gpkg(world.gpkg(table), table)
        world.layers.append({"name": table, "source": f"{world.gpkg(table)}|layername={table}", "kind": "vector"})
    write_cog(data / "dem.tif", smooth_field(64, 64, seed=1), origin=(5.0, 45.5), pixel_size=0.01)
    world.layers.append({"name": "dem", "source": str(data / "dem.tif"), "kind": "raster"})
    write_cog(allowed / "allowed.tif", smooth_field(32, 32, seed=2), origin=(5.0, 45.5), pixel_size=0.01)
    write_cog(elsewhere / "secret.tif", smooth_field(32, 32, seed=3), origin=(5.0, 45.5), pixel_size=0.01)
    return world
