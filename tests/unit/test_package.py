"""`make package` produces the zip the QGIS plugin repository accepts."""

from __future__ import annotations

import configparser
import subprocess
import zipfile

from conftest import REPO

REQUIRED = ("name", "qgisMinimumVersion", "description", "about", "version", "author", "email",
            "repository", "tracker")


def _metadata(text: str) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(text)
    return parser["general"]


def test_metadata_has_every_field_the_repository_requires():
    meta = _metadata((REPO / "metadata.txt").read_text())
    for key in REQUIRED:
        assert meta.get(key, "").strip(), f"metadata.txt lacks {key}"
    assert meta["qgisMinimumVersion"] == "3.22"
    assert meta["qgisMaximumVersion"] == "4.99"
    assert (REPO / meta["icon"]).exists()
    assert meta.get("supportsQt6") == "True"  # backed by make test-qt6 (ui/ tests under PyQt6)


def test_package_zip_holds_the_plugin_and_nothing_else(tmp_path):
    done = subprocess.run(["bash", str(REPO / "scripts" / "package.sh"), str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    zips = list(tmp_path.glob("stacgis_agent-*.zip"))
    assert len(zips) == 1
    names = zipfile.ZipFile(zips[0]).namelist()
    assert "stacgis_agent/metadata.txt" in names
    assert "stacgis_agent/__init__.py" in names
    assert "stacgis_agent/LICENSE" in names
    assert all(n.startswith("stacgis_agent/") for n in names)
    forbidden = ("stacgis_agent/tests/", "stacgis_agent/bench/", "stacgis_agent/.ci/",
                 "stacgis_agent/Makefile", "stacgis_agent/.venv/", "stacgis_agent/.build/")
    assert not [n for n in names if n.startswith(forbidden) or "__pycache__" in n]
    # Help opens the guide from the plugin folder: its pages and pictures ship, nothing else of docs/
    assert {"stacgis_agent/docs/guide/README.md", "stacgis_agent/docs/guide/troubleshooting.md",
            "stacgis_agent/docs/screenshot-chat.png"} <= set(names)
    assert not [n for n in names if n.startswith("stacgis_agent/docs/") and not n.endswith((".md", ".png", "/"))]
    assert "stacgis_agent/docs/development.md" not in names
    meta = _metadata(zipfile.ZipFile(zips[0]).read("stacgis_agent/metadata.txt").decode())
    assert zips[0].name == f"stacgis_agent-{meta['version']}.zip"
