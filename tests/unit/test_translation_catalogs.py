"""The dock's catalogs keep up with the code: every tr() string of ui/ has a German and a French translation
with the same {placeholders} (scripts/i18n_strings.py --check, as `make translations` runs it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

import i18n_strings  # noqa: E402


def test_every_wrapped_string_has_its_translations():
    run = subprocess.run([sys.executable, str(REPO / "scripts" / "i18n_strings.py"), "--check"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr


def _repo(tmp_path: Path, code: str) -> Path:
    (tmp_path / "ui").mkdir()
    (tmp_path / "ui" / "panel.py").write_text(code, encoding="utf-8")
    (tmp_path / "plugin").mkdir()
    (tmp_path / "plugin" / "__init__.py").write_text("", encoding="utf-8")
    return tmp_path


def test_check_names_what_is_missing_and_update_keeps_translations(tmp_path):
    repo = _repo(tmp_path, 'A = translatable("Layer")\nb = tr("Zoom to {layer}").format(layer=x)\nc = tr(A)\n')
    assert i18n_strings.collect(repo) == ["Layer", "Zoom to {layer}"]
    i18n_strings.update(repo)
    assert any("no translation for 'Layer'" in p for p in i18n_strings.problems(repo))

    de = i18n_strings.catalog_path("de", repo)
    i18n_strings.write_catalog(de, "de", ["Layer", "Zoom to {layer}"],
                               {"Layer": ("Layer", ""), "Zoom to {layer}": ("Auf {ebene} zoomen", "")})
    found = i18n_strings.problems(repo)
    assert any("placeholders of 'Auf {ebene} zoomen'" in p for p in found)

    (repo / "ui" / "panel.py").write_text('b = tr("Zoom to the layer")\n', encoding="utf-8")
    i18n_strings.update(repo)  # a string gone from the code keeps its translation, marked vanished
    entries = i18n_strings.read_catalog(de)
    assert entries["Layer"] == ("Layer", "vanished") and entries["Zoom to the layer"] == ("", "unfinished")
