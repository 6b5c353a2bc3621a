"""Issue 46.2, what "don't ask again in this chat" may cover for Processing: a call whose only effect is new files
outside the plugin's output folder gets a kind naming the algorithm and the folders (so another algorithm, or
another folder, asks again); an output over an existing file, code in a parameter, or a change in place gets none
and asks every time (agent/trust.py)."""

from __future__ import annotations

from stacgis_agent.tools.confirmation import ConfirmDestructiveMiddleware
from testkit.qgis_drivers import processing_world
from testkit.worlds.gpkg_files import write_gpkg

world = processing_world.world  # the fixture: a roads GeoPackage and a city layer, the server over them


async def _kind(server, algorithm_id: str, parameters: dict) -> tuple[bool, str]:
    judged = await ConfirmDestructiveMiddleware(server).assess(
        "run_processing_algorithm", {"algorithm_id": algorithm_id, "parameters": parameters})
    return judged.destructive, judged.kind


async def test_only_new_files_in_named_folders_may_be_waved_through(world, tmp_path_factory):
    server, _data, outputs = world
    project = tmp_path_factory.mktemp("project")
    buffer = {"INPUT": "cities", "DISTANCE": 0.1}
    assert await _kind(server, "native:buffer", {**buffer, "OUTPUT": str(project / "a.gpkg")}) == (
        True, f"run native:buffer writing new files into {project} (never over an existing file)")
    existing = write_gpkg(project / "b.gpkg")
    assert await _kind(server, "native:buffer", {**buffer, "OUTPUT": str(existing)}) == (True, "")
    assert await _kind(server, "native:fieldcalculator", {
        "INPUT": "cities", "FIELD_NAME": "score", "FORMULA": '"population" * 2',
        "OUTPUT": str(project / "c.gpkg")}) == (True, "")
    assert await _kind(server, "native:createspatialindex", {"INPUT": "roads"}) == (True, "")
    assert await _kind(server, "native:buffer", {**buffer, "OUTPUT": str(outputs / "d.gpkg")}) == (False, "")
