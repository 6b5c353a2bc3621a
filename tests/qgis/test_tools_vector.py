"""Vector and project-aware tools against real QGIS layers in a real QgsProject."""

from __future__ import annotations

import numpy as np
import pytest
from qgis.core import QgsFeature, QgsGeometry, QgsPointXY, QgsProject, QgsRasterLayer, QgsVectorLayer

from stacgis_agent.agent.config import Settings
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.server import build_server
from testkit.llm.ollama_replies import embed_text
from testkit.servers.mcp_calls import OneShotClient
from testkit.worlds.cogs import write_cog

PARCELS = [  # name, population, description, lon/lat square (west, south, size)
    ("Vignes", 120, "vineyards and wine cellars on the hills", (4.80, 45.70, 0.02)),
    ("Port", 5400, "river harbour with cranes and docks", (4.85, 45.75, 0.02)),
    ("Forêt", 0, "oak forest with hiking trails", (4.90, 45.80, 0.02)),
]


async def embed(texts):
    return [embed_text(t) for t in texts]


@pytest.fixture
def project(qgis_new_project):
    layer = QgsVectorLayer("Polygon?crs=EPSG:3857&field=name:string&field=population:integer"
                           "&field=description:string", "parcels", "memory")
    from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform

    to_merc = QgsCoordinateTransform(QgsCoordinateReferenceSystem("EPSG:4326"), layer.crs(), QgsProject.instance())
    features = []
    for name, population, description, (w, s, size) in PARCELS:
        geometry = QgsGeometry.fromPolygonXY([[QgsPointXY(w, s), QgsPointXY(w + size, s),
                                               QgsPointXY(w + size, s + size), QgsPointXY(w, s + size)]])
        geometry.transform(to_merc)
        feature = QgsFeature(layer.fields())
        feature.setAttributes([name, population, description])
        feature.setGeometry(geometry)
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    layer.updateExtents()
    QgsProject.instance().addMapLayer(layer)
    yield QgsProject.instance()
    QgsProject.instance().removeAllMapLayers()


@pytest.fixture
def client(project, tmp_path):
    deps = ToolDeps.from_settings(Settings(), embed=embed, project=lambda: project, work_dir=str(tmp_path))
    return OneShotClient(build_server(deps))


def parcels(project) -> QgsVectorLayer:
    return project.mapLayersByName("parcels")[0]


async def test_list_vector_layers_describes_each_layer(client):
    layers = (await client.call_tool("list_vector_layers")).structured_content["layers"]
    assert len(layers) == 1
    layer = layers[0]
    assert (layer["name"], layer["geometry"], layer["crs"], layer["features"]) == ("parcels", "Polygon", "EPSG:3857", 3)
    assert layer["fields"] == ["name:string", "population:integer", "description:string"]


async def test_query_by_a_lonlat_bbox_finds_features_stored_in_another_crs(client):
    result = await client.call_tool("query_vector_by_bbox", {"layer": "parcels", "bbox": [4.84, 45.74, 4.86, 45.76]})
    features = result.structured_content["features"]
    assert [f["attributes"]["name"] for f in features] == ["Port"]


async def test_get_vector_feature_returns_lonlat_geometry(client, project):
    fid = next(f.id() for f in parcels(project).getFeatures() if f["name"] == "Forêt")
    result = await client.call_tool("get_vector_feature", {"layer": "parcels", "fid": fid})
    ring = result.structured_content["geometry"]["coordinates"][0]
    assert min(p[0] for p in ring) == pytest.approx(4.90, abs=1e-6)
    assert max(p[1] for p in ring) == pytest.approx(45.82, abs=1e-6)
    missing = await client.call_tool("get_vector_feature", {"layer": "parcels", "fid": 999})
    assert missing.is_error and "no feature 999" in missing.content[0].text


async def test_search_by_expression_is_validated_before_running(client):
    result = await client.call_tool("search_vector_features", {"layer": "parcels", "expression": '"population" > 100'})
    assert sorted(f["attributes"]["name"] for f in result.structured_content["features"]) == ["Port", "Vignes"]
    bad = await client.call_tool("search_vector_features", {"layer": "parcels", "expression": '"population" >'})
    assert bad.is_error and "does not parse" in bad.content[0].text
    bad = await client.call_tool("search_vector_features", {"layer": "parcels", "expression": '"pop" > 1'})
    assert bad.is_error and "Unknown field(s) pop" in bad.content[0].text and "population" in bad.content[0].text
    bad = await client.call_tool("search_vector_features", {"layer": "roads", "expression": "1"})
    assert bad.is_error and "parcels" in bad.content[0].text


async def test_semantic_search_ranks_features_by_meaning(client):
    result = await client.call_tool("search_vector_features", {"layer": "parcels", "text": "wine vineyards"})
    names = [f["attributes"]["name"] for f in result.structured_content["features"]]
    assert names[0] == "Vignes"
    result = await client.call_tool("search_vector_features", {"layer": "parcels", "text": "harbour docks",
                                                               "expression": '"population" >= 0'})
    assert result.structured_content["features"][0]["attributes"]["name"] == "Port"


async def test_selected_features_and_zonal_stats_over_the_selection(client, project, tmp_path):
    empty = await client.call_tool("get_selected_features")
    assert empty.structured_content == {"selections": []}
    layer = parcels(project)
    layer.selectByExpression("\"name\" = 'Port'")
    selected = (await client.call_tool("get_selected_features")).structured_content["selections"]
    assert [f["attributes"]["name"] for f in selected[0]["features"]] == ["Port"]

    values = np.arange(200 * 200, dtype=np.float32).reshape(200, 200)
    cog = write_cog(tmp_path / "grid.tif", values, origin=(4.80, 45.82), pixel_size=0.001)
    from_selection = (await client.call_tool("compute_zonal_stats", {"source": str(cog)})).structured_content
    square = {"type": "Polygon", "coordinates": [[[4.85, 45.75], [4.87, 45.75], [4.87, 45.77], [4.85, 45.77],
                                                  [4.85, 45.75]]]}
    explicit = (await client.call_tool("compute_zonal_stats", {"source": str(cog), "polygon": square})).structured_content
    assert from_selection["weighted_mean"] == pytest.approx(explicit["weighted_mean"], rel=1e-6)
    assert explicit["weighted_mean"] == pytest.approx(values[50:70, 50:70].mean(), rel=1e-6)


async def test_raster_tools_accept_a_project_layer_name(client, project, tmp_path):
    cog = write_cog(tmp_path / "dem.tif", np.full((64, 64), 7, np.float32), origin=(4.8, 45.8), pixel_size=0.01)
    project.addMapLayer(QgsRasterLayer(str(cog), "dem"))
    result = await client.call_tool("get_raster_statistics", {"source": "dem", "exact": True})
    assert (result.structured_content["mean"], result.structured_content["valid_pixels"]) == (7.0, 64 * 64)


async def test_search_items_where_the_selected_feature_is(project, tmp_path):
    import json

    from stacgis_agent.agent.config import CatalogConfig

    def item(item_id: str, bbox: list[float]) -> dict:
        w, s, e, n = bbox
        return {"type": "Feature", "stac_version": "1.0.0", "id": item_id, "collection": "scenes", "bbox": bbox,
                "geometry": {"type": "Polygon", "coordinates": [[[w, s], [e, s], [e, n], [w, n], [w, s]]]},
                "properties": {"datetime": "2024-06-01T00:00:00Z"}, "assets": {}, "links": []}

    (tmp_path / "over-port.json").write_text(json.dumps(item("over-port", [4.84, 45.74, 4.88, 45.78])))
    (tmp_path / "elsewhere.json").write_text(json.dumps(item("elsewhere", [4.70, 45.60, 4.75, 45.65])))
    (tmp_path / "collection.json").write_text(json.dumps({
        "type": "Collection", "id": "scenes", "description": "d", "license": "CC0-1.0", "stac_version": "1.0.0",
        "extent": {"spatial": {"bbox": [[4.7, 45.6, 4.9, 45.8]]}, "temporal": {"interval": [[None, None]]}},
        "links": [{"rel": "item", "href": "./over-port.json"}, {"rel": "item", "href": "./elsewhere.json"}]}))
    deps = ToolDeps.from_settings(Settings(catalogs=[CatalogConfig(name="disk", url=str(tmp_path / "collection.json"),
                                                                   kind="static")]),
                                  project=lambda: project, work_dir=str(tmp_path))
    client = OneShotClient(build_server(deps))
    nothing = await client.call_tool("search_items", {"use_selected_feature": True})
    assert nothing.is_error and "No feature is selected" in nothing.content[0].text
    parcels(project).selectByExpression("\"name\" = 'Port'")
    result = await client.call_tool("search_items", {"use_selected_feature": True})
    assert [i["id"] for i in result.structured_content["items"]] == ["over-port"]


async def test_layers_resource_lists_the_project_layers(client, project, tmp_path):
    import json

    from mcp import Client

    cog = write_cog(tmp_path / "b.tif", np.zeros((8, 8, 8), np.uint8)[:3], origin=(4.8, 45.8), pixel_size=0.01,
                    band_names=["red", "green", "blue"])
    project.addMapLayer(QgsRasterLayer(str(cog), "photo"))
    async with Client(client.server) as session:
        layers = json.loads((await session.read_resource("layers://project")).contents[0].text)
    by_name = {layer["name"]: layer for layer in layers}
    assert by_name["parcels"]["type"] == "vector" and by_name["parcels"]["features"] == 3
    assert by_name["photo"]["type"] == "raster" and by_name["photo"]["crs"] == "EPSG:4326"
    assert len(by_name["photo"]["bands"]) == 3
