"""Vector tools on a big layer answer with the first features and say more exist, without walking the
whole layer on QGIS's GUI thread (where async tools run)."""

from __future__ import annotations

import pytest
from qgis.core import QgsExpression, QgsFeature, QgsGeometry, QgsPointXY, QgsProject, QgsVectorLayer
from qgis.utils import qgsfunction

from stacgis_agent.agent.config import Settings
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.server import build_server
from testkit.servers.mcp_calls import OneShotClient

POINTS = 20_000  # a 200 × 100 grid of points, 0.001° apart, west of Lyon
visited: list[int] = []


@qgsfunction(args="auto", group="stacgis tests", register=False, referenced_columns=[])
def visited_feature(fid, feature, parent):  # counts the features QGIS evaluated the filter on
    visited.append(fid)
    return True


@pytest.fixture
def project(qgis_new_project):
    layer = QgsVectorLayer("Point?crs=EPSG:4326&field=n:integer&field=kind:string", "trees", "memory")
    features = []
    for n in range(POINTS):
        feature = QgsFeature(layer.fields())
        feature.setAttributes([n, "oak" if n % 2 else "plane"])
        feature.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(4.7 + (n % 200) * 0.001, 45.7 + (n // 200) * 0.001)))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    layer.updateExtents()
    QgsProject.instance().addMapLayer(layer)
    QgsExpression.registerFunction(visited_feature)
    yield QgsProject.instance()
    QgsExpression.unregisterFunction("visited_feature")
    QgsProject.instance().removeAllMapLayers()


@pytest.fixture
def client(project, tmp_path):
    deps = ToolDeps.from_settings(Settings(), project=lambda: project, work_dir=str(tmp_path))
    return OneShotClient(build_server(deps))


async def test_a_bbox_over_thousands_of_features_returns_the_limit_and_says_more_exist(client):
    result = await client.call_tool("query_vector_by_bbox", {"layer": "trees", "bbox": [4.69, 45.69, 4.91, 45.81],
                                                             "limit": 7})
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    assert len(data["features"]) == 7 and data["more_available"] is True
    assert "7 feature(s) of 'trees' intersect the bbox; more exist" in result.content[0].text
    small = await client.call_tool("query_vector_by_bbox", {"layer": "trees", "bbox": [4.7005, 45.6995, 4.7025, 45.7005],
                                                            "limit": 7})
    assert sorted(f["attributes"]["n"] for f in small.structured_content["features"]) == [1, 2]
    assert small.structured_content["more_available"] is False


async def test_an_expression_search_stops_after_the_limit(client):
    visited.clear()
    client.user_approves = True  # a function defined in Python is code: the user says yes to it (issue 40)
    result = await client.call_tool("search_vector_features", {"layer": "trees", "limit": 5,
                                                               "expression": "visited_feature($id) AND \"kind\" = 'oak'"})
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    assert len(data["features"]) == 5 and data["more_available"] is True
    assert all(f["attributes"]["kind"] == "oak" for f in data["features"])
    assert len(visited) < 100  # the filter ran on a handful of features, not on all 20,000


async def test_selected_features_are_capped_and_the_rest_counted(client, project):
    layer = project.mapLayersByName("trees")[0]
    layer.selectByExpression('"n" < 500')
    result = await client.call_tool("get_selected_features", {"limit": 3})
    [selection] = result.structured_content["selections"]
    assert len(selection["features"]) == 3 and selection["left_out"] == 497
    assert "500 selected feature(s) in 1 layer(s)" in result.content[0].text
