"""The plugin's lock file as wheels in a local folder, so a real pip can install them offline
(PIP_NO_INDEX + PIP_FIND_LINKS) the way the dock's Install dependencies button does: the exact files of
the lock, checked against its hashes, for this Python.

Fetched once from the package index and kept under `.build/wheelhouse/<key>`; the key changes with the
lock's text or the Python version, so a stale folder is never reused.
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


def wheelhouse(lock: Path, folder: Path = DEFAULT_FOLDER, python: str = sys.executable) -> Path:
    """A folder holding this Python's wheel of each entry of `lock` (a requirements*.lock)."""
    tag = f"py{sys.version_info.major}.{sys.version_info.minor}"
    key = hashlib.sha1("\n".join([tag, lock.read_text()]).encode()).hexdigest()[:12]
    target = folder / f"{tag}-{key}"
    if (target / ".complete").exists():
        return target
    folder.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix="staging-", dir=folder))
    done = subprocess.run([python, "-m", "pip", "download", "--disable-pip-version-check", "--no-input",
                           "--only-binary=:all:", "--no-deps", "--require-hashes", "--dest", str(staging / "wheels"),
                           "--requirement", str(lock)], capture_output=True, text=True)
    if done.returncode != 0:
        shutil.rmtree(staging, ignore_errors=True)
        raise AssertionError(
            "Could not download the plugin's lock as wheels for the offline install test (pip "
            f"download exited {done.returncode}); this needs the package index once, then "
            f"{folder} is reused. pip said:\n{done.stdout[-2000:]}{done.stderr[-3000:]}")
    (staging / "wheels" / ".complete").write_text(lock.name + "\n")
    shutil.rmtree(target, ignore_errors=True)
    (staging / "wheels").rename(target)
    shutil.rmtree(staging, ignore_errors=True)
    return target
