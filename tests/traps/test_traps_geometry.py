"""Traps of geometry: the 2D length of a pipe with heights, a self-crossing ("bowtie") ring, a centroid outside its
L-shaped parcel, points on the line between two districts, a shapefile hole wound like an outer ring. Each with its
clean twin."""

from __future__ import annotations

import pytest


def _total(field: str):
    def read(result):
        from qgis.core import QgsProject

        layer = QgsProject.instance().mapLayer(result.structured_content["layers"][0]["id"])
        return sum(float(f[field]) for f in layer.getFeatures())
    return read


def _method_parameter() -> str:
    """Add geometry attributes' method: CALC_METHOD up to QGIS 3.40, METHOD since it moved to C++ (3.44)."""
    from qgis.core import QgsApplication

    alg = QgsApplication.processingRegistry().algorithmById("qgis:exportaddgeometrycolumns")
    return "CALC_METHOD" if alg.parameterDefinition("CALC_METHOD") is not None else "METHOD"


# qgis/QGIS#41115 "lineStringZ length calculation function": $length and length() are 2D; nothing in the field
# calculator measured a LineStringZ along its slope. A pipe 400 m across and 300 m down is 500 m long.
@pytest.mark.parametrize("route", ("add geometry attributes (ellipsoidal)", "measure_length"))
@pytest.mark.parametrize("kind", ["trap", "twin"])
async def test_the_length_of_a_pipe_with_heights(traps, kind, route):
    if kind == "trap":
        traps.layer("pipes", "LineStringZ", "EPSG:32631", ["LINESTRING Z(500000 5000000 300, 500400 5000000 0)"])
        truth = 500.0
    else:
        traps.layer("pipes", "LineString", "EPSG:32631", ["LINESTRING(500000 5000000, 500400 5000000)"])
        truth = 400.0
    if route == "measure_length":
        steps = [await traps.call("measure_length", {"layer": "pipes"})]
        read = lambda result: result.structured_content["total"]["length_m"]  # noqa: E731
    else:
        steps = [await traps.run("qgis:exportaddgeometrycolumns", {"INPUT": "pipes", _method_parameter(): 2})]
        read = _total("length")
    traps.judge("3D pipe length", kind, route, steps, truth, tolerance=3e-3, defect=("2d", "heights"), read=read)


BOWTIE = "POLYGON((500000 5000000,500200 5000100,500200 5000000,500000 5000060,500000 5000000))"
BOWTIE_LOBES = ("MULTIPOLYGON(((500000 5000000,500075 5000037.5,500000 5000060,500000 5000000)),"
                "((500075 5000037.5,500200 5000100,500200 5000000,500075 5000037.5)))")  # 2,250 + 6,250 m²


# openlayers/openlayers#4010 "Area calculation not proper while drawing a polygon intersecting it's own shape": the
# area of a self-crossing ring came back as the difference of its two lobes (here 4,000 for 8,500 m²).
@pytest.mark.parametrize("route", ("field calculator $area", "measure_area"))
@pytest.mark.parametrize("kind", ["trap", "twin"])
async def test_the_area_of_a_self_crossing_field(traps, kind, route):
    traps.layer("field", "MultiPolygon", "EPSG:32631", [BOWTIE if kind == "trap" else BOWTIE_LOBES])
    if route == "measure_area":
        steps = [await traps.call("measure_area", {"layer": "field"})]
        read = lambda result: result.structured_content["total"]["area_m2"]  # noqa: E731
    else:
        steps = [await traps.run("native:fieldcalculator", {"INPUT": "field", "FIELD_NAME": "area", "FIELD_TYPE": 0,
                                                            "FORMULA": "$area"})]
        read = _total("area")
    traps.judge("bowtie area", kind, route, steps, traps.equal_area(BOWTIE_LOBES, "EPSG:32631"), tolerance=3e-3,
                defect=("invalid", "self-crossing", "self-intersection"), read=read)


# CartoDB/camshaft#118 "Allow 'in surface' option for centroid analysis": centroids intersected again with their
# polygons fall outside some of them (Japan); r-spatial/sf#1302 asks for a centroid guaranteed inside.
@pytest.mark.parametrize("kind", ["trap", "twin"])
async def test_which_district_holds_a_parcel_joined_by_its_centroid(traps, kind):
    # district A is an L around the corner square B; the L-shaped parcel lies wholly in A, its centroid (32, 32) in B
    traps.layer("districts", "Polygon", "EPSG:32631", [
        "POLYGON((-10 -10,110 -10,110 25,25 25,25 110,-10 110,-10 -10))", "POLYGON((25 25,110 25,110 110,25 110,25 25))"],
        "&field=district:string", [("A",), ("B",)])
    parcel = "POLYGON((0 0,100 0,100 20,20 20,20 100,0 100,0 0))" if kind == "trap" else "POLYGON((0 0,20 0,20 100,0 100,0 0))"
    traps.layer("parcels", "Polygon", "EPSG:32631", [parcel], "&field=parcel:string", [("P1",)])
    centroids = await traps.run("native:centroids", {"INPUT": "parcels"})
    steps = [centroids]
    if not centroids.is_error:
        steps.append(await traps.run("native:joinattributesbylocation", {
            "INPUT": centroids.structured_content["layers"][0]["id"], "JOIN": "districts", "PREDICATE": [0],
            "JOIN_FIELDS": ["district"], "METHOD": 0}))
    traps.judge("centroid outside its parcel", kind, "centroids + join by location", steps, "A", tolerance=0,
                defect=("outside their own polygon", "pointonsurface"),
                read=lambda result: str(next(traps.output(result).getFeatures())["district"]))


# roocs/clisops#99 "subset_shape excludes points lying on the polygon boundary"; rapidsai/cuspatial#744 "Point-in-
# polygon primitive should be consistent over boundary condition". Twelve wells, four on the shared boundary.
@pytest.mark.parametrize("kind", ["trap", "twin"])
async def test_wells_counted_in_two_districts_that_share_a_boundary(traps, kind):
    traps.layer("districts", "Polygon", "EPSG:32631",
                ["POLYGON((0 0,100 0,100 100,0 100,0 0))", "POLYGON((100 0,200 0,200 100,100 100,100 0))"])
    on_line = 100 if kind == "trap" else 101
    wells = [f"POINT({x} {y})" for x in (30, 60, 140, 170) for y in (30, 60)]
    wells += [f"POINT({on_line} {y})" for y in (20, 40, 60, 80)]
    traps.layer("wells", "Point", "EPSG:32631", wells)
    steps = [await traps.run("native:countpointsinpolygon", {"POLYGONS": "districts", "POINTS": "wells"})]
    traps.judge("points on a shared boundary", kind, "count points in polygon", steps, 12, tolerance=0,
                defect=("boundary",), read=_total("NUMPOINTS"))


# ESRI Shapefile Technical Description (1998), p. 8: holes are counter-clockwise; NetTopologySuite.IO.ShapeFile#70
# "Cannot read a polygon with a hole from a ShapeFile" (a hole wound like a shell); OSGeo/gdal#7907 (ONLY_CCW):
# OGR reads a clockwise hole as a second shell, and the lot's area comes back 31,000 m² for 29,000.
@pytest.mark.parametrize("route", ("field calculator $area", "measure_area"))
@pytest.mark.parametrize("kind", ["trap", "twin"])
async def test_a_shapefile_lot_with_a_hole_wound_like_a_shell(traps, kind, route, tmp_path):
    from qgis.core import QgsProject, QgsVectorLayer

    from testkit.worlds.trap_files import LOT_WITH_HOLE, write_lot_shapefile

    path = write_lot_shapefile(tmp_path / "lot.shp", hole_wound_like_a_shell=kind == "trap")
    layer = QgsVectorLayer(str(path), "lot", "ogr")
    assert layer.isValid()
    QgsProject.instance().addMapLayer(layer)
    if route == "measure_area":
        steps = [await traps.call("measure_area", {"layer": "lot"})]
        read = lambda result: result.structured_content["total"]["area_m2"]  # noqa: E731
    else:
        steps = [await traps.run("native:fieldcalculator", {"INPUT": "lot", "FIELD_NAME": "area", "FIELD_TYPE": 0,
                                                            "FORMULA": "$area"})]
        read = _total("area")
    traps.judge("shapefile hole wound as a shell", kind, route, steps, traps.equal_area(LOT_WITH_HOLE, "EPSG:32631"),
                tolerance=3e-3, defect=("invalid", "shell", "nested"), read=read)
