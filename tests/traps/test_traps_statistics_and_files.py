"""Traps of statistics and files: the plain mean of a rate where each row stands for a different population, a raster
that its .aux.xml sidecar moves, an algorithm whose output is a folder. Each with its clean twin."""

from __future__ import annotations

import pytest


# danBhentschel/CGSpunk#54 "Calculated average score incorrectly": an average of the percentages instead of a
# weighted average; imperialCHEPI/healthgps#290: averages "MUST be weighted by the count field to make any sense".
@pytest.mark.parametrize("kind", ["trap", "twin"])
async def test_the_unemployment_rate_across_three_districts(traps, kind):
    populations = (100, 2194, 2194) if kind == "trap" else (1000, 1000, 1000)
    rates = (40.0, 0.5, 0.5)
    traps.layer("districts", "Polygon", "EPSG:32631", ["POLYGON((0 0,1 0,1 1,0 0))"] * 3,
                "&field=unemp_rate:double&field=population:integer", list(zip(rates, populations)))
    truth = sum(r * p for r, p in zip(rates, populations)) / sum(populations)  # 1.38 % (trap), 13.67 % (twin)
    steps = [await traps.run("qgis:basicstatisticsforfields", {"INPUT_LAYER": "districts", "FIELD_NAME": "unemp_rate"})]
    traps.judge("unweighted mean of a rate", kind, "basic statistics MEAN", steps, truth, tolerance=1e-3,
                defect=("unweighted", "weighted by"), read=lambda result: result.structured_content["results"]["MEAN"])


# versatiles-org/versatiles-rs#261 "rasters georeferenced by a .aux.xml sidecar no longer open"; OSGeo/gdal#909:
# GDAL_DISABLE_READDIR_ON_OPEN=EMPTY_DIR is "a way to disable loading side-car/auxiliary files". QGIS draws the
# raster where its sidecar puts it; a tool reading without sidecars looks 5° away.
@pytest.mark.parametrize("kind", ["trap", "twin"])
async def test_the_value_of_a_raster_at_a_place_on_the_map(traps, kind, tmp_path):
    from qgis.core import QgsProject, QgsRasterLayer

    from testkit.worlds.trap_files import write_scan

    layer = QgsRasterLayer(str(write_scan(tmp_path / "scan.tif", moved_by_sidecar=kind == "trap")), "scan", "gdal")
    QgsProject.instance().addMapLayer(layer)
    x, y = 10.505, 49.495  # column 50, row 50 as QGIS draws it
    steps = [await traps.call("query_raster_point", {"source": "scan", "x": x, "y": y})]
    traps.judge("raster moved by its .aux.xml", kind, "query_raster_point", steps, 50 * 100 + 50, tolerance=0,
                defect=("sidecar", "aux.xml"), read=lambda result: result.structured_content["values"][0]["value"])


# qgis/QGIS#40486 "QgsProcessingParameterFolderDestination default value issue in PointsToPath": the folder output
# OUTPUT_TEXT_DIR got a value that made the algorithm always fail; here every folder output was wrapped as a layer.
@pytest.mark.parametrize("kind", ["trap", "twin"])
async def test_split_the_wells_by_kind_into_a_folder(traps, kind):
    traps.layer("wells", "Point", "EPSG:32631", ["POINT(1 1)", "POINT(2 2)", "POINT(3 3)"], "&field=kind:string",
                [("spring",), ("spring",), ("bore",)])
    parameters = {"INPUT": "wells", "FIELD": "kind"}
    if kind == "twin":
        parameters["OUTPUT"] = str(traps.deps.output_dir() / "wells-by-kind")
    steps = [await traps.run("native:splitvectorlayer", parameters)]
    traps.judge("folder output", kind, "split vector layer", steps, 2, tolerance=0, defect=("folder",),
                read=lambda result: len(_as_list(result.structured_content["results"]["OUTPUT_LAYERS"])))


def _as_list(value):
    """OUTPUT_LAYERS as the tool returns it: a list (or, before, its text)."""
    if isinstance(value, list):
        return value
    return [part for part in str(value).strip("[]").split(",") if part.strip()]
