"""The exported map script holds text from a model, a catalog and the analyst (the conversation title,
layer names, sources, attribute values) only as data: run standalone or in the QGIS console, hostile text
runs no code (a marker file never appears) and the map comes back with exactly those names."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsGeometry,
    QgsPointXY,
    QgsProject,
    QgsRasterLayer,
    QgsVectorLayer,
)

from stacgis_agent.ui.project_script import project_to_pyqgis
from testkit.qgis_drivers.map_snapshot import map_snapshot
from testkit.qgis_drivers.qgis_console import QgisConsole

NDVI = Path(__file__).resolve().parents[2] / "resources/demo_catalog/collections/demo-ndvi/items/demo-ndvi-2025-06-15.tif"


def _code(marker: Path) -> str:
    return f"__import__('os').system('touch {marker}')"


def _titles(marker: Path) -> list[str]:
    code = _code(marker)
    return [f'"";{code};y=""',  # the attack found: closes the docstring's quote, runs, reopens
            'Lyon NDVI ""',  # a title ending in "" once ended the docstring early: SyntaxError
            f'x """\n{code}\n"""',
            f"a \\ b \\\"\"\" @MAP@ @STYLES@ @TITLE@ @WHEN@ @COUNT@\r\n# {code}",
            f"'''\n{code}\n'''"]


def _hostile_name(marker: Path) -> str:
    return f'"""; {_code(marker)} # @MAP@ @STYLES@ \\ \'q\' Tête'


@pytest.fixture
def hostile_map(qgis_new_project, qgis_iface, tmp_path):
    """A raster whose file path, name and a memory layer whose name and attribute values are hostile text,
    with NaN and infinities among the numbers."""
    marker = tmp_path / "PWNED"
    project = QgsProject.instance()
    project.setCrs(QgsCoordinateReferenceSystem("EPSG:32631"))
    folder = tmp_path / 'cat"alog @MAP@ \'s """ \\ dir'
    folder.mkdir()
    raster_path = folder / "ndvi @STYLES@.tif"
    raster_path.write_bytes(NDVI.read_bytes())
    raster = QgsRasterLayer(str(raster_path), _hostile_name(marker), "gdal")
    points = QgsVectorLayer("Point?crs=EPSG:4326&field=name:string&field=value:double", "points " +
                            _hostile_name(marker).replace('"""', "'''"), "memory")
    rows = (("@MAP@", math.nan), (f'""" {_code(marker)} """', math.inf), ("\\\n'\"", -math.inf), ("nan", 1.5))
    features = []
    for i, (name, value) in enumerate(rows):
        feature = QgsFeature(points.fields())
        feature.setAttributes([name, value])
        feature.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(4.80 + i / 100, 45.75)))
        features.append(feature)
    points.dataProvider().addFeatures(features)
    for layer in (raster, points):
        assert layer.isValid(), layer.name()
        project.addMapLayer(layer)
    group = project.layerTreeRoot().addGroup(f"group {_code(marker)} @MAP@ \"\"\"")
    in_group = QgsRasterLayer(str(raster_path), "in group", "gdal")
    project.addMapLayer(in_group, False)
    group.addLayer(in_group)
    canvas = qgis_iface.mapCanvas()
    canvas.setDestinationCrs(project.crs())
    canvas.setExtent(raster.extent())
    return project, marker


def _as_in_a_geopackage(snapshot: dict) -> dict:
    """SQLite has no NaN: a GeoPackage keeps it as NULL (the console test checks the NaN itself)."""
    def node(entry):
        if entry[0] == "group":
            return (*entry[:4], [node(child) for child in entry[4]])
        described = dict(entry[3])
        if "features" in described:
            described["features"] = sorted((wkt, tuple(None if v == "NaN" else v for v in values))
                                           for wkt, values in described["features"])
        return (*entry[:3], described)

    return {**snapshot, "tree": [node(entry) for entry in snapshot["tree"]]}


def _export(project, qgis_iface, title: str, path: Path) -> Path:
    path.write_text(project_to_pyqgis(title, project, qgis_iface.mapCanvas()), encoding="utf-8")
    return path


@pytest.mark.parametrize("which", range(5))
def test_a_hostile_title_on_a_plain_map_runs_no_code_and_is_kept(qgis_new_project, qgis_iface, tmp_path, which):
    marker = tmp_path / "PWNED"
    title = _titles(marker)[which]
    QgsProject.instance().addMapLayer(QgsRasterLayer(str(NDVI), "NDVI", "gdal"))
    script = _export(QgsProject.instance(), qgis_iface, title, tmp_path / "map.py")
    run = subprocess.run([sys.executable, str(script), str(tmp_path / "out.qgz")], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}, cwd=tmp_path)
    assert not marker.exists()
    assert run.returncode == 0, run.stderr[-2000:]
    fresh = QgsProject()
    assert fresh.read(str(tmp_path / "out.qgz"))
    assert fresh.title() == title  # the written project is named after the conversation
    fresh.clear()


@pytest.mark.parametrize("which", range(5))
def test_standalone_run_of_a_hostile_map_runs_no_code_and_keeps_every_name(hostile_map, qgis_iface, tmp_path,
                                                                           which):
    project, marker = hostile_map
    title = _titles(marker)[which]
    expected = map_snapshot(project)
    script = _export(project, qgis_iface, title, tmp_path / "map.py")
    out = tmp_path / "rebuilt.qgz"
    run = subprocess.run([sys.executable, str(script), str(out)], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}, cwd=tmp_path)
    assert not marker.exists()
    assert run.returncode == 0, run.stderr[-2000:]
    fresh = QgsProject()
    assert fresh.read(str(out))
    try:
        assert map_snapshot(fresh) == _as_in_a_geopackage(expected)
    finally:
        fresh.clear()


def test_console_run_of_a_hostile_map_runs_no_code_and_keeps_names_and_values(hostile_map, qgis_iface,
                                                                              tmp_path):
    project, marker = hostile_map
    expected = map_snapshot(project)
    scripts = [_export(project, qgis_iface, title, tmp_path / f"map{i}.py")
               for i, title in enumerate(_titles(marker))]
    for script in scripts:
        project.clear()
        console = QgisConsole()
        console.run_editor_file(script)
        assert console.errors == [] and not marker.exists(), script.read_text()[:300]
        assert map_snapshot(QgsProject.instance()) == expected
    values = [f["value"] for f in QgsProject.instance().mapLayersByName(
        "points " + _hostile_name(marker).replace('"""', "'''"))[0].getFeatures()]
    assert math.isnan(values[0]) and values[1:] == [math.inf, -math.inf, 1.5]


def test_the_script_reads_the_same_in_any_system_encoding(hostile_map, qgis_iface, tmp_path):
    """The console's Run decodes the file in the system's encoding (cp1252 on many Windows installs):
    accented names come back as they were."""
    project, marker = hostile_map
    expected = map_snapshot(project)
    script = _export(project, qgis_iface, "Lyon — juin, Tête d'Or", tmp_path / "map.py")
    project.clear()
    console = QgisConsole()
    console.run_editor_file(script, encoding="cp1252")
    assert console.errors == []
    assert map_snapshot(QgsProject.instance()) == expected
