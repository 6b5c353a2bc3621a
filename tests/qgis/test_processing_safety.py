"""Processing is safe on every path (issue 14 items 1–4): a call is judged on its actual parameters, so
the "write" tool still waits for the user's OK when the algorithm edits a file in place, writes outside
the plugin's output folder, overwrites a file or escapes through a symlink. Real algorithms, real files:
after a refused call the file on disk is unchanged."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from mcp import Client
from mcp_types import ElicitResult
from osgeo import gdal, ogr
from qgis.core import QgsApplication, QgsProject, QgsVectorLayer

from stacgis_agent.tools.canvas import family
from stacgis_agent.tools.server import build_server
from testkit.qgis_drivers.canvas_layers import city_layer, dem_layer
from testkit.servers.canvas_servers import canvas_deps

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
                                           "parameters": {"INPUT": "cities", "DISTANCE": 0.1, "OUTPUT": str(target)}})
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
        QgsApplication,
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


async def test_approved_in_place_algorithms_run_on_the_main_thread_as_qgis_runs_them(world, qgis_iface):
    """truncate table and spatial index declare NoThreading: run in a worker while the map draws the
    layer, they crashed QGIS (2 of 7 runs). They run on the main thread, as QGIS's own dialog does."""
    from stacgis_agent.tools.canvas.processing_tools import _needs_main_thread

    registry = QgsApplication.processingRegistry()
    assert _needs_main_thread(registry.algorithmById("native:truncatetable"))
    assert _needs_main_thread(registry.algorithmById("native:createspatialindex"))
    assert not _needs_main_thread(registry.algorithmById("native:buffer"))

    server, data, _ = world
    canvas = qgis_iface.mapCanvas()
    roads = QgsProject.instance().mapLayersByName("roads")[0]
    canvas.setLayers([roads])
    canvas.setExtent(roads.extent())
    for _ in range(3):  # the map keeps drawing the layer while it is emptied
        canvas.refresh()
        done = await Outside(server, "accept").call("native:truncatetable", {"INPUT": "roads"})
        assert not done.is_error, done.content[0].text
    assert rows_on_disk(data / "roads.gpkg") == 0


async def test_background_algorithms_run_while_the_map_keeps_redrawing(world, qgis_iface):
    """Background algorithms while the canvas redraws all the while: each output still reaches the map.
    The crash this once showed (1 run in 4) is covered by the stress test below, in child processes."""
    from qgis.PyQt.QtCore import QTimer

    server, _, outputs = world
    canvas = qgis_iface.mapCanvas()
    qgis_iface.mainWindow().show()  # a hidden canvas does not draw
    canvas.setLayers(list(QgsProject.instance().mapLayers().values()))
    canvas.setExtent(canvas.fullExtent())
    redraw = QTimer()
    redraw.timeout.connect(canvas.refresh)
    redraw.start(1)
    try:
        for n in range(12):
            result = await Outside(server).call("native:buffer", {"INPUT": "cities", "DISTANCE": 0.01 * (n + 1)})
            assert not result.is_error, result.content[0].text
    finally:
        redraw.stop()
    added = [lyr for lyr in QgsProject.instance().mapLayers().values() if lyr.name() not in ("roads", "cities")]
    assert len(added) == 12, [lyr.name() for lyr in added]


def _stress_run(algorithms: int) -> subprocess.CompletedProcess:
    child = Path(__file__).resolve().parents[1] / "testkit" / "qgis_drivers" / "processing_stress.py"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, str(child), str(algorithms)], capture_output=True, text=True,
                          timeout=300, env=env)


def test_background_algorithms_beside_a_redrawing_map_and_changing_layers_never_crash_qgis():
    """Issue 24: 30 background algorithms (GeoPackage and memory-layer buffers, a hillshade) while the map
    redraws every 20 ms and layers are added and removed crashed QGIS 8 runs in 20 (SIGSEGV on the GUI
    thread in QgsProject::createExpressionContextScope). Each run is its own process, so a crash is a
    failed assertion here, not a dead test session; scripts/stress_processing.py runs it 50 times."""
    for run in range(4):
        done = _stress_run(30)
        assert done.returncode == 0 and "STRESS OK 30" in done.stdout, \
            f"run {run + 1}: exit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"


async def test_a_background_algorithm_sees_neither_the_live_project_nor_its_layers(world, tmp_path):
    """The worker gets a context without the project and inputs of its own: the GeoPackage reopened from
    its source, the memory layer as a copy; the layers on the map are never read from the worker."""
    from qgis.core import (
        QgsProcessingAlgorithm,
        QgsProcessingParameterFeatureSink,
        QgsProcessingParameterVectorLayer,
        QgsProcessingProvider,
    )
    from qgis.PyQt.QtCore import QThread

    seen = []

    class Probe(QgsProcessingAlgorithm):
        def name(self):
            return "probe"

        def displayName(self):  # noqa: N802
            return "Probe"

        def createInstance(self):  # noqa: N802
            return Probe()

        def initAlgorithm(self, config=None):  # noqa: N802
            self.addParameter(QgsProcessingParameterVectorLayer("INPUT", "Input"))
            self.addParameter(QgsProcessingParameterFeatureSink("OUTPUT", "Output"))

        def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
            layer = self.parameterAsVectorLayer(parameters, "INPUT", context)
            seen.append({"project": context.project(), "layer": layer.id(), "features": layer.featureCount(),
                         "worker": QThread.currentThread() != QgsApplication.instance().thread()})
            return {}

    class Provider(QgsProcessingProvider):
        def id(self):
            return "probes"

        def name(self):
            return "Probes"

        def loadAlgorithms(self):  # noqa: N802
            self.addAlgorithm(Probe())

    provider = Provider()
    assert QgsApplication.processingRegistry().addProvider(provider)
    server, _, _ = world
    try:
        for name in ("roads", "cities"):
            done = await Outside(server, "accept").call("probes:probe", {"INPUT": name})
            assert not done.is_error, done.content[0].text
    finally:
        QgsApplication.processingRegistry().removeProvider(provider)
    on_map = set(QgsProject.instance().mapLayers())
    assert [s["worker"] for s in seen] == [True, True]
    assert [s["project"] for s in seen] == [None, None]
    assert not {s["layer"] for s in seen} & on_map
    assert [s["features"] for s in seen] == [3, 5]  # the same features the user sees


async def test_unsaved_edits_reach_the_algorithm_through_its_copy(world):
    server, data, _ = world
    roads = QgsProject.instance().mapLayersByName("roads")[0]
    assert roads.startEditing()
    feature = next(roads.getFeatures())
    feature.setId(-1)
    assert roads.addFeature(feature)  # not saved: only this QGIS has it
    try:
        done = await Outside(server).call("native:buffer", {"INPUT": "roads", "DISTANCE": 0.1})
    finally:
        roads.rollBack()
    assert not done.is_error, done.content[0].text
    assert done.structured_content["layers"][0]["features"] == 4
    assert rows_on_disk(data / "roads.gpkg") == 3


async def test_a_memory_layer_too_big_to_copy_is_refused_with_what_to_do(world, monkeypatch):
    from stacgis_agent.tools.canvas import processing_inputs

    monkeypatch.setattr(processing_inputs, "COPY_LIMIT", 4)  # the cities layer has 5 features
    server, _, _ = world
    refused = await Outside(server).call("native:buffer", {"INPUT": "cities", "DISTANCE": 0.1})
    assert refused.is_error
    assert "Layer 'cities' is a memory layer with 5 features" in refused.content[0].text
    assert "Save the layer to a file" in refused.content[0].text
    assert sorted(lyr.name() for lyr in QgsProject.instance().mapLayers().values()) == ["cities", "roads"]
