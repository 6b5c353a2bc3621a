"""Classifying a big file-backed layer by a field: the values are read by OGR in a worker thread (never by
walking the features on QGIS's GUI thread), and the classes are those QGIS itself would make."""

from __future__ import annotations

import threading

import pytest
from osgeo import ogr, osr
from qgis.core import QgsGraduatedSymbolRenderer, QgsProject, QgsVectorLayer

from stacgis_agent.agent.config import Settings
from stacgis_agent.tools.canvas.layers import vector_values
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.server import build_server
from testkit.servers.mcp_calls import OneShotClient

FEATURES = 5000
KINDS = ("oak", "plane", "lime", "birch")


@pytest.fixture(scope="module")
def gpkg(tmp_path_factory):
    path = tmp_path_factory.mktemp("trees") / "trees.gpkg"
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    ds = ogr.GetDriverByName("GPKG").CreateDataSource(str(path))
    layer = ds.CreateLayer("trees", srs, ogr.wkbPoint)
    for name, kind in (("kind", ogr.OFTString), ("height", ogr.OFTReal), ("planted", ogr.OFTDate)):
        layer.CreateField(ogr.FieldDefn(name, kind))
    layer.StartTransaction()
    for n in range(FEATURES):
        feature = ogr.Feature(layer.GetLayerDefn())
        feature.SetField("kind", KINDS[(n * 7) % 4] if n % 3 else KINDS[n % 2])
        feature.SetField("height", float((n * 37) % 1000) / 10 + (n % 7) ** 2)
        feature.SetField("planted", f"20{10 + n % 12:02d}-0{1 + n % 9}-15")
        feature.SetGeometry(ogr.CreateGeometryFromWkt(f"POINT ({4.7 + (n % 100) * 0.001} {45.7 + (n // 100) * 0.001})"))
        layer.CreateFeature(feature)
    layer.CommitTransaction()
    ds = None
    return path


@pytest.fixture
def trees(gpkg, qgis_new_project, tmp_path):
    layer = QgsVectorLayer(f"{gpkg}|layername=trees", "trees", "ogr")
    assert layer.isValid()
    QgsProject.instance().addMapLayer(layer)
    deps = ToolDeps.from_settings(Settings(), project=QgsProject.instance, work_dir=str(tmp_path))
    yield layer, OneShotClient(build_server(deps, canvas=True))
    QgsProject.instance().removeAllMapLayers()


@pytest.fixture
def reads(monkeypatch):
    """Which threads read field values with OGR."""
    threads = []
    real = vector_values.field_values

    def recording(*args):
        threads.append(threading.current_thread() is threading.main_thread())
        return real(*args)

    monkeypatch.setattr(vector_values, "field_values", recording)
    return threads


async def test_categories_are_the_kinds_the_layer_shows_read_off_the_gui_thread(trees, reads):
    layer, client = trees
    result = await client.call_tool("set_layer_style", {"layer": "trees", "renderer": "categorized", "field": "kind"})
    assert not result.is_error, result.content[0].text
    assert sorted(c.value() for c in layer.renderer().categories()) == sorted(KINDS)
    assert reads == [False]  # read once, in a worker

    layer.setSubsetString("\"kind\" IN ('oak', 'lime')")
    await client.call_tool("set_layer_style", {"layer": "trees", "renderer": "categorized", "field": "kind"})
    assert sorted(c.value() for c in layer.renderer().categories()) == ["lime", "oak"]


async def test_graduated_classes_equal_the_ones_qgis_makes_itself(trees, reads):
    layer, client = trees
    result = await client.call_tool("set_layer_style", {"layer": "trees", "renderer": "graduated", "field": "height",
                                                        "classes": 5})
    assert not result.is_error, result.content[0].text
    ours = [(r.lowerValue(), r.upperValue(), r.label()) for r in layer.renderer().ranges()]
    reference = QgsGraduatedSymbolRenderer("height")
    reference.setClassificationMethod(layer.renderer().classificationMethod().clone())
    reference.updateClasses(layer, 5)  # what QGIS computes by walking the layer
    assert ours == [(r.lowerValue(), r.upperValue(), r.label()) for r in reference.ranges()]
    colours = [r.symbol().color().name() for r in layer.renderer().ranges()]
    assert len(set(colours)) == 5
    assert reads == [False]


async def test_a_date_field_is_classified_by_qgis_as_before(trees, reads):
    layer, client = trees
    result = await client.call_tool("set_layer_style", {"layer": "trees", "renderer": "categorized", "field": "planted"})
    assert not result.is_error, result.content[0].text
    assert len(layer.renderer().categories()) == len(layer.uniqueValues(layer.fields().indexOf("planted")))
    assert reads == []
