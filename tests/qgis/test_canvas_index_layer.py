"""compute_index puts NDVI on the map: values equal numpy on the item's own pixels, a diverging ramp centred
on 0 whose legend names the formula, and the bands used in the layer's name; a missing band is named.
collection_statistics takes its area from the feature selected on the map."""

from __future__ import annotations

import httpx
import numpy as np
import pytest
from osgeo import gdal
from qgis.core import QgsProject

from stacgis_agent.tools.server import build_server
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient
from testkit.worlds.collection_world import COLLECTION, DATES, NODATA, OFFSET, SCALE, served_collection_world


@pytest.fixture(scope="module")
def s2_servers(tmp_path_factory):
    with served_collection_world(tmp_path_factory.mktemp("s2")) as served:
        yield served


@pytest.fixture
async def tools(qgis_iface, qgis_new_project, tmp_path, s2_servers):
    api, world = s2_servers
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, api.url, str(tmp_path / "out"), qgis_iface)
        yield OneShotClient(build_server(deps, canvas=True)), world
    QgsProject.instance().removeAllMapLayers()


async def test_ndvi_of_one_item_is_on_the_map_with_a_diverging_ramp_and_a_legend_naming_the_formula(tools):
    client, world = tools
    item_id = f"A-{DATES[0]}"
    result = await client.call_tool("compute_index", {"index": "ndvi", "collection": COLLECTION,
                                                      "item_id": item_id, "exact": True})
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    layer = QgsProject.instance().mapLayersByName(data["layer"])[0]
    assert "NDVI" in layer.name() and "(nir − red) / (nir + red)" in layer.name()
    assert "nir = nir" in layer.name() and "red = red" in layer.name()
    # the pixels: numpy on the item's own pixels (scale/offset applied, nodata strip left out)
    raw = world.bands[item_id]
    red, nir = raw["red"] * SCALE + OFFSET, raw["nir"] * SCALE + OFFSET
    expected = np.where((raw["red"] == NODATA) | (raw["nir"] == NODATA), np.nan, (nir - red) / (nir + red))
    drawn = gdal.Open(data["file"]).ReadAsArray()
    assert drawn.shape == expected.shape
    assert np.array_equal(np.isnan(drawn), np.isnan(expected))
    assert np.allclose(drawn[~np.isnan(drawn)], expected[~np.isnan(expected)], atol=1e-6)
    renderer = layer.renderer()
    assert renderer.type() == "singlebandpseudocolor"
    assert renderer.classificationMin() == pytest.approx(-renderer.classificationMax())
    items = renderer.shader().rasterShaderFunction().colorRampItemList()
    assert "NDVI = (nir − red) / (nir + red)" in items[0].label
    assert items[0].color.red() > items[0].color.green() and items[-1].color.green() > items[-1].color.red()


async def test_an_item_without_the_bands_gets_an_error_naming_those_it_has(tools):
    client, _world = tools
    result = await client.call_tool("compute_index", {"index": "NBR", "collection": COLLECTION,
                                                      "item_id": f"A-{DATES[0]}"})
    assert result.is_error
    assert "no 'swir22' band" in result.content[0].text and "nir, red" in result.content[0].text
    assert QgsProject.instance().mapLayers() == {}


async def test_a_mosaic_over_an_area_and_date_spans_both_crs(tools):
    client, world = tools
    result = await client.call_tool("compute_index", {"index": "NDVI", "collection": COLLECTION,
                                                      "datetime": DATES[2], "polygon": world.area, "exact": True})
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    assert sorted(data["items"]) == [f"A-{DATES[2]}", f"B-{DATES[2]}"]
    drawn = gdal.Open(data["file"]).ReadAsArray()
    values = drawn[np.isfinite(drawn)]
    assert sorted(set(np.round(values.astype(float), 4).tolist())) == [0.5, 0.8]


async def test_statistics_over_the_parcel_selected_on_the_map_in_its_own_crs(tools):
    """The area can be a project layer's selected feature (here a parcel layer in UTM 31N)."""
    from qgis.core import QgsFeature, QgsGeometry, QgsVectorLayer

    from testkit.worlds.collection_world import EPSG_A, area_mask_by_centres, expected_ndvi, transformer

    client, world = tools
    to_utm = transformer(4326, EPSG_A)
    ring = ", ".join("{} {}".format(*to_utm.TransformPoint(lon, lat)[:2]) for lon, lat in world.area["coordinates"][0])
    parcels = QgsVectorLayer(f"Polygon?crs=EPSG:{EPSG_A}", "parcels", "memory")
    inside, elsewhere = QgsFeature(), QgsFeature()
    inside.setGeometry(QgsGeometry.fromWkt(f"POLYGON(({ring}))"))
    elsewhere.setGeometry(QgsGeometry.fromWkt("POLYGON((0 0, 10 0, 10 10, 0 0))"))
    parcels.dataProvider().addFeatures([inside, elsewhere])
    QgsProject.instance().addMapLayer(parcels)
    parcels.selectByIds([next(f.id() for f in parcels.getFeatures() if f.geometry().area() > 1000)])

    result = await client.call_tool("collection_statistics", {
        "collection": COLLECTION, "datetime": "2024-03-01/2024-03-31", "index": "NDVI",
        "use_selected_features": True, "exact": True})
    assert not result.is_error, result.content[0].text
    row = result.structured_content["rows"][0]
    expected = expected_ndvi(world, f"A-{DATES[0]}")
    assert row["valid_pixels"] == int(np.isfinite(expected).sum())
    assert row["mean"] == pytest.approx(float(np.nanmean(expected)), abs=1e-6)
    assert result.structured_content["area_pixels"] == int(area_mask_by_centres(world).sum())
