"""Processing beside the live canvas (issue 14 item 5): algorithms flagged NoThreading run on the GUI thread
as QGIS runs them; the others run on QGIS's task manager with a context that holds no project, so they
never touch the layers the GUI thread is adding, deleting and drawing. The stress run (scripts/
stress_processing.py, short form here) must never crash QGIS."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from osgeo import ogr
from qgis.core import QgsApplication, QgsProject

from testkit.qgis_drivers import processing_world
from testkit.qgis_drivers.processing_world import Outside
from testkit.worlds.gpkg_files import rows_on_disk

ogr.UseExceptions()


world = processing_world.world  # the fixture: a roads GeoPackage and a city layer, the server over them


async def test_approved_in_place_algorithms_run_on_the_main_thread_as_qgis_runs_them(world, qgis_iface):
    """truncate table and spatial index declare NoThreading: run in a worker while the map draws the
    layer, they crashed QGIS (2 of 7 runs). They run on the main thread, as QGIS's own dialog does."""
    from stacgis_agent.tools.canvas.processing.tools import _needs_main_thread

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
            result = await Outside(server).call("native:buffer", {"INPUT": "cities", "DISTANCE": f"{0.01 * (n + 1):.2f} deg"})
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
        done = await Outside(server).call("native:buffer", {"INPUT": "roads", "DISTANCE": "0.1 deg"})
    finally:
        roads.rollBack()
    assert not done.is_error, done.content[0].text
    assert done.structured_content["layers"][0]["features"] == 4
    assert rows_on_disk(data / "roads.gpkg") == 3


async def test_a_memory_layer_too_big_to_copy_is_refused_with_what_to_do(world, monkeypatch):
    from stacgis_agent.tools.canvas.processing import inputs as processing_inputs

    monkeypatch.setattr(processing_inputs, "COPY_LIMIT", 4)  # the cities layer has 5 features
    server, _, _ = world
    refused = await Outside(server).call("native:buffer", {"INPUT": "cities", "DISTANCE": "0.1 deg"})
    assert refused.is_error
    assert "Layer 'cities' is a memory layer with 5 features" in refused.content[0].text
    assert "Save the layer to a file" in refused.content[0].text
    assert sorted(lyr.name() for lyr in QgsProject.instance().mapLayers().values()) == ["cities", "roads"]
