"""Processing algorithms as tools: found by what they do, run on QGIS's task manager, outputs as new layers."""

from __future__ import annotations

import httpx
import pytest
from qgis.core import QgsProject, QgsWkbTypes

from stacgis_agent.tools.server import build_server
from testkit.qgis_drivers.canvas_layers import CITIES, city_layer
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient


@pytest.fixture
async def processing(qgis_iface, qgis_new_project, qgis_processing, tmp_path):
    cities = city_layer()
    QgsProject.instance().addMapLayer(cities)
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, None, str(tmp_path), qgis_iface)
        server = build_server(deps, canvas=True)
        yield OneShotClient(server), server, cities
    QgsProject.instance().removeAllMapLayers()


async def test_search_finds_buffer_by_what_it_does(processing):
    client, *_ = processing
    result = await client.call_tool("search_processing_algorithms", {"query": "buffer", "limit": 5})
    assert not result.is_error, result.content[0].text
    found = result.structured_content["algorithms"]
    assert found[0]["id"] == "native:buffer"
    names = {p["name"] for p in found[0]["parameters"]}
    assert {"INPUT", "DISTANCE", "OUTPUT"} <= names
    end_cap = next(p for p in found[0]["parameters"] if p["name"] == "END_CAP_STYLE")
    assert end_cap["options"][:2] == ["Round", "Flat"]


async def test_buffer_runs_as_a_task_and_adds_a_layer_with_one_polygon_per_point(processing):
    client, _server, _cities = processing
    result = await client.call_tool("run_processing_algorithm", {
        "algorithm_id": "native:buffer",
        "parameters": {"INPUT": "cities", "DISTANCE": "0.1 deg", "END_CAP_STYLE": "square", "DISSOLVE": False}})
    assert not result.is_error, result.content[0].text
    [added] = result.structured_content["layers"]
    layer = QgsProject.instance().mapLayer(added["id"])
    assert layer is not None and layer.featureCount() == len(CITIES)
    assert QgsWkbTypes.geometryType(layer.wkbType()) == QgsWkbTypes.PolygonGeometry
    areas = [f.geometry().area() for f in layer.getFeatures()]
    assert areas == pytest.approx([0.04] * len(CITIES), rel=1e-6)  # square caps: (2 × 0.1)² each
    assert sorted(f["name"] for f in layer.getFeatures()) == sorted(c[0] for c in CITIES)


async def test_parameters_are_checked_against_the_algorithm(processing):
    client, *_ = processing
    unknown_layer = await client.call_tool("run_processing_algorithm", {
        "algorithm_id": "native:buffer", "parameters": {"INPUT": "towns", "DISTANCE": 1}})
    assert unknown_layer.is_error and "cities" in unknown_layer.content[0].text
    bad_enum = await client.call_tool("run_processing_algorithm", {
        "algorithm_id": "native:buffer", "parameters": {"INPUT": "cities", "DISTANCE": 1, "END_CAP_STYLE": "pointy"}})
    assert bad_enum.is_error and "Round, Flat, Square" in bad_enum.content[0].text
    unknown_alg = await client.call_tool("run_processing_algorithm", {"algorithm_id": "native:nothing", "parameters": {}})
    assert unknown_alg.is_error and "search_processing_algorithms" in unknown_alg.content[0].text
    assert [lyr.name() for lyr in QgsProject.instance().mapLayers().values()] == ["cities"]
