"""The plugin's requirements as wheels in a local folder, so a real pip can install them offline
(PIP_NO_INDEX + PIP_FIND_LINKS) the way the dock's Install dependencies button does.

Fetched once from the package index at the versions this venv installed (what the suite tests with), for
this Python, and kept under `.build/wheelhouse/<key>`; the key changes with the specs, the pins or
the Python version, so a stale folder is never reused.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DEFAULT_FOLDER = ROOT / ".build" / "wheelhouse"


def venv_pins(python: str = sys.executable) -> list[str]:
    """`name==version` of what this venv installed itself from the index (--local: not the system's
    packages, whose Debian versions the index may not have, e.g. certifi 2026.10.23 on sid)."""
    out = subprocess.run([python, "-m", "pip", "freeze", "--local", "--exclude-editable", "--disable-pip-version-check"],
                         capture_output=True, text=True, check=True).stdout
    return sorted(line for line in out.splitlines() if "==" in line and " @ " not in line)


def wheelhouse(specs: list[str], pins: list[str] = (), folder: Path = DEFAULT_FOLDER,
               python: str = sys.executable) -> Path:
    """A folder holding a wheel for each spec and each of their dependencies, pinned to this venv and
    to `pins` (the constraints the plugin's own pip command adds, e.g. QGIS's numpy)."""
    pins = sorted({*venv_pins(python), *pins})
    tag = f"py{sys.version_info.major}.{sys.version_info.minor}"
    key = hashlib.sha1("\n".join([tag, *specs, "--", *pins]).encode()).hexdigest()[:12]
    target = folder / f"{tag}-{key}"
    if (target / ".complete").exists():
        return target
    folder.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix="staging-", dir=folder))
    constraints = staging / "constraints.txt"
    constraints.write_text("\n".join(pins) + "\n")
    done = subprocess.run([python, "-m", "pip", "download", "--disable-pip-version-check", "--no-input",
                           "--only-binary=:all:", "--dest", str(staging / "wheels"), "--constraint",
                           str(constraints), *specs], capture_output=True, text=True)
    if done.returncode != 0:
        shutil.rmtree(staging, ignore_errors=True)
        raise AssertionError(
            "Could not download the plugin's requirements as wheels for the offline install test (pip "
            f"download exited {done.returncode}); this needs the package index once, then "
            f"{folder} is reused. pip said:\n{done.stdout[-2000:]}{done.stderr[-3000:]}")
    (staging / "wheels" / ".complete").write_text("\n".join(specs) + "\n")
    shutil.rmtree(target, ignore_errors=True)
    (staging / "wheels").rename(target)
    shutil.rmtree(staging, ignore_errors=True)
    return target
