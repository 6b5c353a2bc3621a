"""Traps of units: an area in US survey feet or degrees read as square metres, a distance of 500 read as 500 degrees
or 500 feet, a Web Mercator area measured with no ellipsoid. Each with its clean twin in metres."""

from __future__ import annotations

import pytest

US_FOOT = 1200 / 3937


def _square(x: float, y: float, side: float) -> str:
    return f"POLYGON(({x} {y},{x + side} {y},{x + side} {y + side},{x} {y + side},{x} {y}))"


AREA_ROUTES = ("field calculator area($geometry)", "measure_area")


async def _area(traps, route: str, layer: str) -> list:
    if route == "measure_area":
        return [await traps.call("measure_area", {"layer": layer})]
    return [await traps.run("native:fieldcalculator", {"INPUT": layer, "FIELD_NAME": "area", "FIELD_TYPE": 0,
                                                       "FORMULA": "area($geometry)"})]


def _read_area(route: str):
    if route == "measure_area":
        return lambda result: result.structured_content["total"]["area_m2"]
    return lambda result: _first(result, "area")


def _first(result, field):
    from qgis.core import QgsProject

    layer = QgsProject.instance().mapLayer(result.structured_content["layers"][0]["id"])
    return float(next(layer.getFeatures())[field])


# qgis/QGIS#59571 "Field Calculator Uses Original Units After Layer Reprojection": area() measures in the layer's
# own units (square US survey feet here), $area on the ellipsoid; 1,000,000 reported as an area of 92,903 m².
@pytest.mark.parametrize("route", AREA_ROUTES)
@pytest.mark.parametrize("kind", ["trap", "twin"])
async def test_an_area_in_us_survey_feet(traps, kind, route):
    if kind == "trap":
        traps.layer("parcels", "Polygon", "EPSG:2227", [_square(6_000_000, 2_100_000, 1000)])
    else:  # the same 1,000 US ft square of ground, in UTM 10N metres
        traps.layer("parcels", "Polygon", "EPSG:32610", [_square(550_000, 4_180_000, 1000 * US_FOOT)])
    steps = await _area(traps, route, "parcels")
    traps.judge("area in US survey feet", kind, route, steps, 1000 ** 2 * US_FOOT ** 2, tolerance=5e-3,
                defect=("foot", "feet"), read=_read_area(route))


# qgis/QGIS#37483 "Minimum bounding geometry: amazing values in calculated fields": areas and perimeters of an
# EPSG:4326 layer come out in (square) degrees.
@pytest.mark.parametrize("route", AREA_ROUTES)
@pytest.mark.parametrize("kind", ["trap", "twin"])
async def test_an_area_in_degrees(traps, kind, route):
    cell = _square(2.0, 45.0, 0.001)
    truth = traps.equal_area(cell, "EPSG:4326")
    if kind == "trap":
        traps.layer("cell", "Polygon", "EPSG:4326", [cell])
    else:
        from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsGeometry, QgsProject

        moved = QgsGeometry.fromWkt(cell)
        moved.transform(QgsCoordinateTransform(QgsCoordinateReferenceSystem("EPSG:4326"),
                                               QgsCoordinateReferenceSystem("EPSG:32631"), QgsProject.instance()))
        traps.layer("cell", "Polygon", "EPSG:32631", [moved.asWkt()])
    steps = await _area(traps, route, "cell")
    traps.judge("area in degrees", kind, route, steps, truth, tolerance=5e-3, defect=("degree",),
                read=_read_area(route))


def _wells_near_a_river(traps, crs: str, lon: float, lat: float) -> None:
    """A river along a parallel and 24 wells north of it: 3 within 500 m, the others 0.6 to 11 km away."""
    from qgis.core import (
        QgsCoordinateReferenceSystem,
        QgsCoordinateTransform,
        QgsGeometry,
        QgsPointXY,
        QgsProject,
    )

    metres_per_degree = 111_000.0  # of latitude: the test's own rough placement, far from the 500 m threshold
    offsets = [100, 300, 450] + [600 + 500 * i for i in range(21)]
    river = QgsGeometry.fromPolylineXY([QgsPointXY(lon, lat), QgsPointXY(lon + 0.05, lat)])
    wells = [QgsGeometry.fromPointXY(QgsPointXY(lon + 0.02, lat + d / metres_per_degree)) for d in offsets]
    if crs != "EPSG:4326":
        to = QgsCoordinateTransform(QgsCoordinateReferenceSystem("EPSG:4326"), QgsCoordinateReferenceSystem(crs),
                                    QgsProject.instance())
        for geometry in (river, *wells):
            geometry.transform(to)
    traps.layer("river", "LineString", crs, [river.asWkt()])
    traps.layer("wells", "Point", crs, [w.asWkt() for w in wells])


WITHIN_ROUTES = ("extractwithindistance 500", "count_within_distance")


async def _within(traps, route: str) -> list:
    if route == "count_within_distance":
        return [await traps.call("count_within_distance", {"layer": "wells", "distance": 500, "of_layer": "river"})]
    return [await traps.run("native:extractwithindistance", {"INPUT": "wells", "REFERENCE": "river", "DISTANCE": 500})]


def _read_within(route: str):
    if route == "count_within_distance":
        return lambda result: result.structured_content["count"]
    return lambda result: result.structured_content["layers"][0]["features"]


# r-spatial/qgisprocess#3: native:buffer with DISTANCE = 1 on a geographic layer made "what seems like a 1 degree
# buffer"; qgis/QGIS#50084: the buffer distance of an EPSG:4326 layer is in degrees (~111 km each).
@pytest.mark.parametrize("route", WITHIN_ROUTES)
@pytest.mark.parametrize("kind", ["trap", "twin"])
async def test_wells_within_500_m_of_a_river_in_degrees(traps, kind, route):
    _wells_near_a_river(traps, "EPSG:4326" if kind == "trap" else "EPSG:32631", 5.0, 45.0)
    steps = await _within(traps, route)
    traps.judge("within 500 m, layer in degrees", kind, route, steps, 3, tolerance=0, defect=("degree",),
                read=_read_within(route))


# geomoose/geomoose#83 "Buffer feature does not draw correct distance": 300 ft drawn as 180 ft, a metres/feet
# mix-up (600/180 ≈ 3937/1200); here 500 on a US survey feet layer is 152 m, not 500 m.
@pytest.mark.parametrize("route", WITHIN_ROUTES)
@pytest.mark.parametrize("kind", ["trap", "twin"])
async def test_wells_within_500_m_of_a_river_in_us_survey_feet(traps, kind, route):
    _wells_near_a_river(traps, "EPSG:2227" if kind == "trap" else "EPSG:32610", -122.0, 37.5)  # California
    steps = await _within(traps, route)
    traps.judge("within 500 m, layer in US feet", kind, route, steps, 3, tolerance=0, defect=("foot", "feet"),
                read=_read_within(route))


# qgis/QGIS#35629 "Big difference in values between cartesian and ellipsoidal areas": 357.91 m² in EPSG:3857 for
# 217.55 m² on the ground; Battersby et al. 2014, "Implications of Web Mercator and its use in online mapping",
# Cartographica 49(2). A project with no ellipsoid makes $area planar (qgis/QGIS#42228: qgis_process, no ellipsoid).
@pytest.mark.parametrize("route", ("field calculator $area", "measure_area"))
@pytest.mark.parametrize("kind", ["trap", "twin"])
async def test_a_web_mercator_area_with_no_ellipsoid(traps, kind, route):
    from qgis.core import QgsProject

    QgsProject.instance().setEllipsoid("NONE")
    plot = "POLYGON((0 5115000,100 5115000,100 5115120,0 5115120,0 5115000))"  # 41.7° N
    truth = traps.equal_area(plot, "EPSG:3857")
    if kind == "trap":
        traps.layer("plot", "Polygon", "EPSG:3857", [plot])
    else:
        from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsGeometry

        moved = QgsGeometry.fromWkt(plot)
        moved.transform(QgsCoordinateTransform(QgsCoordinateReferenceSystem("EPSG:3857"),
                                               QgsCoordinateReferenceSystem("EPSG:32631"), QgsProject.instance()))
        traps.layer("plot", "Polygon", "EPSG:32631", [moved.asWkt()])
    if route == "measure_area":
        steps = [await traps.call("measure_area", {"layer": "plot"})]
    else:
        steps = [await traps.run("native:fieldcalculator", {"INPUT": "plot", "FIELD_NAME": "area", "FIELD_TYPE": 0,
                                                            "FORMULA": "$area"})]
    traps.judge("Web Mercator, no ellipsoid", kind, route, steps, truth, tolerance=5e-3,
                defect=("web mercator", "planar"), read=_read_area("measure_area" if route == "measure_area" else "x"))
