"""Standalone `qgis_process` (batch scripts, servers, CI pipelines of analysts) finds the `stacgis:` algorithms:
`make package`'s zip unpacked into a fresh profile's plugins folder and enabled, QGIS loads it through
`initProcessing` because metadata.txt says hasProcessingProvider=yes, and a footprint search on the shipped
offline demo catalog runs from the command line. Without the plugin's requirements qgis_process still works and
its log says what the algorithms need."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ALGORITHMS = ("stacgis:searchfootprints", "stacgis:collectionstatistics", "stacgis:zonalstatistics")
DEMO_NDVI = ROOT / "resources" / "demo_catalog" / "collections" / "demo-ndvi" / "items"


def _qgis_process() -> str:
    found = shutil.which("qgis_process")
    if found is None:
        pytest.skip("qgis_process is not installed")
    # Debian's wrapper adds QGIS_OPTS from /etc/default/qgis ("--noversioncheck", which qgis_process refuses)
    binary = Path(found).with_name("qgis_process.bin")
    return str(binary) if binary.exists() else found


@pytest.fixture(scope="module")
def profile_home(tmp_path_factory) -> Path:
    """A HOME whose default QGIS profile has the packaged plugin in its plugins folder, enabled."""
    home = tmp_path_factory.mktemp("home")
    built = subprocess.run([str(ROOT / "scripts" / "package.sh"), str(home / "dist")], capture_output=True,
                           text=True, check=True).stdout.strip().splitlines()[-1]
    profile = home / ".local" / "share" / "QGIS" / "QGIS3" / "profiles" / "default"
    with zipfile.ZipFile(built) as archive:
        archive.extractall(profile / "python" / "plugins")
    (profile / "QGIS").mkdir(parents=True)
    (profile / "QGIS" / "QGIS3.ini").write_text("[PythonPlugins]\nstacgis_agent=true\n")
    (home / "runtime").mkdir(mode=0o700)
    return home


def _run(home: Path, *args: str, requirements: bool = True) -> subprocess.CompletedProcess:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "QT_QPA_PLATFORM": "offscreen",
           "XDG_RUNTIME_DIR": str(home / "runtime"), "LC_ALL": "C.UTF-8"}
    if requirements:  # the venv's packages, as `make run` hands them to QGIS (scripts/run_qgis.sh)
        env["PYTHONPATH"] = sysconfig.get_paths()["purelib"]
    return subprocess.run([_qgis_process(), *args], env=env, capture_output=True, text=True, timeout=240)


def test_qgis_process_lists_the_plugins_algorithms(profile_home):
    done = _run(profile_home, "list")
    assert done.returncode == 0, done.stderr[-2000:]
    for algorithm in ALGORITHMS:
        assert algorithm in done.stdout, done.stdout[-2000:] + done.stderr[-2000:]


def test_qgis_process_runs_a_footprint_search_on_the_demo_catalog(profile_home, tmp_path):
    output = tmp_path / "footprints.geojson"
    done = _run(profile_home, "run", "stacgis:searchfootprints", "--json", "--",
                "COLLECTION=demo-ndvi", f"OUTPUT={output}")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    result = json.loads(done.stdout[done.stdout.index("{"):])
    assert Path(result["results"]["OUTPUT"]) == output
    written = json.loads(output.read_text())  # the file is whole when qgis_process exits
    dates = sorted(f["properties"]["datetime"][:10] for f in written["features"])
    items = sorted(json.loads(p.read_text())["properties"]["datetime"][:10] for p in DEMO_NDVI.glob("*.json"))
    assert dates == items and len(items) == 2


def test_without_the_requirements_qgis_process_still_runs_and_says_what_is_missing(profile_home):
    if sys.base_prefix != "/usr" and not Path("/usr/bin/python3").exists():
        pytest.skip("needs QGIS's system Python")
    done = _run(profile_home, "list", requirements=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "stacgis:" not in done.stdout
    assert "need the plugin's requirements" in done.stdout + done.stderr
