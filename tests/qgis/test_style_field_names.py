"""set_layer_style with a field whose name is an expression (a catalog or a file can name a column anything):
the renderer and the labels keep it as a field, so QGIS never evaluates the name, even once the field is gone
(a renderer reads an attribute it cannot find as an expression)."""

from __future__ import annotations

import hashlib
import sqlite3

import httpx
import pytest
from qgis.core import (
    QgsExpressionContextUtils,
    QgsFeature,
    QgsField,
    QgsGeometry,
    QgsMapSettings,
    QgsPointXY,
    QgsProject,
    QgsRenderContext,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QSize, QVariant

from stacgis_agent.tools.server import build_server
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient


@pytest.fixture
def counter(tmp_path):
    path = tmp_path / "counter.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER)")
        db.execute("INSERT INTO counters VALUES ('k', 1)")
    return path


@pytest.fixture
async def styled(qgis_iface, qgis_new_project, tmp_path, counter):
    hostile = f"sqlite_fetch_and_increment('{counter}', 'counters', 'value', 'name', 'k', 1)"
    layer = QgsVectorLayer("Point?crs=EPSG:4326", "parcels", "memory")
    layer.dataProvider().addAttributes([QgsField(hostile, QVariant.Int)])
    layer.updateFields()
    for i in range(3):
        feature = QgsFeature(layer.fields())
        feature.setAttributes([i])
        feature.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(5 + i * 0.01, 45)))
        layer.dataProvider().addFeatures([feature])
    layer.updateExtents()
    QgsProject.instance().addMapLayer(layer)
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, None, str(tmp_path / "out"), qgis_iface)
        yield OneShotClient(build_server(deps, canvas=True)), layer, hostile
    QgsProject.instance().removeAllMapLayers()


def render(layer: QgsVectorLayer) -> None:
    """What drawing the layer asks of its renderer, on this thread: a symbol for each feature."""
    settings = QgsMapSettings()
    settings.setLayers([layer])
    settings.setDestinationCrs(layer.crs())
    settings.setExtent(layer.extent().buffered(0.01))
    settings.setOutputSize(QSize(100, 100))
    context = QgsRenderContext.fromMapSettings(settings)
    context.expressionContext().appendScopes(QgsExpressionContextUtils.globalProjectLayerScopes(layer))
    renderer = layer.renderer().clone()
    renderer.startRender(context, layer.fields())
    for feature in layer.getFeatures():
        context.expressionContext().setFeature(feature)
        renderer.symbolForFeature(feature, context)
    renderer.stopRender(context)


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("renderer", ["categorized", "graduated"])
async def test_a_field_named_like_an_expression_is_never_evaluated(styled, counter, renderer):
    client, layer, hostile = styled
    result = await client.call_tool("set_layer_style", {"layer": "parcels", "renderer": renderer, "field": hostile,
                                                        "labels_field": hostile})
    assert not result.is_error, result.content[0].text
    before = digest(counter)
    render(layer)
    layer.dataProvider().renameAttributes({0: "renamed"})  # the field is gone (renamed by hand, a new file, …)
    layer.updateFields()
    render(layer)
    assert digest(counter) == before  # the name was never run as sqlite_fetch_and_increment
    assert layer.labeling().settings().isExpression is False
