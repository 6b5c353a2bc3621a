"""Processing calls checked against their layers' units before they run, and their numbers qualified after
(issue 41): a distance in the wrong unit is converted or refused, QGIS's invalid-geometry setting applies,
numbers carry units, known traps are said, folder outputs run."""

from __future__ import annotations

import httpx
import pytest
from qgis.core import QgsCoordinateReferenceSystem, QgsFeature, QgsGeometry, QgsProject, QgsVectorLayer

from stacgis_agent.tools.server import build_server
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient

US_FOOT = 1200 / 3937


def add_layer(name: str, kind: str, crs: str, wkts: list[str], fields: str = "", rows: list | None = None) -> QgsVectorLayer:
    layer = QgsVectorLayer(f"{kind}?crs={crs}{fields}", name, "memory")
    features = []
    for i, wkt in enumerate(wkts):
        feature = QgsFeature(layer.fields())
        if rows:
            feature.setAttributes(rows[i])
        feature.setGeometry(QgsGeometry.fromWkt(wkt))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    layer.updateExtents()
    QgsProject.instance().addMapLayer(layer)
    return layer


@pytest.fixture
async def run(qgis_iface, qgis_new_project, qgis_processing, tmp_path):
    QgsProject.instance().setCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    QgsProject.instance().setEllipsoid("NONE")
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, None, str(tmp_path / "out"), qgis_iface)
        client = OneShotClient(build_server(deps, canvas=True), user_approves=True)  # expressions ask first

        async def call(algorithm_id: str, parameters: dict):
            return await client.call_tool("run_processing_algorithm",
                                          {"algorithm_id": algorithm_id, "parameters": parameters})
        yield call
    QgsProject.instance().removeAllMapLayers()


def _buffered_width(result) -> float:
    layer = QgsProject.instance().mapLayer(result.structured_content["layers"][0]["id"])
    return next(layer.getFeatures()).geometry().boundingBox().width()


async def test_a_distance_in_metres_is_converted_to_us_survey_feet_and_said(run):
    add_layer("wells", "Point", "EPSG:2227", ["POINT(6000000 2100000)"])
    result = await run("native:buffer", {"INPUT": "wells", "DISTANCE": "100 m"})
    assert not result.is_error, result.content[0].text
    assert _buffered_width(result) == pytest.approx(200 / US_FOOT, rel=1e-3)  # 656 ft across, not 200
    assert "converted" in result.content[0].text and "US survey feet" in result.content[0].text


async def test_a_plain_number_on_feet_or_degrees_is_refused_with_the_unit_it_would_have_meant(run):
    add_layer("wells", "Point", "EPSG:2227", ["POINT(6000000 2100000)"])
    add_layer("sites", "Point", "EPSG:4326", ["POINT(2.35 48.85)"])
    feet = await run("native:buffer", {"INPUT": "wells", "DISTANCE": 500})
    assert feet.is_error and "500 US survey feet (152.40 m)" in feet.content[0].text
    degrees = await run("native:buffer", {"INPUT": "sites", "DISTANCE": 500})
    assert degrees.is_error and "would be 500 degrees" in degrees.content[0].text
    metres = await run("native:buffer", {"INPUT": "sites", "DISTANCE": "500 m"})
    assert metres.is_error and "reproject" in metres.content[0].text.lower() and "EPSG:32631" in metres.content[0].text
    assert sorted(lyr.name() for lyr in QgsProject.instance().mapLayers().values()) == ["sites", "wells"]


async def test_web_mercator_metres_are_ground_metres_at_the_layers_latitude(run):
    add_layer("plots", "Point", "EPSG:3857", ["POINT(0 5621521)"])  # 45° N: 1 ground metre = 1.414 map units
    result = await run("native:buffer", {"INPUT": "plots", "DISTANCE": "100 m"})
    assert not result.is_error, result.content[0].text
    assert _buffered_width(result) == pytest.approx(200 * 2 ** 0.5, rel=1e-3)
    assert "Web Mercator" in result.content[0].text


async def test_a_planar_area_in_square_feet_is_refused_and_an_ellipsoidal_one_is_stated(run):
    x, y = 6_000_000, 2_100_000
    add_layer("parcels", "Polygon", "EPSG:2227", [f"POLYGON(({x} {y},{x + 1000} {y},{x + 1000} {y + 1000},{x} {y + 1000},{x} {y}))"])
    planar = await run("native:fieldcalculator", {"INPUT": "parcels", "FIELD_NAME": "a", "FIELD_TYPE": 0,
                                                  "FORMULA": "area($geometry)"})
    assert planar.is_error and "US survey feet" in planar.content[0].text and "$area" in planar.content[0].text
    quoted = await run("native:fieldcalculator", {"INPUT": "parcels", "FIELD_NAME": "a", "FIELD_TYPE": 2,
                                                  "FORMULA": "'area(' || 'x'"})
    assert not quoted.is_error, quoted.content[0].text  # text in quotes is not a call
    ellipsoidal = await run("native:fieldcalculator", {"INPUT": "parcels", "FIELD_NAME": "a", "FIELD_TYPE": 0,
                                                       "FORMULA": "$area"})
    assert not ellipsoidal.is_error, ellipsoidal.content[0].text
    assert "ellipsoidal on" in ellipsoidal.content[0].text and "m² for areas" in ellipsoidal.content[0].text
    layer = QgsProject.instance().mapLayer(ellipsoidal.structured_content["layers"][0]["id"])
    assert next(layer.getFeatures())["a"] == pytest.approx(1_000_000 * US_FOOT ** 2, rel=5e-4)


async def test_an_invalid_geometry_stops_the_run_as_in_qgis_desktop(run):
    add_layer("bowtie", "Polygon", "EPSG:32631",
              ["POLYGON((500000 5000000,500100 5000100,500100 5000000,500000 5000100,500000 5000000))"])
    result = await run("native:dissolve", {"INPUT": "bowtie"})
    assert result.is_error and "invalid geometry" in result.content[0].text
    assert "native:fixgeometries" in result.content[0].text


async def test_numbers_carry_their_units_and_the_unweighted_rate_is_said(run):
    add_layer("districts", "Polygon", "EPSG:32631", ["POLYGON((0 0,1 0,1 1,0 0))"] * 3,
              "&field=unemp_rate:double&field=population:integer", [[40.0, 100], [0.5, 10_000], [0.5, 10_000]])
    result = await run("qgis:basicstatisticsforfields", {"INPUT_LAYER": "districts", "FIELD_NAME": "unemp_rate"})
    assert not result.is_error, result.content[0].text
    numbers = result.structured_content["numbers"]
    assert numbers["MEAN"]["value"] == pytest.approx(13.6667, rel=1e-4)
    assert numbers["COUNT"]["unit"] == "a count" and "unemp_rate" in numbers["MEAN"]["unit"]
    assert "unweighted" in result.content[0].text and "0.696517" in result.content[0].text  # 14,000 / 20,100


async def test_2d_lengths_of_lines_with_heights_are_said(run):
    add_layer("pipes", "LineStringZ", "EPSG:32631", ["LINESTRING Z(500000 5000000 300, 500400 5000000 0)"])
    add_layer("zones", "Polygon", "EPSG:32631",
              ["POLYGON((499000 4999000,501000 4999000,501000 5001000,499000 5001000,499000 4999000))"])
    result = await run("native:sumlinelengths", {"LINES": "pipes", "POLYGONS": "zones"})
    assert not result.is_error, result.content[0].text
    assert "heights (Z)" in result.content[0].text and "2D" in result.content[0].text
    assert "metres" in result.structured_content["field_units"]["LENGTH"]


async def test_centroids_outside_their_polygon_and_points_on_boundaries_are_said(run):
    add_layer("parcels", "Polygon", "EPSG:32631",
              ["POLYGON((0 0,100 0,100 10,10 10,10 100,0 100,0 0))", "POLYGON((200 0,300 0,300 100,200 100,200 0))"])
    centroids = await run("native:centroids", {"INPUT": "parcels"})
    assert "1 centroid(s) fall outside" in centroids.content[0].text and "pointonsurface" in centroids.content[0].text
    add_layer("districts", "Polygon", "EPSG:32631",
              ["POLYGON((0 0,100 0,100 100,0 100,0 0))", "POLYGON((100 0,200 0,200 100,100 100,100 0))"])
    add_layer("wells", "Point", "EPSG:32631", ["POINT(50 50)", "POINT(100 50)", "POINT(150 50)", "POINT(100 20)"])
    counted = await run("native:countpointsinpolygon", {"POLYGONS": "districts", "POINTS": "wells"})
    assert "2 of 4 point(s) of 'wells' lie exactly on a boundary" in counted.content[0].text


async def test_algorithms_with_a_folder_output_run(run):
    add_layer("wells", "Point", "EPSG:32631", ["POINT(1 1)", "POINT(2 2)", "POINT(3 3)"], "&field=kind:string",
              [["a"], ["a"], ["b"]])
    result = await run("native:splitvectorlayer", {"INPUT": "wells", "FIELD": "kind"})
    assert not result.is_error, result.content[0].text  # before: "Incorrect parameter value for OUTPUT"
    assert len(result.structured_content["results"]["OUTPUT_LAYERS"]) == 2


async def test_a_distance_left_to_qgis_default_runs_and_its_unit_is_said(run):
    add_layer("coast", "LineString", "EPSG:4326", ["LINESTRING(2 45, 2.001 45, 2.001 45, 2.002 45.001)"])
    result = await run("native:removeduplicatevertices", {"INPUT": "coast"})
    assert not result.is_error, result.content[0].text
    assert "TOLERANCE not given: QGIS uses its default 1e-06 in degrees" in result.content[0].text
