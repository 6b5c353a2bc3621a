"""Processing is safe on every path (issue 14 items 1–4): a call is judged on its actual parameters, so
the "write" tool still waits for the user's OK when the algorithm edits a file in place, writes outside
the plugin's output folder, overwrites a file or escapes through a symlink. Real algorithms, real files:
after a refused call the file on disk is unchanged."""

from __future__ import annotations

import hashlib
from pathlib import Path

import httpx
import pytest
from mcp import Client
from mcp_types import ElicitResult
from osgeo import gdal, ogr
from qgis.core import QgsProject, QgsVectorLayer

from stacgis_agent.tools.canvas import family
from stacgis_agent.tools.server import build_server
from testkit.canvas_layers import city_layer, dem_layer
from testkit.canvas_servers import canvas_deps

ogr.UseExceptions()


def write_gpkg(path: Path, table: str = "roads", rows: int = 3) -> Path:
    source = ogr.GetDriverByName("GPKG").CreateDataSource(str(path))
    layer = source.CreateLayer(table, geom_type=ogr.wkbPoint)
    layer.CreateField(ogr.FieldDefn("name", ogr.OFTString))
    for i in range(rows):
        feature = ogr.Feature(layer.GetLayerDefn())
        feature.SetField("name", f"road {i}")
        feature.SetGeometry(ogr.CreateGeometryFromWkt(f"POINT ({5 + i} 45)"))
        layer.CreateFeature(feature)
    source = None
    return path


def rows_on_disk(path: Path, table: str = "roads") -> int:
    source = ogr.Open(str(path))  # a fresh read of the file, not QGIS's cached layer
    count = source.GetLayerByName(table).GetFeatureCount()
    source = None
    return count


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Outside:
    """An outside MCP client on the in-process server: with no elicitation, or answering every question."""

    def __init__(self, server, answer: str | None = None):
        self.server, self.answer, self.asked = server, answer, []

    async def _elicit(self, _context, params):
        self.asked.append(params.message)
        if self.answer == "accept":
            return ElicitResult(action="accept", content={"confirm": True})
        return ElicitResult(action="decline")

    async def call(self, algorithm_id: str, parameters: dict, tool: str = "run_processing_algorithm"):
        kwargs = {"elicitation_callback": self._elicit} if self.answer else {}
        async with Client(self.server, **kwargs) as client:
            return await client.call_tool(tool, {"algorithm_id": algorithm_id, "parameters": parameters})


@pytest.fixture
async def world(qgis_iface, qgis_new_project, qgis_processing, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    roads = QgsVectorLayer(f"{write_gpkg(data / 'roads.gpkg')}|layername=roads", "roads", "ogr")
    assert roads.isValid()
    QgsProject.instance().addMapLayer(roads)
    QgsProject.instance().addMapLayer(city_layer())
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, None, str(tmp_path / "outputs"), qgis_iface)
        yield build_server(deps, extra_families=[family]), data, deps.output_dir()
    QgsProject.instance().removeAllMapLayers()


async def test_truncate_table_is_refused_without_an_ok_and_the_rows_stay_on_disk(world):
    server, data, _ = world
    gpkg = data / "roads.gpkg"
    refused = await Outside(server).call("native:truncatetable", {"INPUT": "roads"})
    assert refused.is_error and "cannot ask its user" in refused.content[0].text
    assert f"empties table 'roads' in file {gpkg}" in refused.content[0].text
    assert rows_on_disk(gpkg) == 3

    declining = Outside(server, "decline")
    declined = await declining.call("native:truncatetable", {"INPUT": "roads"})
    assert declined.is_error and "declined" in declined.content[0].text
    assert f"• empties table 'roads' in file {gpkg}" in declining.asked[0]
    assert "This cannot be undone." in declining.asked[0]
    assert rows_on_disk(gpkg) == 3

    done = await Outside(server, "accept").call("native:truncatetable", {"INPUT": "roads"})
    assert not done.is_error, done.content[0].text
    assert rows_on_disk(gpkg) == 0  # the gate asked; it did not just block the algorithm


async def test_execute_sql_on_the_file_is_refused_and_deletes_nothing(world):
    server, data, _ = world
    asking = Outside(server, "decline")
    result = await asking.call("native:spatialiteexecutesql", {"DATABASE": "roads", "SQL": "DELETE FROM roads"})
    assert result.is_error and rows_on_disk(data / "roads.gpkg") == 3
    assert f"runs SQL 'DELETE FROM roads' on the database file {data / 'roads.gpkg'}" in asking.asked[0]


async def test_spatial_index_on_a_shapefile_is_refused_and_no_index_file_appears(world):
    server, data, _ = world
    shp = data / "parcels.shp"
    gdal.VectorTranslate(str(shp), str(data / "roads.gpkg"), format="ESRI Shapefile")
    QgsProject.instance().addMapLayer(QgsVectorLayer(str(shp), "parcels", "ogr"))
    result = await Outside(server).call("native:createspatialindex", {"INPUT": "parcels"})
    assert result.is_error and f"adds a spatial index to 'parcels' in file {shp}" in result.content[0].text
    assert not shp.with_suffix(".qix").exists()


async def test_overviews_and_assign_projection_on_a_geotiff_are_refused_and_the_file_is_unchanged(world, tmp_path):
    server, data, _ = world
    dem = dem_layer(data)
    QgsProject.instance().addMapLayer(dem)
    tif = Path(dem.source())
    before = digest(tif)
    overviews = await Outside(server).call("gdal:overviews", {"INPUT": "dem", "LEVELS": "2 4"})
    assert overviews.is_error and f"builds overviews into (or next to) file {tif}" in overviews.content[0].text
    projection = await Outside(server).call("gdal:assignprojection", {"INPUT": "dem", "CRS": "EPSG:3857"})
    assert projection.is_error and f"rewrites the CRS recorded in file {tif}" in projection.content[0].text
    assert digest(tif) == before and not Path(f"{tif}.ovr").exists()
    assert gdal.Open(str(tif)).GetRasterBand(1).GetOverviewCount() == 0


async def test_new_outputs_in_the_plugins_folder_or_temporary_layers_run_without_a_question(world):
    server, _, outputs = world
    temporary = await Outside(server).call("native:buffer", {"INPUT": "cities", "DISTANCE": 0.1})
    assert not temporary.is_error, temporary.content[0].text
    target = outputs / "buffers.gpkg"
    saved = await Outside(server).call("native:buffer", {"INPUT": "cities", "DISTANCE": 0.1, "OUTPUT": str(target)})
    assert not saved.is_error, saved.content[0].text
    assert target.exists() and rows_on_disk(target, "buffers") == 5


async def test_an_existing_file_is_never_overwritten_without_an_ok(world, tmp_path_factory):
    server, data, outputs = world
    in_temp = tmp_path_factory.mktemp("system-temp") / "precious.gpkg"  # issue: temp files were fair game
    write_gpkg(in_temp)
    in_outputs = write_gpkg(outputs / "earlier.gpkg")
    kept = {p: digest(p) for p in (in_temp, in_outputs)}
    for target, words in ((in_temp, f"writes output OUTPUT to {in_temp}, outside the plugin's output folder"),
                          (in_outputs, f"overwrites the existing file {in_outputs}")):
        asking = Outside(server, "decline")
        result = await asking.call("native:buffer", {"INPUT": "cities", "DISTANCE": 0.1, "OUTPUT": str(target)})
        assert result.is_error and words in asking.asked[0]
    assert {p: digest(p) for p in kept} == kept


async def test_a_symlink_inside_the_output_folder_cannot_carry_an_output_elsewhere(world, tmp_path_factory):
    server, _, outputs = world
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (outputs / "shortcut").symlink_to(elsewhere, target_is_directory=True)
    given = outputs / "shortcut" / "escape.gpkg"
    asking = Outside(server, "decline")
    result = await asking.call("native:buffer", {"INPUT": "cities", "DISTANCE": 0.1, "OUTPUT": str(given)})
    assert result.is_error
    assert f"writes output OUTPUT to {elsewhere / 'escape.gpkg'} (given as {given})" in asking.asked[0]
    assert list(elsewhere.iterdir()) == []


async def test_the_question_lists_a_long_formula_call_in_full_with_its_output_path(world, tmp_path_factory):
    server, _, _ = world
    target = tmp_path_factory.mktemp("far") / ("a-rather-long-folder-name-" * 6) / "cities-with-score.gpkg"
    target.parent.mkdir()
    formula = " + ".join(f"\"population\" * {i}" for i in range(60))  # far over the old 300-character cut
    asking = Outside(server, "decline")
    await asking.call("native:fieldcalculator", {"INPUT": "cities", "FIELD_NAME": "score", "FORMULA": formula,
                                                 "OUTPUT": str(target)})
    assert str(target) in asking.asked[0]
    assert not target.exists()


async def test_the_destructive_files_tool_writes_after_an_ok(world, tmp_path_factory):
    server, _, _ = world
    target = tmp_path_factory.mktemp("kept") / "buffers.gpkg"
    asking = Outside(server, "accept")
    saved = await asking.call("native:buffer", {"INPUT": "cities", "DISTANCE": 0.1, "OUTPUT": str(target)},
                              tool="run_processing_algorithm_to_files")
    assert not saved.is_error, saved.content[0].text
    assert len(asking.asked) == 1 and target.exists() and rows_on_disk(target, "buffers") == 5

