"""STAC imagery as Processing outputs: `stacgis:loaditems` writes a STAC item's asset as a standalone GeoTIFF
whose pixels are the source COG's (and which holds no href or credential), `stacgis:spectralindex` writes
the index the chat's compute_index computes; a cancelled run writes nothing; a wrong collection or an
unsafe destination is refused in a sentence; both chain in a Processing model built with QGIS's model
classes, with the numbers the steps give one by one. Real QGIS Processing, a real STAC API, COGs over HTTP."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import httpx
import numpy as np
import pytest
from osgeo import gdal
from qgis.core import QgsApplication, QgsProcessingException, QgsProcessingFeedback, QgsProject

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.tools.canvas.processing.provider import INDICES, StacGisProvider
from stacgis_agent.tools.server import build_server
from testkit.qgis_drivers.processing_framework import start_processing
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient
from testkit.worlds.collection_world import COLLECTION, DATES, NODATA, OFFSET, SCALE, served_collection_world

SLOW_COLLECTION = "s2-lyon-slow"
SECRET = "processing-secret-7f3a"  # the catalog's API key: GDAL gets it through a header file, never the output


@pytest.fixture(scope="module")
def s2_servers(tmp_path_factory):
    with served_collection_world(tmp_path_factory.mktemp("s2")) as served:
        yield served


@pytest.fixture
def provider(qgis_app, s2_servers, tmp_path):
    start_processing()  # QGIS's Processing framework, as in the desktop app
    api, world = s2_servers
    cog_host = urlparse(world.base_url).netloc
    settings = Settings(catalogs=[CatalogConfig(name="test", url=api.url, headers={"X-Api-Key": SECRET},
                                                asset_hosts=[cog_host])])
    outputs = tmp_path / "plugin-outputs"
    made = StacGisProvider(lambda: settings, lambda: outputs, build_server)
    registry = QgsApplication.processingRegistry()
    assert registry.addProvider(made)
    yield made, outputs
    registry.removeProvider(made)


def _bbox(world) -> list[float]:
    ring = world.area["coordinates"][0]
    xs, ys = [p[0] for p in ring], [p[1] for p in ring]
    return [min(xs), min(ys), max(xs), max(ys)]


def _extent(bbox: list[float]) -> str:
    return f"{bbox[0]},{bbox[2]},{bbox[1]},{bbox[3]} [EPSG:4326]"


def _assert_standalone(path: Path, world) -> None:
    """A plain GeoTIFF: no VRT, no href of the catalog's, no header file, no credential inside."""
    assert gdal.Open(str(path)).GetDriver().ShortName == "GTiff"
    data = path.read_bytes()
    for text in (SECRET, world.base_url, urlparse(world.base_url).netloc, "header_file", "vsicurl"):
        assert text.encode() not in data, text


def test_loaded_item_is_a_geotiff_with_the_source_cogs_pixels(provider, s2_servers, tmp_path):
    import processing

    _made, outputs = provider
    _api, world = s2_servers
    item_id = f"A-{DATES[0]}"
    destination = tmp_path / "chosen" / "red.tif"
    result = processing.run("stacgis:loaditems", {"COLLECTION": COLLECTION, "ITEM_IDS": item_id, "ASSET": "red",
                                                  "OUTPUT": str(destination)})
    assert result["OUTPUT"] == str(destination)
    written, source = gdal.Open(str(destination)), gdal.Open(str(world.root / item_id / "red.tif"))
    assert written.GetGeoTransform() == source.GetGeoTransform()
    assert (written.RasterXSize, written.RasterYSize) == (source.RasterXSize, source.RasterYSize)
    assert np.array_equal(written.ReadAsArray(), source.ReadAsArray())
    assert np.array_equal(written.ReadAsArray(), world.bands[item_id]["red"])
    band = written.GetRasterBand(1)  # the catalog's band metadata travels with the pixels
    assert band.GetScale() == pytest.approx(SCALE) and band.GetOffset() == pytest.approx(OFFSET)
    assert band.GetNoDataValue() == NODATA and band.GetDescription() == "red"
    _assert_standalone(destination, world)
    # nothing but the chosen file (and GDAL's own sidecar): no VRT, no header file beside it or in the outputs
    assert sorted(p.name for p in destination.parent.iterdir()) in (["red.tif"], ["red.tif", "red.tif.aux.xml"])
    assert not outputs.exists() or not any(outputs.rglob("*"))


def test_items_found_over_an_extent_and_dates_come_out_as_the_same_pixels(provider, s2_servers, tmp_path):
    import processing

    _api, world = s2_servers
    result = processing.run("stacgis:loaditems", {
        "COLLECTION": COLLECTION, "EXTENT": _extent(_bbox(world)), "DATETIME": DATES[1], "MAX_ITEMS": 5,
        "ASSET": "nir", "OUTPUT": "TEMPORARY_OUTPUT"})
    written = gdal.Open(result["OUTPUT"])
    window = world.bands[f"A-{DATES[1]}"]["nir"]
    assert np.array_equal(written.ReadAsArray(), window)
    _assert_standalone(Path(result["OUTPUT"]), world)


def test_items_that_make_several_rasters_are_refused_in_a_sentence(provider, s2_servers, tmp_path):
    import processing

    destination = tmp_path / "both.tif"
    with pytest.raises(QgsProcessingException, match=r"make 2 separate rasters .*one per CRS"):
        processing.run("stacgis:loaditems", {"COLLECTION": COLLECTION, "ITEM_IDS": f"A-{DATES[2]}, B-{DATES[2]}",
                                             "ASSET": "red", "OUTPUT": str(destination)})
    assert not destination.exists()


def test_a_wrong_collection_says_so_and_names_the_known_ones(provider, tmp_path):
    import processing

    for algorithm, params in (("stacgis:loaditems", {"ITEM_IDS": "x"}),
                              ("stacgis:spectralindex", {"ITEM_ID": "x", "INDEX": 0})):
        with pytest.raises(QgsProcessingException,
                           match=rf"Collection 'no-such' is not in catalog 'test'\. Known collections: {COLLECTION}"):
            processing.run(algorithm, {"COLLECTION": "no-such", **params, "OUTPUT": str(tmp_path / "x.tif")})
    assert not (tmp_path / "x.tif").exists()


def test_a_destination_that_is_a_link_or_not_a_geotiff_is_refused(provider, tmp_path):
    import processing

    elsewhere = tmp_path / "elsewhere.tif"
    elsewhere.write_bytes(b"the analyst's file")
    link = tmp_path / "link.tif"
    link.symlink_to(elsewhere)
    with pytest.raises(QgsProcessingException, match="is a link to .*written elsewhere"):
        processing.run("stacgis:loaditems", {"COLLECTION": COLLECTION, "ITEM_IDS": f"A-{DATES[0]}",
                                             "OUTPUT": str(link)})
    assert elsewhere.read_bytes() == b"the analyst's file"
    with pytest.raises(QgsProcessingException, match=r"written as a GeoTIFF: choose a \.tif file"):
        processing.run("stacgis:spectralindex", {"COLLECTION": COLLECTION, "ITEM_ID": f"A-{DATES[0]}",
                                                 "OUTPUT": str(tmp_path / "index.vrt")})


async def test_spectral_index_equals_the_chats_compute_index(provider, s2_servers, qgis_iface, qgis_new_project,
                                                             tmp_path):
    import processing

    api, world = s2_servers
    item_id = f"A-{DATES[1]}"  # the date with a cloud block in its SCL: masked by both
    destination = tmp_path / "ndvi.tif"
    result = processing.run("stacgis:spectralindex", {"COLLECTION": COLLECTION, "ITEM_ID": item_id,
                                                      "INDEX": INDICES.index("NDVI"), "OUTPUT": str(destination)})
    assert result["OUTPUT"] == str(destination)
    async with httpx.AsyncClient() as http:
        client = OneShotClient(build_server(canvas_deps(http, api.url, str(tmp_path / "mcp"), qgis_iface),
                                            canvas=True))
        chat = await client.call_tool("compute_index", {"index": "ndvi", "collection": COLLECTION, "item_id": item_id})
    QgsProject.instance().removeAllMapLayers()
    assert not chat.is_error, chat.content[0].text
    mine = gdal.Open(str(destination)).ReadAsArray()
    theirs = gdal.Open(chat.structured_content["file"]).ReadAsArray()
    assert mine.shape == theirs.shape and np.array_equal(np.isnan(mine), np.isnan(theirs))
    valid = mine[np.isfinite(mine)]
    assert valid.size == chat.structured_content["valid_pixels"] > 0
    assert float(valid.mean()) == pytest.approx(chat.structured_content["mean"], abs=1e-6)
    assert float(valid.min()) == pytest.approx(float(np.nanmin(theirs)), abs=1e-6)
    assert float(valid.max()) == pytest.approx(float(np.nanmax(theirs)), abs=1e-6)
    assert 0.1 < float(valid.mean()) < 0.9  # NDVI of the world's red/nir ramps, not zeros
    _assert_standalone(destination, world)


@pytest.fixture(scope="module")
def slow_collection(s2_servers):
    """The same items in a second collection whose COGs answer every request half a second late."""
    from testkit.servers.slow_cogs import SlowCogServer

    api, world = s2_servers
    slow = SlowCogServer(world.root, delay_s=0.5).start()
    items = [{**json.loads(json.dumps(item).replace(world.base_url, slow.url)), "collection": SLOW_COLLECTION}
             for item in world.items]
    api.load([{**world.collection(), "id": SLOW_COLLECTION}], items)
    yield slow
    slow.stop()


def test_a_run_cancelled_while_reading_stops_and_writes_nothing(provider, slow_collection, tmp_path):
    from qgis.core import QgsProcessingContext

    registry = QgsApplication.processingRegistry()
    for algorithm_id, params in (("stacgis:spectralindex", {"ITEM_ID": f"A-{DATES[0]}", "INDEX": 0}),
                                 ("stacgis:loaditems", {"ITEM_IDS": f"A-{DATES[0]}"})):
        destination = tmp_path / f"{algorithm_id.split(':')[1]}.tif"
        algorithm = registry.createAlgorithmById(algorithm_id)
        feedback = QgsProcessingFeedback()
        before = slow_collection.requests
        pressed = threading.Event()

        def press_cancel_once_a_read_is_in_flight(feedback=feedback, before=before, pressed=pressed) -> None:
            while slow_collection.requests == before and not pressed.is_set():
                time.sleep(0.01)
            feedback.cancel()  # the analyst's Cancel button, while the COG server is still answering
            pressed.set()

        presser = threading.Thread(target=press_cancel_once_a_read_is_in_flight)
        presser.start()
        try:
            _results, ok = algorithm.run({"COLLECTION": SLOW_COLLECTION, **params, "OUTPUT": str(destination)},
                                         QgsProcessingContext(), feedback)
        finally:
            pressed.set()
            presser.join()
        assert slow_collection.requests > before, algorithm_id  # it was reading when cancelled
        assert not ok and not destination.exists(), algorithm_id
        feedback = QgsProcessingFeedback()
        feedback.cancel()  # cancelled before it starts
        _results, ok = algorithm.run({"COLLECTION": SLOW_COLLECTION, **params, "OUTPUT": str(destination)},
                                     QgsProcessingContext(), feedback)
        assert not ok and not destination.exists(), algorithm_id


def _parcels(world):
    """Two parcels over tile A in lon/lat: the world's area and a rectangle in its south-west corner."""
    from qgis.core import QgsFeature, QgsGeometry, QgsRectangle, QgsVectorLayer

    parcels = QgsVectorLayer("Polygon?crs=EPSG:4326&field=name:string", "parcels", "memory")
    west, south, east, north = _bbox(world)
    shapes = {"area": QgsGeometry.fromWkt(_wkt(world.area["coordinates"][0])),
              "corner": QgsGeometry.fromRect(QgsRectangle(west, south, west + (east - west) / 3,
                                                          south + (north - south) / 3))}
    for name, geometry in shapes.items():
        feature = QgsFeature(parcels.fields())
        feature.setAttributes([name])
        feature.setGeometry(geometry)
        parcels.dataProvider().addFeature(feature)
    return parcels


def _wkt(ring) -> str:
    return "POLYGON((" + ", ".join(f"{x} {y}" for x, y in ring) + "))"


def _index_then_zonal_model():
    """spectralindex → zonalstatistics, built with QGIS's model classes as the Modeler builds it."""
    from qgis.core import (
        QgsProcessing,
        QgsProcessingModelAlgorithm,
        QgsProcessingModelChildAlgorithm,
        QgsProcessingModelChildParameterSource,
        QgsProcessingModelOutput,
        QgsProcessingModelParameter,
        QgsProcessingParameterFeatureSource,
    )

    static = QgsProcessingModelChildParameterSource.fromStaticValue
    model = QgsProcessingModelAlgorithm("NDVI per parcel", "tests")
    model.addModelParameter(QgsProcessingParameterFeatureSource("parcels", "Parcels", [QgsProcessing.TypeVectorPolygon]),
                            QgsProcessingModelParameter("parcels"))
    index = QgsProcessingModelChildAlgorithm("stacgis:spectralindex")
    index.setChildId("index")
    for name, value in (("CATALOG", ""), ("COLLECTION", COLLECTION), ("ITEM_ID", f"A-{DATES[0]}"),
                        ("INDEX", INDICES.index("NDVI")), ("MASK_CLOUDS", True), ("EXACT", False)):
        index.addParameterSources(name, [static(value)])
    model.addChildAlgorithm(index)
    zonal = QgsProcessingModelChildAlgorithm("stacgis:zonalstatistics")
    zonal.setChildId("zonal")
    zonal.addParameterSources("RASTER", [QgsProcessingModelChildParameterSource.fromChildOutput("index", "OUTPUT")])
    zonal.addParameterSources("HREF", [static("")])
    zonal.addParameterSources("BAND", [static(1)])
    zonal.addParameterSources("ZONES", [QgsProcessingModelChildParameterSource.fromModelParameter("parcels")])
    output = QgsProcessingModelOutput("stats", "NDVI per parcel")
    output.setChildId("zonal")
    output.setChildOutputName("OUTPUT")
    zonal.setModelOutputs({"stats": output})
    model.addChildAlgorithm(zonal)
    model.updateDestinationParameters()
    return model


def test_index_then_zonal_statistics_chain_in_a_model_with_the_numbers_of_the_steps(provider, s2_servers, tmp_path):
    import processing
    from qgis.core import QgsRasterLayer, QgsVectorLayer

    _api, world = s2_servers
    parcels = _parcels(world)
    model = _index_then_zonal_model()
    [destination] = [d.name() for d in model.destinationParameterDefinitions()]
    chained = processing.run(model, {"parcels": parcels, destination: "TEMPORARY_OUTPUT"})
    table = chained[destination]
    table = table if not isinstance(table, str) else QgsVectorLayer(table, "stats", "ogr")
    from_model = {f["name"]: f for f in table.getFeatures()}

    step = processing.run("stacgis:spectralindex", {"COLLECTION": COLLECTION, "ITEM_ID": f"A-{DATES[0]}",
                                                    "INDEX": INDICES.index("NDVI"), "OUTPUT": str(tmp_path / "i.tif")})
    zonal = processing.run("stacgis:zonalstatistics", {"RASTER": QgsRasterLayer(step["OUTPUT"], "ndvi"), "BAND": 1,
                                                       "ZONES": parcels, "OUTPUT": "TEMPORARY_OUTPUT"})
    by_steps = {f["name"]: f for f in zonal["OUTPUT"].getFeatures()}
    assert sorted(from_model) == sorted(by_steps) == ["area", "corner"]
    for name, row in by_steps.items():
        for column in ("zs_weighted_mean", "zs_weighted_std", "zs_min", "zs_max", "zs_pixels_touched"):
            assert row[column] is not None
            assert from_model[name][column] == pytest.approx(row[column], abs=1e-9), (name, column)
    assert 0.1 < by_steps["area"]["zs_weighted_mean"] < 0.9


def test_loaded_items_chain_into_qgis_raster_layer_statistics_in_a_model(provider, s2_servers, tmp_path):
    """loaditems → native:rasterlayerstatistics: the model's statistics are those of the step run alone and
    of the source COG's pixels."""
    import processing
    from qgis.core import (
        QgsProcessingModelAlgorithm,
        QgsProcessingModelChildAlgorithm,
        QgsProcessingModelChildParameterSource,
        QgsProcessingModelOutput,
        QgsRasterLayer,
    )

    _api, world = s2_servers
    item_id = f"A-{DATES[0]}"  # nir rises from north to south: a mean that is not any single pixel
    static = QgsProcessingModelChildParameterSource.fromStaticValue
    model = QgsProcessingModelAlgorithm("Statistics of a STAC asset", "tests")
    load = QgsProcessingModelChildAlgorithm("stacgis:loaditems")
    load.setChildId("load")
    for name, value in (("CATALOG", ""), ("COLLECTION", COLLECTION), ("ITEM_IDS", item_id), ("ASSET", "nir"),
                        ("MAX_ITEMS", 20)):
        load.addParameterSources(name, [static(value)])
    model.addChildAlgorithm(load)
    stats = QgsProcessingModelChildAlgorithm("native:rasterlayerstatistics")
    stats.setChildId("stats")
    stats.addParameterSources("INPUT", [QgsProcessingModelChildParameterSource.fromChildOutput("load", "OUTPUT")])
    stats.addParameterSources("BAND", [static(1)])
    report = QgsProcessingModelOutput("report", "Statistics report")
    report.setChildId("stats")
    report.setChildOutputName("OUTPUT_HTML_FILE")
    stats.setModelOutputs({"report": report})
    model.addChildAlgorithm(stats)
    model.updateDestinationParameters()
    [destination] = [d.name() for d in model.destinationParameterDefinitions()]
    chained = processing.run(model, {destination: str(tmp_path / "report.html")})
    from_model = chained["CHILD_RESULTS"]["stats"]

    step = processing.run("stacgis:loaditems", {"COLLECTION": COLLECTION, "ITEM_IDS": item_id, "ASSET": "nir",
                                                "OUTPUT": str(tmp_path / "nir.tif")})
    alone = processing.run("native:rasterlayerstatistics", {"INPUT": QgsRasterLayer(step["OUTPUT"], "nir"),
                                                            "BAND": 1})
    raw = world.bands[item_id]["nir"].astype(np.float64)
    physical = raw[raw != NODATA] * SCALE + OFFSET
    for key in ("MEAN", "MIN", "MAX", "STD_DEV"):
        assert from_model[key] == pytest.approx(alone[key], abs=1e-9), key
    assert from_model["MEAN"] == pytest.approx(physical.mean(), abs=1e-6)  # QGIS applies the scale and offset
