"""Installing from the ZIP: the private folder goes on sys.path at start-up, before pip creates
it; after the install the packages must be importable at once, without restarting QGIS."""

from __future__ import annotations

import importlib
import subprocess
import sys

from stacgis_agent.host import requirements as deps
from testkit.worlds.probe_wheel import NAME, build_probe_wheel, probe_lock

PROBE = deps.Requirement(NAME, "stacgis-probe-pkg", "stacgis-probe-pkg>=1.0", "1.0")


def test_packages_installed_after_start_up_are_found_without_restart(tmp_path, monkeypatch):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    lock = probe_lock(build_probe_wheel(wheels), tmp_path)
    target = deps.private_site_dir(tmp_path / "profile")  # does not exist yet, as on first start
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delitem(sys.modules, NAME, raising=False)

    assert deps.add_to_sys_path(target) is True  # plugin start-up
    problems = deps.check_requirements((PROBE,))
    assert [p.package for p in problems] == ["stacgis-probe-pkg"]  # Python now remembers the folder as missing

    cmd = deps.pip_install_command(deps.find_python_executable(), target, lock,
                                   extra_args=["--no-index", "--find-links", str(wheels)])
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr

    assert deps.add_to_sys_path(target) is False  # already there: only the caches are refreshed
    assert deps.check_requirements((PROBE,)) == []
    assert importlib.import_module(NAME).VALUE == 42
    assert sys.path.count(str(target)) == 1


def test_missing_pip_says_what_to_install_for_the_platform():
    assert "sudo apt install python3-pip" in deps.pip_missing_advice("linux")
    for platform in ("win32", "darwin"):
        advice = deps.pip_missing_advice(platform)
        assert "apt" not in advice and "reinstall QGIS" in advice


def test_pip_is_detected_in_this_python():
    assert deps.pip_available() is True  # the venv of the tests has pip
    assert deps.pip_available(find_spec=lambda name: None) is False
