"""One stress run, in its own process: background Processing algorithms through the real MCP tool while the
map redraws every 20 ms and layers come and go, as an analyst keeps working during a long analysis.

    QT_QPA_PLATFORM=offscreen python tests/testkit/qgis_drivers/processing_stress.py [ALGORITHMS] [CHURN]

CHURN is what happens to the project meanwhile: `add-remove` (default: a layer added and an older one
removed every 25 ms), `add` (added only) or `none` (the map only redraws).

Exits 0 and prints `STRESS OK <n>` when every algorithm finished and its layer reached the map; a crash of
QGIS is the process dying (exit 139, SIGSEGV), which is why the caller (scripts/stress_processing.py, the
qgis tier) runs this file in a child process. Runs three algorithms at a time: buffers of a GeoPackage
layer, buffers of a memory layer, and a hillshade of a GeoTIFF.
"""

from __future__ import annotations

import asyncio
import importlib.util
import sys
import tempfile
from pathlib import Path

TESTS = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("stacgis_tests_conftest", TESTS / "conftest.py")
spec.loader.exec_module(importlib.util.module_from_spec(spec))  # puts stacgis_agent and testkit on sys.path

REDRAW_MS = 20
CHURN_MS = 25
AT_ONCE = 3


def start_qgis():
    from pytest_qgis.mock_qgis_classes import MockMessageBar
    from pytest_qgis.qgis_interface import QgisInterface
    from qgis.core import QgsApplication
    from qgis.gui import QgsMapCanvas
    from qgis.PyQt.QtWidgets import QMainWindow

    app = QgsApplication([], True)
    app.initQgis()
    from testkit.qgis_drivers.processing_framework import start_processing

    start_processing()  # QGIS's Processing framework, as in the desktop app
    window = QMainWindow()
    canvas = QgsMapCanvas(window)
    window.setCentralWidget(canvas)
    window.resize(600, 400)
    window.show()  # a hidden canvas does not draw
    return app, window, QgisInterface(canvas, MockMessageBar(), window)


def grid_gpkg(path: Path, side: int = 40) -> Path:
    """side² points in a GeoPackage: enough features that a buffer runs while the map draws."""
    from qgis.core import (
        QgsCoordinateReferenceSystem,
        QgsCoordinateTransformContext,
        QgsFeature,
        QgsField,
        QgsFields,
        QgsGeometry,
        QgsPointXY,
        QgsVectorFileWriter,
        QgsWkbTypes,
    )
    from qgis.PyQt.QtCore import QVariant

    fields = QgsFields()
    fields.append(QgsField("n", QVariant.Int))
    options = QgsVectorFileWriter.SaveVectorOptions()
    options.driverName, options.layerName = "GPKG", "grid"
    writer = QgsVectorFileWriter.create(str(path), fields, QgsWkbTypes.Point, QgsCoordinateReferenceSystem("EPSG:4326"),
                                        QgsCoordinateTransformContext(), options)
    for i in range(side * side):
        feature = QgsFeature(fields)
        feature.setAttributes([i])
        feature.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(5 + (i % side) * 0.01, 45 + (i // side) * 0.01)))
        writer.addFeature(feature)
    del writer
    return path


def memory_grid(name: str, side: int = 30):
    from qgis.core import QgsFeature, QgsGeometry, QgsPointXY, QgsVectorLayer

    layer = QgsVectorLayer("Point?crs=EPSG:4326&field=n:integer", name, "memory")
    features = []
    for i in range(side * side):
        feature = QgsFeature(layer.fields())
        feature.setAttributes([i])
        feature.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(5.2 + (i % side) * 0.01, 45.2 + (i // side) * 0.01)))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    layer.updateExtents()
    return layer


class Churn:
    """What the analyst does meanwhile: the map redraws every 20 ms, a layer is added and another removed every 25 ms."""

    def __init__(self, canvas, project, mode: str) -> None:
        from qgis.PyQt.QtCore import QTimer

        self.canvas, self.project, self.mode, self.added, self.count = canvas, project, mode, [], 0
        self.redraw, self.layers = QTimer(), QTimer()
        self.redraw.timeout.connect(canvas.refresh)
        self.layers.timeout.connect(self.step)

    def step(self) -> None:
        from testkit.qgis_drivers.canvas_layers import city_layer

        self.count += 1
        layer = city_layer(f"scratch {self.count}")
        self.project.addMapLayer(layer)
        self.added.append(layer.id())
        if self.mode == "add-remove" and len(self.added) > 3:
            self.project.removeMapLayer(self.added.pop(0))
        self.canvas.setLayers([lyr for lyr in self.project.mapLayers().values()])

    def __enter__(self):
        self.redraw.start(REDRAW_MS)
        if self.mode != "none":
            self.layers.start(CHURN_MS)
        return self

    def __exit__(self, *_exc) -> None:
        self.redraw.stop()
        self.layers.stop()


def calls(algorithms: int) -> list[tuple[str, dict]]:
    kinds = [("native:buffer", lambda n: {"INPUT": "grid", "DISTANCE": f"{0.002 + 0.0001 * n:.4f} deg", "SEGMENTS": 16}),
             ("native:buffer", lambda n: {"INPUT": "memory grid", "DISTANCE": f"{0.002 + 0.0001 * n:.4f} deg", "SEGMENTS": 16}),
             ("native:hillshade", lambda n: {"INPUT": "dem", "Z_FACTOR": 1.0 + n})]
    return [(kinds[n % len(kinds)][0], kinds[n % len(kinds)][1](n)) for n in range(algorithms)]


async def run_all(server, algorithms: int) -> int:
    from mcp import Client

    async def one(algorithm_id: str, parameters: dict) -> None:
        async with Client(server) as client:
            result = await client.call_tool("run_processing_algorithm",
                                            {"algorithm_id": algorithm_id, "parameters": parameters})
        if result.is_error:
            raise AssertionError(f"{algorithm_id} failed: {result.content[0].text}")

    todo = calls(algorithms)
    for start in range(0, len(todo), AT_ONCE):
        await asyncio.gather(*(one(a, p) for a, p in todo[start:start + AT_ONCE]))
    return len(todo)


async def stress(iface, work: Path, algorithms: int, churn_mode: str) -> int:
    import httpx
    from qgis.core import QgsProject, QgsVectorLayer

    from stacgis_agent.tools.server import build_server
    from testkit.qgis_drivers.canvas_layers import dem_layer
    from testkit.servers.canvas_servers import canvas_deps

    project = QgsProject.instance()
    grid = QgsVectorLayer(f"{grid_gpkg(work / 'grid.gpkg')}|layername=grid", "grid", "ogr")
    for layer in (grid, memory_grid("memory grid"), dem_layer(work)):
        assert layer.isValid(), layer.name()
        project.addMapLayer(layer)
    canvas = iface.mapCanvas()
    canvas.setLayers(list(project.mapLayers().values()))
    canvas.setExtent(canvas.fullExtent())
    before = set(project.mapLayers())
    async with httpx.AsyncClient() as http:
        server = build_server(canvas_deps(http, None, str(work / "outputs"), iface), canvas=True)
        with Churn(canvas, project, churn_mode) as churn:
            done = await run_all(server, algorithms)
    results = [lyr for lid, lyr in project.mapLayers().items() if lid not in before and lid not in churn.added]
    if len(results) != done:
        raise AssertionError(f"{done} algorithms ran but {len(results)} result layers reached the map")
    return done


def main() -> int:
    algorithms = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    churn_mode = sys.argv[2] if len(sys.argv) > 2 else "add-remove"
    app, window, iface = start_qgis()
    from qgis.core import QgsProject

    with tempfile.TemporaryDirectory() as folder:
        try:
            done = asyncio.run(stress(iface, Path(folder), algorithms, churn_mode))
        finally:
            QgsProject.instance().removeAllMapLayers()  # QGIS can crash at exit while layers are registered
    print("STRESS OK", done, flush=True)
    iface.mapCanvas().setLayers([])
    window.close()
    del iface, window
    app.processEvents()
    app.exitQgis()
    return 0


if __name__ == "__main__":
    sys.exit(main())
