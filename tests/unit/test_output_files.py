"""File names built from catalog or model text: one safe component, inside the outputs folder, never an
existing file."""

from __future__ import annotations

import os

import pytest

from stacgis_agent.tools.common import ToolInputError
from stacgis_agent.tools.output_names import inside_outputs, new_output_files, safe_component


@pytest.mark.parametrize("text", ["../../x", "/etc/passwd", "a\\..\\..\\b", "nul\x00byte", "..", ".", "",
                                  "L" * 1000, "CON", "nul", "é/ü", ".hidden"])
def test_catalog_text_becomes_one_portable_component(text):
    part = safe_component(text)
    assert part and len(part) <= 60
    assert "/" not in part and "\\" not in part and "\x00" not in part and "." not in part
    assert part.lower() not in ("con", "nul")


def test_new_files_lie_in_the_folder_share_a_stem_and_replace_nothing(tmp_path):
    existing = tmp_path / "victim.csv"
    existing.write_text("keep")
    png, csv = new_output_files(tmp_path, ["../../victim", "victim.csv"], [".png", ".csv"])
    assert png.parent == csv.parent == tmp_path.resolve()
    assert png.stem == csv.stem and png.name.startswith("victim-victim_csv-")
    assert not png.exists() and not csv.exists() and existing.read_text() == "keep"


def test_a_symlink_out_of_the_folder_is_refused(tmp_path):
    outputs = tmp_path / "outputs"
    outputs.mkdir()
    os.symlink(tmp_path / "elsewhere.png", outputs / "link.png")
    with pytest.raises(ToolInputError, match="not in the outputs folder"):
        inside_outputs(outputs / "link.png", outputs)
    assert inside_outputs(outputs / "fresh.png", outputs) == outputs.resolve() / "fresh.png"
