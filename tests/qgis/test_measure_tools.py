"""The measurement tools on real QGIS layers: every number in metres or square metres whatever the layer's CRS,
on the ellipsoid, 3D along lines with Z, invalid rings repaired and said, holes subtracted. The truths are
computed another way: a local Lambert equal-area projection for areas, Pythagoras for a pipe."""

from __future__ import annotations

import math

import pytest
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsFeature,
    QgsGeometry,
    QgsPointXY,
    QgsProject,
    QgsVectorLayer,
)

from stacgis_agent.agent.config import Settings
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.server import build_server
from testkit.servers.mcp_calls import OneShotClient

US_FOOT = 1200 / 3937


def memory_layer(name: str, kind: str, crs: str, geometries: list, fields: str = "&field=name:string") -> QgsVectorLayer:
    layer = QgsVectorLayer(f"{kind}?crs={crs}{fields}", name, "memory")
    features = []
    for i, geometry in enumerate(geometries):
        feature = QgsFeature(layer.fields())
        feature.setAttributes([f"{name}-{i}"] + [None] * (layer.fields().count() - 1))
        feature.setGeometry(geometry if isinstance(geometry, QgsGeometry) else QgsGeometry.fromWkt(geometry))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    layer.updateExtents()
    QgsProject.instance().addMapLayer(layer)
    return layer


def equal_area_truth(layer: QgsVectorLayer) -> float:
    """Square metres in a Lambert azimuthal equal-area projection centred on the layer: another road to the area."""
    centre = QgsCoordinateTransform(layer.crs(), QgsCoordinateReferenceSystem("EPSG:4326"),
                                    QgsProject.instance()).transform(layer.extent().center())
    laea = QgsCoordinateReferenceSystem.fromProj(f"+proj=laea +lat_0={centre.y()} +lon_0={centre.x()} +ellps=WGS84 +units=m")
    total = 0.0
    for feature in layer.getFeatures():
        geometry = QgsGeometry(feature.geometry())
        geometry.transform(QgsCoordinateTransform(layer.crs(), laea, QgsProject.instance()))
        total += geometry.area()
    return total


@pytest.fixture
def client(qgis_new_project, tmp_path):
    QgsProject.instance().setEllipsoid("NONE")  # a new project measures planar, as QGIS's default template may
    deps = ToolDeps.from_settings(Settings(), project=QgsProject.instance, work_dir=str(tmp_path))
    yield OneShotClient(build_server(deps))
    QgsProject.instance().removeAllMapLayers()


async def test_an_area_in_us_survey_feet_comes_back_in_square_metres(client):
    # a 1,000 × 1,000 US survey foot parcel in California zone 3: 92,903 m², not "1,000,000"
    x, y = 6_000_000, 2_100_000
    layer = memory_layer("parcels", "Polygon", "EPSG:2227",
                         [f"POLYGON(({x} {y},{x + 1000} {y},{x + 1000} {y + 1000},{x} {y + 1000},{x} {y}))"])
    result = await client.call_tool("measure_area", {"layer": "parcels"})
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    assert data["total"]["area_m2"] == pytest.approx(equal_area_truth(layer), rel=2e-4)
    assert data["total"]["area_m2"] == pytest.approx(1_000_000 * US_FOOT ** 2, rel=2e-4)
    assert data["layer_unit"] == "US survey foot"
    assert "ellipsoidal on" in data["method"] and "m²" in result.content[0].text


async def test_web_mercator_without_an_ellipsoid_is_measured_on_the_layer_crs_ellipsoid(client):
    # 100 × 120 Web Mercator units at 41.7° N: planar 12,000 "m²", about 6,650 m² on the ground
    y0 = 5_115_000
    layer = memory_layer("plot", "Polygon", "EPSG:3857", [f"POLYGON((0 {y0},100 {y0},100 {y0 + 120},0 {y0 + 120},0 {y0}))"])
    result = await client.call_tool("measure_area", {"layer": "plot"})
    data = result.structured_content
    assert data["total"]["area_m2"] == pytest.approx(equal_area_truth(layer), rel=1e-3)
    assert 6_500 < data["total"]["area_m2"] < 6_800
    assert "the project sets none" in data["method"] and data["ellipsoid"] == "EPSG:7030"


async def test_degrees_are_not_square_degrees(client):
    layer = memory_layer("cell", "Polygon", "EPSG:4326", ["POLYGON((2 45,2.001 45,2.001 45.001,2 45.001,2 45))"])
    result = await client.call_tool("measure_area", {"layer": "cell"})
    assert result.structured_content["total"]["area_m2"] == pytest.approx(equal_area_truth(layer), rel=1e-3)


async def test_a_bowtie_is_repaired_and_said_or_refused_with_the_reason(client):
    memory_layer("bowtie", "Polygon", "EPSG:32631",
                 ["POLYGON((500000 5000000,500100 5000100,500100 5000000,500000 5000100,500000 5000000))"])
    repaired = await client.call_tool("measure_area", {"layer": "bowtie"})
    assert repaired.structured_content["total"]["area_m2"] == pytest.approx(5_000, rel=2e-3)  # two triangles
    assert "self-crossing ring" in repaired.content[0].text and "repaired" in repaired.content[0].text
    refused = await client.call_tool("measure_area", {"layer": "bowtie", "invalid": "refuse"})
    assert refused.is_error and "self-crossing ring" in refused.content[0].text


async def test_a_hole_wound_like_a_shell_is_read_as_a_hole(client):
    # what OGR reads from a shapefile whose hole is wound clockwise: two nested shells, 31,000 m² summed
    memory_layer("lot", "MultiPolygon", "EPSG:32631", [
        "MULTIPOLYGON(((500000 5000000,500000 5000100,500300 5000100,500300 5000000,500000 5000000)),"
        "((500010 5000010,500010 5000020,500110 5000020,500110 5000010,500010 5000010)))"])
    result = await client.call_tool("measure_area", {"layer": "lot"})
    assert result.structured_content["total"]["area_m2"] == pytest.approx(29_000, rel=2e-3)
    assert "hole wound like an outer ring" in result.content[0].text


async def test_holes_are_subtracted(client):
    memory_layer("ring", "Polygon", "EPSG:32631", [
        "POLYGON((500000 5000000,500200 5000000,500200 5000200,500000 5000200,500000 5000000),"
        "(500050 5000050,500050 5000150,500150 5000150,500150 5000050,500050 5000050))"])
    result = await client.call_tool("measure_area", {"layer": "ring"})
    assert result.structured_content["total"]["area_m2"] == pytest.approx(30_000, rel=2e-3)
    assert result.structured_content["repaired"] == []


async def test_a_pipe_with_heights_is_measured_along_its_slope(client):
    # 400 m across, 300 m down: 500 m of pipe, not 400
    pipe = QgsGeometry.fromWkt("LINESTRING Z(500000 5000000 300, 500400 5000000 0)")
    memory_layer("pipes", "LineStringZ", "EPSG:32631", [pipe])
    result = await client.call_tool("measure_length", {"layer": "pipes"})
    total = result.structured_content["total"]
    assert total["length_m"] == pytest.approx(500, rel=1e-3)
    assert total["horizontal_length_m"] == pytest.approx(400, rel=1e-3)
    assert "3D length along the slope" in result.content[0].text


async def test_selection_and_field_filters_pick_the_features_measured(client):
    layer = memory_layer("squares", "Polygon", "EPSG:32631", [
        f"POLYGON(({x} 5000000,{x + s} 5000000,{x + s} {5000000 + s},{x} {5000000 + s},{x} 5000000))"
        for x, s in ((500000, 100), (501000, 200), (502000, 300))])
    layer.selectByIds([f.id() for f in layer.getFeatures() if f["name"] == "squares-1"])
    selected = await client.call_tool("measure_area", {"layer": "squares", "selected_only": True})
    assert selected.structured_content["measured"] == 1
    assert selected.structured_content["total"]["area_m2"] == pytest.approx(40_000, rel=2e-3)
    named = await client.call_tool("measure_area", {"layer": "squares", "where": "\"name\" = 'squares-2'"})
    assert named.structured_content["total"]["area_ha"] == pytest.approx(9, rel=2e-3)
    outside = await client.call_tool("measure_area", {"layer": "squares", "where": "env('HOME') IS NOT NULL"})
    assert outside.is_error and "reads more than the features of 'squares'" in outside.content[0].text


async def test_wells_within_500_m_of_a_point_in_degrees(client):
    # wells due north of a point, 100 m to 900 m away: 5 within 500 m, counted in metres, not degrees
    lat0, metres_per_degree = 45.0, 111_132.0  # meridian degree near 45° (the test's own rough conversion)
    wells = [QgsGeometry.fromPointXY(QgsPointXY(5.0, lat0 + d / metres_per_degree)) for d in (100, 250, 400, 495, 505, 700, 900)]
    memory_layer("wells", "Point", "EPSG:4326", wells)
    result = await client.call_tool("count_within_distance", {"layer": "wells", "distance": 500, "of_lonlat": [5.0, lat0]})
    assert not result.is_error, result.content[0].text
    assert result.structured_content["count"] == 4
    assert [f["distance_m"] for f in result.structured_content["features"]] == pytest.approx([100, 250, 400, 495], abs=1.0)
    assert result.structured_content["just_beyond"][0]["distance_m"] == pytest.approx(505, abs=1.0)


async def test_select_within_distance_selects_only_those(client):
    memory_layer("road", "LineString", "EPSG:32631", ["LINESTRING(500000 5000000, 501000 5000000)"])
    houses = memory_layer("houses", "Point", "EPSG:32631", [
        QgsGeometry.fromPointXY(QgsPointXY(500500, 5000000 + d)) for d in (10, 50, 99, 101, 300)])
    houses.dataProvider().deleteFeatures([next(houses.getFeatures()).id()])  # ids no longer start at 1
    result = await client.call_tool("select_within_distance", {"layer": "houses", "distance": 100, "of_layer": "road"})
    assert result.structured_content["count"] == 2
    assert sorted(f["name"] for f in houses.selectedFeatures()) == ["houses-1", "houses-2"]


async def test_distance_between_two_cities_is_geodesic(client):
    result = await client.call_tool("measure_distance", {"from_lonlat": [4.835, 45.764], "to_lonlat": [6.143, 46.204]})
    lat1, lon1, lat2, lon2 = map(math.radians, (45.764, 4.835, 46.204, 6.143))
    haversine = 2 * 6_371_008.8 * math.asin(math.sqrt(math.sin((lat2 - lat1) / 2) ** 2
                                                       + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2))
    assert result.structured_content["distance_m"] == pytest.approx(haversine, rel=4e-3)  # sphere vs ellipsoid
    assert "geodesic" in result.content[0].text


async def test_a_layer_whose_degrees_are_metres_is_refused(client):
    memory_layer("mislabelled", "Polygon", "EPSG:4326",
                 ["POLYGON((500000 5000000,500100 5000000,500100 5000100,500000 5000100,500000 5000000))"])
    result = await client.call_tool("measure_area", {"layer": "mislabelled"})
    assert result.is_error and "not longitudes/latitudes" in result.content[0].text
