"""The product's analyses as Processing algorithms: `processing.run("stacgis:…")` in a real QGIS with
QGIS's Processing framework, against a real STAC API and COGs over HTTP, gives the same numbers as the
MCP tool the chat calls; footprints come back as a layer; Processing's cancel stops a run."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from qgis.core import QgsApplication, QgsProcessingFeedback

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.tools.canvas.processing.provider import StacGisProvider
from stacgis_agent.tools.server import build_server
from testkit.qgis_drivers.modeler_view import show_in_the_modeler
from testkit.qgis_drivers.processing_framework import start_processing
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient
from testkit.worlds.collection_world import COLLECTION, DATES, served_collection_world


@pytest.fixture(scope="module")
def s2_servers(tmp_path_factory):
    with served_collection_world(tmp_path_factory.mktemp("s2")) as served:
        yield served


@pytest.fixture
def provider(qgis_app, s2_servers, tmp_path):
    start_processing()  # QGIS's Processing framework, as in the desktop app
    api, _world = s2_servers
    settings = Settings(catalogs=[CatalogConfig(name="test", url=api.url)])
    outputs = tmp_path / "out"
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


async def test_collection_statistics_from_processing_equal_the_mcp_tool(provider, s2_servers, qgis_iface, tmp_path):
    import processing

    _made, outputs = provider
    api, world = s2_servers
    bbox = _bbox(world)
    result = processing.run("stacgis:collectionstatistics", {
        "COLLECTION": COLLECTION, "EXTENT": _extent(bbox), "DATETIME": "2024-03-01/2024-05-31",
        "INDEX": 0, "GROUP_BY": 0, "EXACT": True, "OUTPUT": "TEMPORARY_OUTPUT"})
    table = result["OUTPUT"]
    rows = {f["period"]: f for f in table.getFeatures()}
    assert Path(result["CSV"]).is_file() and Path(result["CHART"]).is_file()
    assert str(outputs) in result["CSV"]

    async with httpx.AsyncClient() as http:
        client = OneShotClient(build_server(canvas_deps(http, api.url, str(tmp_path / "mcp"), qgis_iface)))
        direct = await client.call_tool("collection_statistics", {
            "collection": COLLECTION, "bbox": bbox, "datetime": "2024-03-01/2024-05-31", "index": "NDVI",
            "group_by": "date", "exact": True})
    assert not direct.is_error, direct.content[0].text
    expected = direct.structured_content["rows"]
    assert sorted(rows) == sorted(r["period"] for r in expected) and len(expected) == len(DATES)
    for row in expected:
        for column in ("mean", "median", "min", "max", "std", "valid_pixels"):
            mine = rows[row["period"]][column]
            assert (mine is None or mine == pytest.approx(row[column], abs=1e-9)) and (mine is None) == (row[column] is None)


def test_search_writes_the_footprints_as_a_layer(provider, s2_servers):
    import processing

    _api, world = s2_servers
    result = processing.run("stacgis:searchfootprints", {
        "COLLECTION": COLLECTION, "EXTENT": _extent(_bbox(world)), "DATETIME": "2024-03-01/2024-05-31",
        "LIMIT": 20, "OUTPUT": "TEMPORARY_OUTPUT"})
    layer = result["OUTPUT"]
    ids = sorted(f["id"] for f in layer.getFeatures())
    expected = sorted(i["id"] for i in world.items if any(i["id"].endswith(d) for d in DATES))
    assert ids and set(ids) <= set(expected)
    assert layer.geometryType() == 2  # polygons


def test_a_cancelled_run_stops_with_a_sentence(provider, s2_servers):
    from qgis.core import QgsProcessingContext

    _api, world = s2_servers
    algorithm = QgsApplication.processingRegistry().createAlgorithmById("stacgis:collectionstatistics")
    feedback = QgsProcessingFeedback()
    feedback.cancel()
    context = QgsProcessingContext()
    params = {"COLLECTION": COLLECTION, "EXTENT": _extent(_bbox(world)), "DATETIME": "2024-03-01/2024-05-31",
              "INDEX": 0, "GROUP_BY": 0, "OUTPUT": "TEMPORARY_OUTPUT"}
    results, ok = algorithm.run(params, context, feedback)
    assert not ok


def test_the_provider_lists_its_algorithms_for_the_toolbox_and_the_modeler(provider):
    made, _outputs = provider
    ids = sorted(a.id() for a in made.algorithms())
    assert ids == ["stacgis:collectionstatistics", "stacgis:loaditems", "stacgis:searchfootprints",
                   "stacgis:spectralindex", "stacgis:zonalstatistics"]
    for algorithm in made.algorithms():
        assert algorithm.shortHelpString() and algorithm.group() in ("STAC", "Rasters")
        assert not algorithm.flags() & algorithm.FlagNoThreading  # runs in Processing's background task


async def test_a_chat_exported_as_a_model_runs_in_processing_and_rebuilds_its_numbers(provider, s2_servers,
                                                                                      qgis_iface, tmp_path,
                                                                                      monkeypatch):
    """The chat called collection_statistics; its .model3 has that step with the call's parameters, opens
    with QGIS's model classes and, run, gives the rows the chat got."""
    import processing
    from qgis.core import QgsProcessingModelAlgorithm

    from stacgis_agent.agent import events as ev
    from stacgis_agent.agent.stores.base import SessionInfo, SessionRecord
    from stacgis_agent.ui.model_export import write_model

    api, world = s2_servers
    args = {"collection": COLLECTION, "bbox": _bbox(world), "datetime": "2024-03-01/2024-05-31", "index": "ndvi",
            "group_by": "date", "exact": True}
    async with httpx.AsyncClient() as http:
        client = OneShotClient(build_server(canvas_deps(http, api.url, str(tmp_path / "mcp"), qgis_iface)))
        chat = await client.call_tool("collection_statistics", args)
    assert not chat.is_error
    events = [ev.UserMessage("NDVI over my area this spring?"), ev.ToolStart(1, "c1", "collection_statistics", args),
              ev.ToolResult(1, "c1", "collection_statistics", {"rows": 3}, 10.0),
              ev.ToolStart(2, "c2", "zoom_to_place", {"place": "Lyon"}),  # nothing Processing repeats
              ev.ToolResult(2, "c2", "zoom_to_place", {}, 1.0), ev.Content("Done.", is_complete=True)]
    record = SessionRecord(SessionInfo("s", "u", "Spring NDVI", 0, 0, 2), {}, [ev.event_to_dict(e) for e in events])
    path = tmp_path / "spring.model3"
    assert write_model(record, path) == 1

    model = QgsProcessingModelAlgorithm()
    assert model.fromFile(str(path))
    [child] = model.childAlgorithms().values()
    assert child.algorithmId() == "stacgis:collectionstatistics"
    assert child.parameterSources()["COLLECTION"][0].staticValue() == COLLECTION
    [destination] = [d.name() for d in model.destinationParameterDefinitions()]
    result = processing.run(model, {destination: "TEMPORARY_OUTPUT"})  # the model as the Modeler opened it
    table = result[destination] if not isinstance(result[destination], str) else None
    if table is None:
        from qgis.core import QgsVectorLayer

        table = QgsVectorLayer(result[destination], "t", "ogr")
    means = {f["period"]: f["mean"] for f in table.getFeatures()}
    assert means == pytest.approx({r["period"]: r["mean"] for r in chat.structured_content["rows"]})

    from qgis.PyQt.QtCore import QSize

    monkeypatch.setattr(qgis_iface, "iconSize", lambda dockedToolbar=False: QSize(24, 24), raising=False)
    show_in_the_modeler(model, ["Collection statistics over time"])


def _ramp_raster(path: Path) -> Path:
    """A 100 × 100 GeoTIFF in EPSG:4326 over 10–11° E, 50–51° N whose value is the column number."""
    import numpy as np
    from osgeo import gdal

    ds = gdal.GetDriverByName("GTiff").Create(str(path), 100, 100, 1, gdal.GDT_Float32)
    ds.SetGeoTransform((10.0, 0.01, 0, 51.0, 0, -0.01))
    ds.SetProjection('GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],'
                     'PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433],AUTHORITY["EPSG","4326"]]')
    ds.GetRasterBand(1).WriteArray(np.tile(np.arange(100, dtype=np.float32), (100, 1)))
    ds = None
    return path


async def test_zonal_statistics_from_processing_equal_the_mcp_tool_per_parcel(provider, qgis_iface, tmp_path):
    import processing
    from qgis.core import QgsFeature, QgsGeometry, QgsRasterLayer, QgsVectorLayer

    raster = _ramp_raster(tmp_path / "ramp.tif")
    parcels = QgsVectorLayer("Polygon?crs=EPSG:4326&field=name:string", "parcels", "memory")
    shapes = {"west": "POLYGON((10.103 50.2, 10.251 50.2, 10.251 50.4, 10.103 50.4, 10.103 50.2))",
              "east": "POLYGON((10.6 50.5, 10.9 50.5, 10.75 50.8, 10.6 50.5))"}
    for name, wkt in shapes.items():
        feature = QgsFeature(parcels.fields())
        feature.setAttributes([name])
        feature.setGeometry(QgsGeometry.fromWkt(wkt))
        parcels.dataProvider().addFeature(feature)
    result = processing.run("stacgis:zonalstatistics", {
        "RASTER": QgsRasterLayer(str(raster), "ramp"), "BAND": 1, "ZONES": parcels, "OUTPUT": "TEMPORARY_OUTPUT"})
    rows = {f["name"]: f for f in result["OUTPUT"].getFeatures()}
    assert sorted(rows) == ["east", "west"] and result["OUTPUT"].wkbType() == parcels.wkbType()

    async with httpx.AsyncClient() as http:
        client = OneShotClient(build_server(canvas_deps(http, None, str(tmp_path / "mcp"), qgis_iface)))
        for name, wkt in shapes.items():
            direct = await client.call_tool("compute_zonal_stats", {
                "source": str(raster), "band": 1, "crs": "EPSG:4326",
                "polygon": json.loads(QgsGeometry.fromWkt(wkt).asJson())})
            assert not direct.is_error, direct.content[0].text
            for column in ("weighted_mean", "weighted_std", "min", "max", "pixels_touched"):
                assert rows[name][f"zs_{column}"] == pytest.approx(direct.structured_content[column], abs=1e-9)
    # the west parcel covers columns 10.3 … 25.1: its area-weighted mean is the middle, not a pixel count
    assert rows["west"]["zs_weighted_mean"] == pytest.approx((10.3 + 25.1) / 2 - 0.5, abs=0.05)


def test_zonal_statistics_without_a_raster_says_what_to_give(provider, tmp_path):
    import processing
    from qgis.core import QgsProcessingException, QgsVectorLayer

    parcels = QgsVectorLayer("Polygon?crs=EPSG:4326", "parcels", "memory")
    with pytest.raises(QgsProcessingException, match="Give a raster layer or a STAC asset href"):
        processing.run("stacgis:zonalstatistics", {"ZONES": parcels, "OUTPUT": "TEMPORARY_OUTPUT"})
