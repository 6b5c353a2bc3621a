"""What the dock installs is reproducible: exact versions from a lock file committed with the plugin, every
file checked against its sha256, for every Python of the QGIS matrix; and the lock says what requirements*.txt
says (a requirement added or raised without `make lock` fails here, before a user gets an unpinned install)."""

from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.version import Version

from stacgis_agent.host import requirements as deps
from testkit.worlds.probe_wheel import build_probe_wheel, probe_lock

ROOT = Path(__file__).resolve().parents[2]
PYTHONS = ("3.11", "3.12", "3.13", "3.14")  # Debian 12, Windows/macOS QGIS, trixie, sid
# each lock and the requirement files it is compiled from (`make lock`)
LOCKS = {deps.LOCK: ("requirements.txt",),
         deps.SCALE_OUT_LOCK: ("requirements.txt", "requirements-dask.txt"),
         deps.VOICE_LOCK: ("requirements-voice.txt",)}


def _pins(lock: Path) -> dict[str, tuple[str, str, list[str]]]:
    """name -> (version, marker, hashes) of each entry of a lock file."""
    pins = {}
    for entry in re.split(r"\n(?=[A-Za-z0-9])", lock.read_text()):
        head = entry.split("\\", 1)[0].strip()
        if not head or head.startswith("#"):
            continue
        spec, _, marker = head.partition(";")
        name, _, version = spec.strip().partition("==")
        pins[name.lower()] = (version, marker.strip(), re.findall(r"--hash=sha256:([0-9a-f]{64})", entry))
    return pins


def _declared(path: Path) -> list[Requirement]:
    found = []
    for line in path.read_text().splitlines():
        text = line.split("#", 1)[0].strip()
        if text and not text.startswith("-"):
            found.append(Requirement(text))
    return found


def _applies(marker: str | None, python: str) -> bool:
    return not marker or Marker(marker).evaluate({"python_version": python, "python_full_version": f"{python}.0"})


@pytest.mark.parametrize("lock", list(LOCKS), ids=lambda p: p.name)
def test_every_declared_requirement_is_pinned_in_the_lock_for_every_python(lock):
    pins = _pins(lock)
    for source in LOCKS[lock]:
        for requirement in _declared(ROOT / source):
            for python in PYTHONS:
                if not _applies(str(requirement.marker) if requirement.marker else None, python):
                    continue
                name = requirement.name.lower()
                assert name in pins, f"{name} ({source}) is not in {lock.name}: run `make lock`"
                version, marker, _ = pins[name]
                assert _applies(marker, python), f"{lock.name} pins {name} only where {marker}, not on {python}"
                assert Version(version) in requirement.specifier, \
                    f"{lock.name} pins {name}=={version}, outside {requirement} ({source}): run `make lock`"


@pytest.mark.parametrize("lock", list(LOCKS), ids=lambda p: p.name)
def test_every_pin_is_exact_with_the_hashes_of_its_files(lock):
    pins = _pins(lock)
    assert pins, lock
    for name, (version, _, hashes) in pins.items():
        assert re.fullmatch(r"[0-9][0-9A-Za-z.+!]*", version), (name, version)
        assert hashes, f"{name} has no hash in {lock.name}"
    assert "numpy" not in pins  # QGIS ships it: a second numpy breaks GDAL's bindings


def test_the_extra_locks_agree_with_the_base_lock():
    base = _pins(deps.LOCK)
    for lock in (deps.SCALE_OUT_LOCK, deps.VOICE_LOCK):
        for name, (version, _, _) in _pins(lock).items():
            if name in base:
                assert version == base[name][0], f"{lock.name} has {name}=={version}, the base lock {base[name][0]}"


def test_the_locks_are_made_by_one_command_with_a_pinned_tool():
    for lock in LOCKS:
        assert lock.read_text().splitlines()[1].strip("# ") == "make lock", lock.name
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\nlock:", 1)[1].split("\n\n", 1)[0]
    for lock, sources in LOCKS.items():
        assert re.search(rf"{' '.join(re.escape(s) for s in sources)} .*-o {re.escape(lock.name)}", recipe), lock.name
    assert "--universal" in makefile and "--generate-hashes" in makefile
    assert re.search(r"^uv==[0-9.]+", (ROOT / "requirements-dev.txt").read_text(), re.M)
    venv_install = makefile.split("\n$(PY):", 1)[1].split("\n\n", 1)[0]
    assert "--require-hashes" in venv_install and "requirements-dask.lock" in venv_install  # the tests run the lock


def test_the_dock_installs_the_lock_with_hashes_only(tmp_path):
    command = deps.pip_install_command("python3", tmp_path, deps.lock_for(False), tmp_path / "c.txt")
    assert {"--require-hashes", "--no-deps"} <= set(command)
    assert command[-2:] == ["--requirement", str(deps.LOCK)]
    assert "--constraint" in command  # QGIS's own numpy stays pinned
    assert not any(re.match(r"[A-Za-z].*[<>=]", part) for part in command[1:])  # no bare spec resolved from the index
    assert deps.lock_for(True) == deps.SCALE_OUT_LOCK


def test_a_file_whose_hash_differs_from_the_lock_is_not_installed(tmp_path):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    lock = probe_lock(build_probe_wheel(wheels), tmp_path)
    real = re.search(r"sha256:(\w+)", lock.read_text()).group(1)
    lock.write_text(lock.read_text().replace(real, hashlib.sha256(b"another file").hexdigest()))
    target = tmp_path / "target"
    command = deps.pip_install_command(deps.find_python_executable(), target, lock,
                                       extra_args=["--no-index", "--find-links", str(wheels)])
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "DO NOT MATCH" in done.stderr.upper(), done.stderr
    assert not (target / "stacgis_probe_pkg").exists()
