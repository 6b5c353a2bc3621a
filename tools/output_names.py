"""Names of the files tools write into the outputs folder. A name may carry catalog or model text (a
collection id, an asset key, an index name); that text is reduced to one safe path component here and
nowhere else, and the final path is checked to lie in the outputs folder, so a catalog whose asset key
is `../../x` cannot make a tool write (or overwrite) anything outside it."""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path

from .common import ToolInputError

MAX_PART_CHARS = 60  # per piece of catalog text: file names stay far below every file system's limit
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")  # no dot: no "..", no hidden file, no second extension
RESERVED_NAMES = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}


def safe_component(text: object, fallback: str = "file") -> str:
    """`text` as one portable file-name piece: ASCII letters, digits, '_' and '-', at most MAX_PART_CHARS,
    never empty and never a name Windows reserves (NUL, CON…)."""
    part = _UNSAFE.sub("_", str(text)).strip("_-")[:MAX_PART_CHARS].strip("_-")
    if not part:
        return fallback
    return f"_{part}" if part.lower() in RESERVED_NAMES else part


def new_output_files(folder: Path, parts: list[object], suffixes: list[str]) -> list[Path]:
    """Fresh paths `<folder>/<part>-<part>-<random>.<suffix>` (one per suffix, one shared stem) that do not
    exist yet and lie directly in `folder` (symlinks resolved): nothing a tool writes there replaces a file."""
    real_folder = Path(os.path.realpath(folder))
    stem = "-".join(safe_component(p) for p in parts if str(p or "")) or "output"
    for _ in range(8):
        name = f"{stem}-{uuid.uuid4().hex[:8]}"
        paths = [real_folder / f"{name}{_checked_suffix(s)}" for s in suffixes]
        if not any(os.path.lexists(p) for p in paths):
            for path in paths:
                inside_outputs(path, real_folder)
            return paths
    raise ToolInputError(f"Could not find a free file name in {real_folder}; clear the outputs folder and retry.")


def new_output_file(folder: Path, parts: list[object], suffix: str) -> Path:
    """One fresh path in the outputs folder (see new_output_files)."""
    return new_output_files(folder, parts, [suffix])[0]


def inside_outputs(path: Path, folder: Path) -> Path:
    """`path` when it resolves to a file directly in `folder`; else a ToolInputError (never written)."""
    real_folder = Path(os.path.realpath(folder))
    real = Path(os.path.realpath(path))
    if real.parent != real_folder or real.name in ("", ".", ".."):
        raise ToolInputError(f"Refused to write {path}: it is not in the outputs folder {real_folder}.")
    return real


def _checked_suffix(suffix: str) -> str:
    # suffixes are the tools' own constants (".png"); a wrong one is our bug, not the model's
    if not re.fullmatch(r"\.[A-Za-z0-9]{1,8}", suffix):
        raise ValueError(f"bad file suffix {suffix!r}")
    return suffix
