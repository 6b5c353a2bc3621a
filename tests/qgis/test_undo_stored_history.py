"""State read back from a project file is untrusted input (issue 40 item 11): a crafted project whose stored
undo history names a folder as a turn id, or a path as a file a turn wrote, cannot make "Redo to here" move
the analyst's files (sha256 unchanged), nor make the plugin delete a folder outside the outputs folder."""

from __future__ import annotations

import hashlib
import json
import logging

import pytest
from qgis.core import QgsProject

from stacgis_agent.tools.canvas.undo import states
from stacgis_agent.tools.canvas.undo.history import TurnHistory
from stacgis_agent.tools.canvas.undo.record import ENTRY
from stacgis_agent.tools.canvas.undo.turns import ChatTurns


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def folders(tmp_path):
    outputs = tmp_path / "profile" / "stacgis_agent" / "outputs"
    (outputs / ".undone").mkdir(parents=True)  # there after the analyst's first undo of a turn that wrote a file
    analyst = tmp_path / "analyst"
    analyst.mkdir()
    (analyst / "notes.txt").write_text("the analyst's own notes")
    (analyst / "parcels.gpkg").write_bytes(b"not really a geopackage, but precious")
    return outputs, analyst


def crafted_project(project, turns: list[dict]) -> None:
    project.writeEntry(*ENTRY, json.dumps({"version": 1, "next": len(turns) + 1, "turns": turns}))


def written(name: str, path) -> dict:
    stat = path.stat()
    return {"kind": "file_written", "description": f"wrote file '{name}'", "target": name,
            "after": [stat.st_size, stat.st_mtime_ns], "undone": True}


async def test_redo_to_here_moves_no_file_out_of_the_analysts_folder(qgis_new_project, folders, caplog):
    outputs, analyst = folders
    before = {p.name: digest(p) for p in analyst.iterdir()}
    relative = "../../../../analyst"  # outputs/.undone/<turn id> → the analyst's folder
    assert (outputs / ".undone" / relative).resolve() == analyst.resolve()
    crafted_project(QgsProject.instance(), [
        {"turn_id": relative, "number": 1, "request": "", "undone": True,
         "changes": [written("notes.txt", analyst / "notes.txt")]},
        {"turn_id": "a1b2c3", "number": 2, "request": "", "undone": True,
         "changes": [written("../../../../analyst/parcels.gpkg", analyst / "parcels.gpkg")]},
    ])
    with caplog.at_level(logging.WARNING):
        history = TurnHistory(QgsProject.instance)
    outcome = await ChatTurns(history, outputs).redo_to(2)
    assert {p.name: digest(p) for p in analyst.iterdir()} == before
    assert not (outputs / "notes.txt").exists() and not (outputs / "parcels.gpkg").exists()
    assert "notes.txt" not in outcome.message and "parcels.gpkg" not in outcome.message
    assert "has an id that is not an id" in caplog.text and "names a file outside the outputs folder" in caplog.text


def test_a_turn_id_is_never_a_folder_to_park_in_or_delete():
    for crafted in ("..", "../analyst", "/home/analyst", "a/b", ""):
        with pytest.raises(ValueError):
            states.parked_folder("/tmp/outputs", crafted)
    assert str(states.parked_folder("/tmp/outputs", "3f2a-9c")) == "/tmp/outputs/.undone/3f2a-9c"


def test_a_well_formed_history_is_read_as_it_was_saved(qgis_new_project):
    crafted_project(QgsProject.instance(), [
        {"turn_id": "m1", "number": 1, "request": "add roads", "undone": False, "owner": "analyst",
         "changes": [{"kind": "layer_added", "description": "added layer 'roads'", "target": "roads_1"}]},
        {"turn_id": "outside-0a1b", "number": 2, "undone": False, "owner": "outside:0123456789abcdef",
         "changes": [{"kind": "view", "description": "moved the map", "before": {"x": 1}}]},
        {"turn_id": "m3", "number": 3, "owner": "root", "changes": []},  # an owner no server issued
        "not a record",
    ])
    history = TurnHistory(QgsProject.instance)
    assert history.turn_ids() == ["m1", "outside-0a1b"]
    assert history.turn("outside-0a1b").owner == "outside:0123456789abcdef"
    assert [e.title for e in history.entries()] == ["Turn 2 · by an outside MCP client · moved the map",
                                                    "Turn 1 · added layer 'roads'"]
