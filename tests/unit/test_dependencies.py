"""The dependency bootstrap: missing packages are named, clashes explained, and the pip
command really installs into a private folder that the plugin then imports from."""

from __future__ import annotations

import importlib
import subprocess
import sys
import types

from stacgis_agent.host import requirements as deps
from testkit.worlds.probe_wheel import build_probe_wheel, probe_lock


def test_missing_package_is_reported_by_name():
    reqs = (deps.Requirement("httpx", "httpx", "httpx>=0.27", "0.27"),
            deps.Requirement("no_such_module_xyz", "no-such-dist", "no-such-dist>=1.0", "1.0"))
    problems = deps.check_requirements(reqs)
    assert [(p.kind, p.package) for p in problems] == [("missing", "no-such-dist")]
    assert "no-such-dist is not installed" in deps.describe(problems)
    assert deps.specs_to_install(problems) == ["no-such-dist>=1.0"]


def test_too_old_version_is_reported_with_what_is_needed():
    reqs = (deps.Requirement("mcp", "mcp", "mcp>=2.3,<3", "2.3"),)
    problems = deps.check_requirements(reqs, find_spec=lambda _m: object(), version_of=lambda _d: "1.26.0")
    assert problems[0].kind == "too_old"
    assert "mcp 1.26.0 is too old (needs mcp>=2.3,<3)" == problems[0].message


def test_pydantic_one_already_loaded_is_a_clash_with_instructions():
    fake = types.SimpleNamespace(VERSION="1.10.13")
    problems = deps.check_requirements((), loaded_modules={"pydantic": fake})
    assert len(problems) == 1 and problems[0].kind == "clash"
    assert "pydantic 1.10.13" in problems[0].message
    assert "restart QGIS" in problems[0].message
    assert deps.specs_to_install(problems) == []  # pip cannot fix a module already in memory


def test_pydantic_two_loaded_is_fine():
    assert deps.check_requirements((), loaded_modules={"pydantic": types.SimpleNamespace(VERSION="2.9.1")}) == []


def test_python_executable_found_when_sys_executable_is_qgis(tmp_path):
    exe = tmp_path / "bin" / "python3"
    exe.parent.mkdir()
    exe.write_text("")
    found = deps.find_python_executable("/usr/bin/qgis", str(tmp_path))
    assert found == str(exe)
    assert deps.find_python_executable("/usr/bin/qgis", str(tmp_path / "nowhere")) is None


def test_private_dir_is_per_python_version(tmp_path):
    path = deps.private_site_dir(tmp_path)
    assert path.parent == tmp_path / "python" / "stacgis_agent_deps"
    assert path.name == f"py{sys.version_info.major}.{sys.version_info.minor}"


def test_constraints_pin_compiled_packages_qgis_already_has():
    pins = deps.constraints_for_present(version_of={"numpy": "1.24.2"}.get, names=("numpy", "absent"))
    assert pins == ["numpy==1.24.2"]


def test_install_into_private_folder_then_import(tmp_path, monkeypatch):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    lock = probe_lock(build_probe_wheel(wheels), tmp_path)
    target = deps.private_site_dir(tmp_path / "profile")
    target.mkdir(parents=True)
    reqs = (deps.Requirement("stacgis_probe_pkg", "stacgis-probe-pkg", "stacgis-probe-pkg>=1.0", "1.0"),)

    problems = deps.check_requirements(reqs)
    assert [p.package for p in problems] == ["stacgis-probe-pkg"]

    constraints = tmp_path / "constraints.txt"
    constraints.write_text("\n".join(deps.constraints_for_present()) + "\n")
    cmd = deps.pip_install_command(deps.find_python_executable(), target, lock,
                                   constraints, extra_args=["--no-index", "--find-links", str(wheels)])
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (target / "stacgis_probe_pkg" / "__init__.py").exists()

    monkeypatch.setattr(sys, "path", list(sys.path))
    assert deps.add_to_sys_path(target) is True
    assert deps.add_to_sys_path(target) is False  # idempotent
    assert sys.path[-1] == str(target)  # after QGIS's own packages
    assert deps.check_requirements(reqs) == []
    module = importlib.import_module("stacgis_probe_pkg")
    assert module.VALUE == 42
    sys.modules.pop("stacgis_probe_pkg", None)
