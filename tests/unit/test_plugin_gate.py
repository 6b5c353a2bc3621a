"""The plugin repository's gate (`make gate`, scripts/plugin_gate.py) stops what plugins.qgis.org would stop:
run on small plugin zips with planted findings, it names each one with its rule and whether the site blocks it
outright, blocks it unless the rule is unticked, or reports it; a clean plugin and an explained suppression
pass. `make gate` runs it on the real zip."""

from __future__ import annotations

import stat
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "scripts"))
import plugin_gate  # noqa: E402

METADATA = """[general]
name=Tiny
qgisMinimumVersion=3.22
description=A tiny plugin
version=1.0
author=Someone
email=someone@example.org
about=Does little.
tracker={tracker}
repository=https://example.org/tiny
icon=icon.svg
"""
CLEAN = '''"""A tiny plugin."""


def classFactory(iface):  # noqa: N802
    return object()
'''


def _zip(folder: Path, files: dict[str, str], executable: tuple[str, ...] = (),
         tracker: str = "https://example.org/tiny/issues") -> Path:
    files = {"metadata.txt": METADATA.format(tracker=tracker), "LICENSE": "GPL", "icon.svg": "<svg/>",
             "__init__.py": CLEAN, **files}
    target = folder / "tiny.zip"
    with zipfile.ZipFile(target, "w") as archive:
        for name, text in files.items():
            info = zipfile.ZipInfo(f"tiny/{name}")
            mode = 0o755 if name in executable else 0o644
            info.external_attr = (stat.S_IFREG | mode) << 16
            archive.writestr(info, text)
    return target


def _found(package: Path) -> set[tuple[str, str, str, str]]:
    findings, _report = plugin_gate.gate(package)
    return {(f.kind, f.tool, f.rule, f.where.split(":")[0]) for f in findings}


@pytest.fixture(autouse=True)
def scanners_installed():
    problems = plugin_gate.tool_versions()
    assert not problems, problems  # requirements-dev.txt pins the site's versions


def test_a_clean_plugin_passes(tmp_path):
    assert _found(_zip(tmp_path, {})) == set()


def test_planted_findings_are_named_with_their_rule_and_what_the_site_does(tmp_path):
    package = _zip(tmp_path, {
        "stores.py": 'def connect(host, password=""):\n    return host, password\n',  # B107, mandatory
        "checks.py": "def first(items):\n    assert items\n    return items[0]\n",  # B101, skippable
        "urls.py": '"""Example: redis://ana:s3cret@cache:6379/0"""\n',  # BasicAuthDetector, mandatory
        "run.py": "import subprocess\n\n\ndef go(cmd):\n    return subprocess.run(cmd)  # nosec\n",  # unexplained
        "tool.py": "x = 1\n",  # executable bit: reported
        "bad.py": "print(undefined_name)\n",  # F821: reported
    }, executable=("tool.py",))
    assert _found(package) == {
        ("blocking", "bandit", "B107", "tiny/stores.py"),
        ("skippable", "bandit", "B101", "tiny/checks.py"),
        ("blocking", "secrets", "BasicAuthDetector", "tiny/urls.py"),
        ("blocking", "suppression", "nosec", "tiny/run.py"),
        ("reported", "file_analysis", "FILE_EXECUTABLE", "tiny/tool.py"),
        ("reported", "flake8", "F821", "tiny/bad.py"),
    }


def test_a_suppression_that_names_its_rule_and_says_why_passes(tmp_path):
    package = _zip(tmp_path, {
        "run.py": ("import subprocess\n\n\ndef go(ffmpeg, target):\n"
                   "    return subprocess.run([ffmpeg, str(target)])  # nosec B603 # argv list, no shell\n"),
        "README.md": "Set `password = \"example-only-value\"` <!-- pragma: allowlist secret - a made-up example -->\n",
    })
    assert _found(package) == set()


def test_the_validator_refuses_placeholder_urls_and_a_missing_licence(tmp_path):
    package = _zip(tmp_path, {}, tracker="http://bugs")
    with zipfile.ZipFile(package, "a") as archive:
        archive.writestr("tiny/__pycache__/x.cpython-311.pyc", b"")
    found = _found(package)
    assert ("blocking", "structure", "metadata", "metadata.txt tracker=http") in found
    assert {("blocking", "structure", "pyc", "tiny/__pycache__/x.cpython-311.pyc"),
            ("blocking", "structure", "directory", "tiny/__pycache__/x.cpython-311.pyc")} <= found


def test_the_rules_are_the_sites_lists():
    rules = plugin_gate.load_rules()
    assert {"B105", "B106", "B107", "B102"} <= set(rules["bandit"]["mandatory"])
    assert {"B101", "B608", "B324", "B603", "B110", "B112", "B310"} <= set(rules["bandit"]["skippable"])
    assert rules["secrets"]["skippable"] == ["Base64HighEntropyString", "HexHighEntropyString", "KeywordDetector"]
    assert rules["secrets"]["disabled"] == ["IPPublicDetector"]
    assert len(plugin_gate.enabled(rules, "flake8")) == 26
