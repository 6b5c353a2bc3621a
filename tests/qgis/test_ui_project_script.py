"""The exported PyQGIS script rebuilds the map the analyst sees: run standalone (a subprocess writing a
project) and in the QGIS console (the running QGIS), the fresh project has the same groups, layers,
sources, CRS, renderers (paletted, pseudocolor, RGB, outline-only footprints), in-memory features and view."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from qgis.core import (
    QgsApplication,
    QgsColorRampShader,
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsFillSymbol,
    QgsGeometry,
    QgsPalettedRasterRenderer,
    QgsPointXY,
    QgsProject,
    QgsRasterLayer,
    QgsRasterShader,
    QgsRectangle,
    QgsSingleBandPseudoColorRenderer,
    QgsSingleSymbolRenderer,
    QgsVectorLayer,
)
from qgis.PyQt.QtGui import QColor

from stacgis_agent.ui.project_script import project_to_pyqgis
from testkit.qgis_drivers.map_snapshot import map_snapshot, same_extent
from testkit.qgis_drivers.qgis_console import QgisConsole, window_bridge

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo_catalog" / "collections"
RGB = DEMO / "demo-rgb" / "items" / "demo-rgb-2025-06-15.tif"
NDVI = DEMO / "demo-ndvi" / "items" / "demo-ndvi-2025-06-15.tif"
DEM = DEMO / "demo-elevation" / "items" / "demo-elevation-lyon.tif"
VIEW = QgsRectangle(640000.0, 5062000.0, 646000.0, 5068000.0)  # central Lyon in UTM 31N


def _footprints(tmp_path: Path) -> QgsVectorLayer:
    path = tmp_path / "footprints.geojson"
    ring = [[4.80, 45.73], [4.87, 45.73], [4.87, 45.78], [4.80, 45.78], [4.80, 45.73]]
    path.write_text(json.dumps({"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"id": "demo-rgb-2025-06-15"},
         "geometry": {"type": "Polygon", "coordinates": [ring]}}]}))
    layer = QgsVectorLayer(str(path), "footprints", "ogr")
    symbol = QgsFillSymbol.createSimple({"style": "no", "outline_color": "255,0,0", "outline_width": "0.6"})
    layer.setRenderer(QgsSingleSymbolRenderer(symbol))
    return layer


def _pseudocolor(layer: QgsRasterLayer) -> None:
    ramp = QgsColorRampShader(-0.2, 0.9)
    ramp.setColorRampType(QgsColorRampShader.Type.Interpolated)
    ramp.setColorRampItemList([QgsColorRampShader.ColorRampItem(-0.2, QColor("#a50026"), "bare"),
                               QgsColorRampShader.ColorRampItem(0.9, QColor("#006837"), "green")])
    shader = QgsRasterShader()
    shader.setRasterShaderFunction(ramp)
    layer.setRenderer(QgsSingleBandPseudoColorRenderer(layer.dataProvider(), 1, shader))


def _paletted(layer: QgsRasterLayer) -> None:
    classes = [QgsPalettedRasterRenderer.Class(v, QColor(c), label)
               for v, c, label in ((150, "#1a9850", "low"), (200, "#fee08b", "mid"), (250, "#d73027", "high"))]
    layer.setRenderer(QgsPalettedRasterRenderer(layer.dataProvider(), 1, classes))


def _points() -> QgsVectorLayer:
    layer = QgsVectorLayer("Point?crs=EPSG:4326&field=name:string&field=area:double", "parcels (memory)", "memory")
    features = []
    for name, lon, lat, area in (("Bellecour", 4.832, 45.757, 6.2), ("Tête d'Or", 4.852, 45.777, 117.0)):
        f = QgsFeature(layer.fields())
        f.setAttributes([name, area])
        f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(lon, lat)))
        features.append(f)
    layer.dataProvider().addFeatures(features)
    return layer


@pytest.fixture
def analyst_map(qgis_new_project, qgis_iface, tmp_path):
    """A map as an analyst leaves it: a collapsed group with two styled rasters, a hidden DEM, outline
    footprints, an in-memory layer, the project in UTM 31N and the view on central Lyon."""
    project = QgsProject.instance()
    project.setCrs(QgsCoordinateReferenceSystem("EPSG:32631"))
    root = project.layerTreeRoot()
    june = root.addGroup("June 2025")
    rgb, ndvi = QgsRasterLayer(str(RGB), "true colour", "gdal"), QgsRasterLayer(str(NDVI), "NDVI", "gdal")
    dem = QgsRasterLayer(str(DEM), "elevation", "gdal")
    _pseudocolor(ndvi)
    _paletted(dem)
    # a CRS QGIS has no id for, set over the file's own (as when a catalog's proj:wkt2 wins)
    dem.setCrs(QgsCoordinateReferenceSystem.fromProj("+proj=lcc +lat_1=45 +lat_2=46 +lat_0=45.5 +lon_0=4.8 "
                                                     "+x_0=700000 +y_0=6600000 +datum=WGS84 +units=m +no_defs"))
    assert dem.crs().authid() == ""
    for layer, group in ((ndvi, june), (rgb, june), (dem, root), (_footprints(tmp_path), root), (_points(), root)):
        assert layer.isValid(), layer.name()
        project.addMapLayer(layer, False)
        group.addLayer(layer)
    june.setExpanded(False)
    root.findLayer(dem.id()).setItemVisibilityChecked(False)
    canvas = qgis_iface.mapCanvas()
    canvas.setDestinationCrs(project.crs())
    canvas.setExtent(VIEW)
    return project


def test_standalone_run_writes_a_project_equal_to_the_map(analyst_map, qgis_iface, tmp_path):
    expected, view = map_snapshot(analyst_map), qgis_iface.mapCanvas().extent()
    assert [n[1] for n in expected["tree"]] == ["June 2025", "elevation", "footprints", "parcels (memory)"]
    script = tmp_path / "lyon map.py"
    script.write_text(project_to_pyqgis("Lyon — June NDVI", analyst_map, qgis_iface.mapCanvas()), encoding="utf-8")
    out = tmp_path / "rebuilt.qgz"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    run = subprocess.run([sys.executable, str(script), str(out)], capture_output=True, text=True, timeout=120,
                         env=env, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    assert f"Wrote {out}" in run.stdout

    fresh = QgsProject()
    assert fresh.read(str(out))
    try:
        assert map_snapshot(fresh) == expected
        kept = fresh.mapLayersByName("parcels (memory)")[0]  # a saved project cannot hold in-memory features
        assert kept.source() == f"{tmp_path / 'rebuilt_layers.gpkg'}|layername=parcels (memory)"
        rebuilt_view = fresh.viewSettings().defaultViewExtent()
        assert rebuilt_view.crs().authid() == "EPSG:32631" and same_extent(rebuilt_view, view)
    finally:
        fresh.clear()


def test_console_run_rebuilds_the_map_in_the_running_qgis_and_keeps_the_view(analyst_map, qgis_iface, tmp_path):
    """In the QGIS window the layer-tree bridge zooms to the first layers of an empty project, from the event
    loop, after the script has run: the saved view must still be the one shown."""
    canvas = qgis_iface.mapCanvas()
    expected, view = map_snapshot(analyst_map), canvas.extent()
    script = tmp_path / "lyon map.py"
    script.write_text(project_to_pyqgis("Lyon", analyst_map, canvas), encoding="utf-8")
    analyst_map.clear()  # a fresh project in the same QGIS
    canvas.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    canvas.setExtent(QgsRectangle(-10, 40, 10, 50))
    assert map_snapshot(QgsProject.instance())["tree"] == []

    with window_bridge(qgis_iface) as bridge:
        console = QgisConsole()
        console.run_editor_file(script)
        for _ in range(5):
            QgsApplication.processEvents()  # the bridge's deferred update runs here
        assert console.errors == []
        assert bridge.autoSetupOnFirstLayer()  # left as the analyst had it
        assert len(canvas.layers()) == 4  # the visible layers reached the map

    assert map_snapshot(QgsProject.instance()) == expected
    assert canvas.mapSettings().destinationCrs().authid() == "EPSG:32631"
    shown = canvas.extent()  # the canvas widens the view to its own shape, no more
    assert shown.contains(view.buffered(-1)) and shown.area() < 4 * view.area(), shown.toString(0)


def test_a_source_that_is_gone_is_reported_and_the_rest_is_rebuilt(analyst_map, qgis_iface, tmp_path):
    gone = QgsRasterLayer(str(tmp_path / "temporary.tif"), "deleted result", "gdal")
    assert not gone.isValid()
    copy = tmp_path / "dem-copy.tif"
    copy.write_bytes(DEM.read_bytes())
    layer = QgsRasterLayer(str(copy), "result", "gdal")
    analyst_map.addMapLayer(layer)
    script = project_to_pyqgis("Lyon", analyst_map, qgis_iface.mapCanvas())
    copy.unlink()
    path = tmp_path / "map.py"
    path.write_text(script, encoding="utf-8")
    run = subprocess.run([sys.executable, str(path), str(tmp_path / "out.qgz")], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Could not open layer 'result'" in run.stdout
    fresh = QgsProject()
    assert fresh.read(str(tmp_path / "out.qgz"))
    assert sorted(lay.name() for lay in fresh.mapLayers().values()) == [
        "NDVI", "elevation", "footprints", "parcels (memory)", "true colour"]
    fresh.clear()


def test_exported_from_a_german_dock_its_comments_are_german_and_its_program_the_same(analyst_map, qgis_iface):
    entries = {m.findtext("source"): m.findtext("translation") for m in ET.parse(
        Path(__file__).resolve().parents[2] / "i18n" / "stacgis_agent_de.ts").getroot().iter("message")}
    english = project_to_pyqgis("Lyon", analyst_map, qgis_iface.mapCanvas())
    german = project_to_pyqgis("Lyon", analyst_map, qgis_iface.mapCanvas(), tr=lambda text: entries.get(text) or text)
    assert german.startswith("# Baut die QGIS-Karte einer Unterhaltung mit STAC GIS Agent")
    assert "Erweiterungen > Python-Konsole > Editor anzeigen" in german and "# Die Karte als JSON" in german
    assert "Rebuilds the QGIS map" not in german and "How to run it" not in german
    assert german.isascii()  # as the English one: the QGIS console reads it in the system's encoding

    def program(text: str) -> str:  # the code, without the docstring, comments and export time
        tree = ast.parse(re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d", "T", text))
        if isinstance(tree.body[0], ast.Expr):
            tree.body.pop(0)
        return ast.dump(tree)

    assert program(german) == program(english)
