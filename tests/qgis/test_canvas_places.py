"""'Zoom to <place>' lands on the place the analyst named, says where it found it, and asks when
several places share the name. Judged on the canvas extent, as the analyst sees it."""

from __future__ import annotations

import time

import httpx
import pytest
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsFeature,
    QgsGeometry,
    QgsPointXY,
    QgsProject,
    QgsRectangle,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QCoreApplication, QSize

from stacgis_agent.tools.server import build_server
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient

LYON = (4.835, 45.764)
NAIROBI = (36.82, -1.29)
MUNICH, BERLIN = (11.58, 48.14), (13.40, 52.52)
PARIS, PARIS_TEXAS = (2.35, 48.856), (-95.555, 33.661)


def _layer(uri: str, name: str, rows: list[tuple[list, str]]) -> QgsVectorLayer:
    layer = QgsVectorLayer(uri, name, "memory")
    features = []
    for attributes, wkt in rows:
        feature = QgsFeature(layer.fields())
        feature.setAttributes(attributes)
        feature.setGeometry(QgsGeometry.fromWkt(wkt))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    layer.updateExtents()
    return layer


def _box(w, s, e, n) -> str:
    return f"POLYGON(({w} {s},{e} {s},{e} {n},{w} {n},{w} {s}))"


@pytest.fixture
async def places(qgis_iface, qgis_new_project, tmp_path):
    canvas = qgis_iface.mapCanvas()
    window = qgis_iface.mainWindow()  # the analyst's canvas is on screen, not a hidden 98 x 28 widget
    window.resize(QSize(900, 650))
    window.show()
    deadline = time.monotonic() + 5
    while canvas.mapSettings().outputSize().width() < 300 and time.monotonic() < deadline:
        QCoreApplication.processEvents()
        time.sleep(0.02)
    assert canvas.mapSettings().outputSize().width() >= 300, canvas.mapSettings().outputSize()
    canvas.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:3857"))
    # A footprints layer whose collection id contains "lyon", lying east of the city (the reported bug).
    footprints = _layer("Polygon?crs=EPSG:4326&field=id:string&field=collection:string", "footprints",
                        [(["S2A_31TGL_20230601", "sentinel-2-lyon-2023"], _box(5.6, 45.5, 6.3, 46.0))])
    QgsProject.instance().addMapLayers([footprints])
    canvas.setExtent(QgsRectangle(-2e6, 4e6, 3e6, 8e6))
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, None, str(tmp_path / "out"), qgis_iface)
        yield OneShotClient(build_server(deps, canvas=True)), canvas
    QgsProject.instance().removeAllMapLayers()


def _shows(canvas, lon: float, lat: float) -> bool:
    to_canvas = QgsCoordinateTransform(QgsCoordinateReferenceSystem("EPSG:4326"),
                                       canvas.mapSettings().destinationCrs(), QgsProject.instance())
    return canvas.extent().contains(to_canvas.transform(QgsPointXY(lon, lat)))


def _centre_lonlat(canvas) -> tuple[float, float]:
    to_wgs84 = QgsCoordinateTransform(canvas.mapSettings().destinationCrs(),
                                      QgsCoordinateReferenceSystem("EPSG:4326"), QgsProject.instance())
    centre = to_wgs84.transform(canvas.extent().center())
    return centre.x(), centre.y()


def _height_km(canvas) -> float:
    return canvas.extent().height() / 1000


def _width_km(canvas) -> float:
    return canvas.extent().width() / 1000  # EPSG:3857 metres (stretched away from the equator: an upper bound)


async def _zoom(client, **arguments):
    result = await client.call_tool("zoom_to_location", arguments)
    return result, result.content[0].text


async def test_lyon_is_the_city_not_a_footprint_whose_id_contains_lyon(places):
    client, canvas = places
    result, text = await _zoom(client, place="Lyon")
    assert not result.is_error, text
    assert _shows(canvas, *LYON) and not _shows(canvas, 6.2, 45.9), text
    assert "offline gazetteer" in text and "France" in text and "footprints" not in text
    assert result.structured_content["place"]["kind"] == "city"


async def test_a_project_layer_with_that_name_comes_first_and_the_answer_names_layer_and_feature(places):
    client, canvas = places
    communes = _layer("Polygon?crs=EPSG:4326&field=code:string&field=NOM_COM:string", "communes",
                      [(["69123", "Lyon"], _box(4.77, 45.70, 4.90, 45.81)),
                       (["42218", "Saint-Étienne"], _box(4.33, 45.38, 4.45, 45.48))])
    QgsProject.instance().addMapLayer(communes)
    result, text = await _zoom(client, place="lyon")
    assert not result.is_error, text
    assert "layer 'communes'" in text and "NOM_COM" in text, text
    assert _shows(canvas, *LYON) and _width_km(canvas) < 60
    result, text = await _zoom(client, place="SAINT ETIENNE")  # no accent, no hyphen, upper case
    assert not result.is_error and _shows(canvas, 4.39, 45.43), text


async def test_two_features_of_the_same_name_far_apart_make_the_tool_ask_and_leave_the_map(places):
    client, canvas = places
    towns = _layer("Point?crs=EPSG:4326&field=name:string", "towns",
                   [(["Springfield"], "POINT(-89.65 39.80)"), (["Springfield"], "POINT(-72.59 42.10)")])
    QgsProject.instance().addMapLayer(towns)
    before = QgsRectangle(canvas.extent())
    result, text = await _zoom(client, place="Springfield", layer="towns")
    assert result.is_error and "Several places are called 'Springfield'" in text and "ask_user" in text
    assert text.count("layer 'towns'") == 2
    assert canvas.extent() == before


@pytest.mark.parametrize(("place", "inside", "centre_box", "max_km"), [
    ("Kenya", NAIROBI, (33.9, -4.7, 41.9, 5.0), 2_500),
    ("Bavaria", MUNICH, (8.9, 47.2, 13.9, 50.6), 1_200),  # English name of the region 'Bayern'
    ("Allemagne", BERLIN, (5.8, 47.2, 15.1, 55.1), 2_500),  # French name of Germany
    ("Paris", PARIS, (2.2, 48.8, 2.5, 48.95), 60),  # the capital, by far the biggest Paris
    ("München", MUNICH, (11.3, 48.0, 11.8, 48.3), 150),
])
async def test_offline_gazetteer_knows_countries_regions_and_cities_in_several_languages(
        places, place, inside, centre_box, max_km):
    client, canvas = places
    result, text = await _zoom(client, place=place)
    assert not result.is_error, text
    assert _shows(canvas, *inside), text
    w, s, e, n = centre_box  # the view is centred on the place asked for, whatever the canvas' shape
    lon, lat = _centre_lonlat(canvas)
    assert w <= lon <= e and s <= lat <= n, (place, lon, lat)
    assert min(_width_km(canvas), _height_km(canvas)) < max_km, (place, _width_km(canvas))
    assert "offline gazetteer" in text


async def test_the_country_narrows_a_shared_name_and_a_typo_still_finds_the_city(places):
    client, canvas = places
    result, text = await _zoom(client, place="Paris", country="US")
    assert not result.is_error and _shows(canvas, *PARIS_TEXAS) and "Texas" in text, text
    result, text = await _zoom(client, place="Paris, Texas")
    assert not result.is_error and _shows(canvas, *PARIS_TEXAS), text
    result, text = await _zoom(client, place="Marseile")
    assert not result.is_error and _shows(canvas, 5.37, 43.30), text
    assert "similar spelling" in text and "Marseille" in text


async def test_an_ambiguous_or_unknown_name_is_a_clear_message_and_the_map_stays(places):
    client, canvas = places
    before = QgsRectangle(canvas.extent())
    result, text = await _zoom(client, place="Georgia")
    assert result.is_error and "Georgia (country)" in text and "United States" in text and "ask_user" in text
    result, text = await _zoom(client, place="Xyzzyville")
    assert result.is_error and "No place called 'Xyzzyville'" in text and "lon/lat" in text
    result, text = await _zoom(client, place="Lyonn")  # as close to Lyon, France as to Lynn, Massachusetts
    assert result.is_error and "Lyon (city, France" in text and "Lynn" in text
    assert canvas.extent() == before
