"""Processing is safe on every path (issue 14 items 1–4): a call is judged on its actual parameters, so
the "write" tool still waits for the user's OK when the algorithm edits a file in place, writes outside
the plugin's output folder, overwrites a file or escapes through a symlink. Real algorithms, real files:
after a refused call the file on disk is unchanged."""

from __future__ import annotations

from pathlib import Path

from mcp import Client
from osgeo import gdal, ogr
from qgis.core import QgsApplication, QgsProject, QgsVectorLayer

from testkit.qgis_drivers import processing_world
from testkit.qgis_drivers.canvas_layers import dem_layer
from testkit.qgis_drivers.processing_world import Outside
from testkit.worlds.gpkg_files import digest, rows_on_disk, write_gpkg

ogr.UseExceptions()


world = processing_world.world  # the fixture: a roads GeoPackage and a city layer, the server over them


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


async def test_sql_on_a_postgresql_connection_waits_for_the_ok(world):
    server, _, _ = world
    sql = await Outside(server).call("native:postgisexecutesql", {"DATABASE": "team-db", "SQL": "DROP TABLE parcels"})
    assert sql.is_error and "runs SQL 'DROP TABLE parcels' on the PostgreSQL connection 'team-db'" in sql.content[0].text


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
    temporary = await Outside(server).call("native:buffer", {"INPUT": "cities", "DISTANCE": "0.1 deg"})
    assert not temporary.is_error, temporary.content[0].text
    target = outputs / "buffers.gpkg"
    saved = await Outside(server).call("native:buffer", {"INPUT": "cities", "DISTANCE": "0.1 deg", "OUTPUT": str(target)})
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
        result = await asking.call("native:buffer", {"INPUT": "cities", "DISTANCE": "0.1 deg", "OUTPUT": str(target)})
        assert result.is_error and words in asking.asked[0]
    assert {p: digest(p) for p in kept} == kept


async def test_a_symlink_inside_the_output_folder_cannot_carry_an_output_elsewhere(world, tmp_path_factory):
    server, _, outputs = world
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (outputs / "shortcut").symlink_to(elsewhere, target_is_directory=True)
    given = outputs / "shortcut" / "escape.gpkg"
    asking = Outside(server, "decline")
    result = await asking.call("native:buffer", {"INPUT": "cities", "DISTANCE": "0.1 deg", "OUTPUT": str(given)})
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
    saved = await asking.call("native:buffer", {"INPUT": "cities", "DISTANCE": "0.1 deg", "OUTPUT": str(target)},
                              tool="run_processing_algorithm_to_files")
    assert not saved.is_error, saved.content[0].text
    assert len(asking.asked) == 1 and target.exists() and rows_on_disk(target, "buffers") == 5



async def test_add_result_layer_follows_symlinks_before_deciding_and_says_nothing_about_outside_files(
        world, tmp_path_factory):
    server, data, outputs = world
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    secret = dem_layer(elsewhere, "secret").source()
    (outputs / "link.tif").symlink_to(secret)
    (outputs / "folder").symlink_to(elsewhere, target_is_directory=True)
    answers = []
    for path in (outputs / "link.tif", outputs / "folder" / "secret.tif", elsewhere / "missing.tif"):
        async with Client(server) as client:
            result = await client.call_tool("add_result_layer", {"path": str(path)})
        assert result.is_error
        answers.append(result.content[0].text)
    assert len(set(answers)) == 1 and "only adds files that tools wrote to" in answers[0]
    assert sorted(lyr.name() for lyr in QgsProject.instance().mapLayers().values()) == ["cities", "roads"]


async def test_the_dock_asks_again_when_an_earlier_call_of_the_step_made_a_later_one_destructive(world):
    from stacgis_agent.agent.events import AskUser
    from stacgis_agent.agent.llm.ollama import OllamaProvider
    from stacgis_agent.agent.loop import AgentLoop
    from stacgis_agent.agent.map_context import LayerInfo, MapContext
    from testkit.llm.agent_harness import settings
    from testkit.llm.ollama_emulator import OllamaEmulator, Turn

    server, _, outputs = world
    target = outputs / "buffers.gpkg"
    buffer = ("run_processing_algorithm", {"algorithm_id": "native:buffer",
                                           "parameters": {"INPUT": "cities", "DISTANCE": "0.1 deg", "OUTPUT": str(target)}})
    with OllamaEmulator() as emu:
        # one step: the first buffer makes a new file (no question); the second would overwrite it
        emu.script(Turn(tool_calls=[buffer, buffer]), Turn(content="Done."))
        provider = OllamaProvider(emu.url, "qwen3:8b")
        loop = AgentLoop(provider, server, settings(ollama_url=emu.url))
        asked = []
        try:
            context = MapContext(layers=(LayerInfo("cities", "vector", geometry="Point"),))
            async for event in loop.run("Buffer the cities into a file, twice", context):
                if isinstance(event, AskUser):
                    asked.append(event)
                    loop.answer(event.request_id, "No")
        finally:
            await loop.aclose()
            await provider.aclose()
    assert len(asked) == 1 and f"overwrites the existing file {target}" in "\n".join(asked[0].details)
    assert rows_on_disk(target, "buffers") == 5  # the first run's file, untouched by the refused second


async def test_an_algorithm_from_another_provider_is_unknown_and_waits_for_the_ok(world, tmp_path):
    from qgis.core import (
        QgsProcessingAlgorithm,
        QgsProcessingParameterFeatureSink,
        QgsProcessingParameterFeatureSource,
        QgsProcessingProvider,
    )

    touched = tmp_path / "touched"

    class Plugin(QgsProcessingAlgorithm):  # what a third-party plugin may do besides its declared output
        def name(self):
            return "copy"

        def displayName(self):  # noqa: N802
            return "Copy"

        def createInstance(self):  # noqa: N802
            return Plugin()

        def initAlgorithm(self, config=None):  # noqa: N802
            self.addParameter(QgsProcessingParameterFeatureSource("INPUT", "Input"))
            self.addParameter(QgsProcessingParameterFeatureSink("OUTPUT", "Output"))

        def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
            touched.write_text("side effect")
            return {}

    class Provider(QgsProcessingProvider):
        def id(self):
            return "thirdparty"

        def name(self):
            return "Third party"

        def loadAlgorithms(self):  # noqa: N802
            self.addAlgorithm(Plugin())

    provider = Provider()
    assert QgsApplication.processingRegistry().addProvider(provider)
    try:
        server, _, _ = world
        result = await Outside(server).call("thirdparty:copy", {"INPUT": "cities"})
    finally:
        QgsApplication.processingRegistry().removeProvider(provider)
    assert result.is_error
    assert "runs thirdparty:copy from provider 'thirdparty', whose effects on files cannot be checked" in \
        result.content[0].text
    assert not touched.exists()
