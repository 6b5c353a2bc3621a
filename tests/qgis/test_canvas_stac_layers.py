"""STAC items become real QGIS layers through the MCP tools, read in place over HTTP (real STAC API, real COGs)."""

from __future__ import annotations

import httpx
import pytest
from qgis.core import (
    QgsMultiBandColorRenderer,
    QgsPalettedRasterRenderer,
    QgsPointXY,
    QgsProject,
    QgsRasterLayer,
    QgsSingleBandPseudoColorRenderer,
    QgsVectorLayer,
)

from stacgis_agent.tools.server import build_server
from testkit.qgis_drivers.canvas_fixtures import (
    NDVI_NODATA,
    SCL_CLASSES,
    SERIES_DATES,
    TILE_DEG,
    TILES_NORTH,
    TILES_WEST,
)
from testkit.servers.canvas_servers import canvas_deps, canvas_stac, gdal_test_config
from testkit.servers.mcp_calls import OneShotClient


@pytest.fixture(scope="module")
def stac(tmp_path_factory):
    with gdal_test_config(), canvas_stac(tmp_path_factory.mktemp("canvas-cogs")) as (cogs, api, data):
        yield cogs, api, data


@pytest.fixture
async def tools(stac, qgis_iface, qgis_new_project, tmp_path):
    cogs, api, data = stac
    async with httpx.AsyncClient(timeout=20) as http:
        deps = canvas_deps(http, api.url, str(tmp_path), qgis_iface)
        yield OneShotClient(build_server(deps, canvas=True)), deps, data, cogs
    QgsProject.instance().removeAllMapLayers()


def _layers() -> list:
    root = QgsProject.instance().layerTreeRoot()
    return [node.layer() for node in root.findLayers()]


async def test_one_item_one_asset_is_a_raster_layer_read_over_vsicurl(tools):
    client, _deps, _data, cogs = tools
    cogs.reset_counts()
    result = await client.call_tool("load_stac_asset", {"collection": "tiles", "item_id": "tile-0", "asset": "data"})
    assert not result.is_error, result.content[0].text
    [layer] = _layers()
    assert isinstance(layer, QgsRasterLayer) and layer.isValid()
    assert layer.source().startswith("/vsicurl/http://127.0.0.1:") and layer.source().endswith("/tile-0.tif")
    assert cogs.range_requests["/tile-0.tif"] >= 1  # read in place, by ranges
    assert isinstance(layer.renderer(), QgsSingleBandPseudoColorRenderer)  # elevation → terrain ramp
    assert [link.url for link in layer.metadata().links()] == [f"{_deps.catalogs.get().config.url}/collections/tiles/items/tile-0"]
    assert layer.temporalProperties().isActive()
    assert layer.temporalProperties().fixedTemporalRange().begin().toString("yyyy-MM-dd") == "2024-06-01"


async def test_three_adjacent_items_become_one_mosaic_covering_all_three(tools):
    client, _deps, data, _cogs = tools
    result = await client.call_tool("load_stac_items", {"collection": "tiles", "item_ids": data.ids("tiles")})
    assert not result.is_error, result.content[0].text
    rasters = [lyr for lyr in _layers() if isinstance(lyr, QgsRasterLayer)]
    assert len(rasters) == 1
    mosaic = rasters[0]
    extent = mosaic.extent()
    assert extent.xMinimum() == pytest.approx(TILES_WEST)
    assert extent.xMaximum() == pytest.approx(TILES_WEST + 3 * TILE_DEG)
    assert extent.yMaximum() == pytest.approx(TILES_NORTH)
    assert mosaic.source().endswith(".vrt")
    group = QgsProject.instance().layerTreeRoot().findGroup(result.structured_content["group"])
    assert group is not None and [n.layer() for n in group.findLayers()] == [mosaic]
    # scale/offset/nodata from raster:bands reach QGIS: raw 0.5*v+10; the corner block is nodata
    provider = mosaic.dataProvider()
    assert provider.sourceHasNoDataValue(1) and provider.sourceNoDataValue(1) == -9999.0
    value, ok = provider.sample(QgsPointXY(TILES_WEST + 2.5 * TILE_DEG, TILES_NORTH - 0.5 * TILE_DEG), 1)
    assert ok and 40 < value < 100  # 0.5 × (≈100 ± 70) + 10
    assert len(mosaic.metadata().links()) == 3
    temporal = mosaic.temporalProperties().fixedTemporalRange()
    assert temporal.begin().toString("yyyy-MM-dd") == "2024-06-01" and temporal.end().toString("yyyy-MM-dd") == "2024-06-03"


async def test_visual_asset_gets_a_multiband_colour_renderer(tools):
    client, *_ = tools
    result = await client.call_tool("load_stac_asset", {"collection": "visual", "item_id": "visual-1"})
    assert not result.is_error, result.content[0].text
    [layer] = _layers()
    renderer = layer.renderer()
    assert isinstance(renderer, QgsMultiBandColorRenderer)
    assert (renderer.redBand(), renderer.greenBand(), renderer.blueBand()) == (1, 2, 3)
    assert renderer.redContrastEnhancement().maximumValue() == 255


async def test_red_green_blue_assets_are_stacked_into_one_rgb_layer_with_scale(tools):
    client, *_ = tools
    result = await client.call_tool("load_stac_asset", {"collection": "s2like", "item_id": "s2-1"})
    assert not result.is_error, result.content[0].text
    [layer] = _layers()
    assert layer.bandCount() == 3 and isinstance(layer.renderer(), QgsMultiBandColorRenderer)
    provider = layer.dataProvider()
    # red: raw 1200 (east half) × 0.0001 − 0.1 = 0.02 reflectance; the STAC scale/offset went into the VRT
    red, ok = provider.sample(QgsPointXY(TILES_WEST + 0.75 * TILE_DEG, TILES_NORTH - 0.5 * TILE_DEG), 1)
    assert ok and red == pytest.approx(0.02, abs=1e-6)
    blue, ok = provider.sample(QgsPointXY(TILES_WEST + 0.25 * TILE_DEG, TILES_NORTH - 0.5 * TILE_DEG), 3)
    assert ok and blue == pytest.approx(0.04, abs=1e-6)  # raw 1400
    # the pitfall: raw green 1000 scales to exactly 0.0; nodata is on raw values (0), so it stays visible
    green, ok = provider.sample(QgsPointXY(TILES_WEST + 0.75 * TILE_DEG, TILES_NORTH - 0.5 * TILE_DEG), 2)
    assert ok and green == pytest.approx(0.0, abs=1e-6)
    assert provider.sourceNoDataValue(2) == 0
    stretch = layer.renderer().redContrastEnhancement()
    assert 0.0 < stretch.minimumValue() < stretch.maximumValue() < 0.2


async def test_single_band_index_gets_a_diverging_pseudocolour_ramp_and_nodata(tools):
    client, *_ = tools
    result = await client.call_tool("load_stac_asset", {"collection": "ndvi", "item_id": "ndvi-1"})
    assert not result.is_error, result.content[0].text
    [layer] = _layers()
    renderer = layer.renderer()
    assert isinstance(renderer, QgsSingleBandPseudoColorRenderer)
    assert renderer.classificationMin() == pytest.approx(-renderer.classificationMax())  # centred on 0
    assert 0.5 < renderer.classificationMax() <= 1.0
    assert layer.dataProvider().sourceNoDataValue(1) == NDVI_NODATA
    _, ok = layer.dataProvider().sample(QgsPointXY(TILES_WEST + 0.5 * TILE_DEG, TILES_NORTH - 0.005), 1)
    assert not ok  # the nodata rows show nothing
    stops = renderer.shader().rasterShaderFunction().colorRampItemList()
    assert len(stops) >= 5 and stops[0].color != stops[-1].color
    # a band the catalog names only by its asset: the legend says what it is, not "Band 1 (Gray)"
    assert "Gray" not in layer.bandName(1) and "ndvi" in layer.bandName(1).lower(), layer.bandName(1)


async def test_footprints_are_one_layer_with_item_ids_and_links(tools):
    client, _deps, data, _cogs = tools
    result = await client.call_tool("visualize_collection", {"collection": "tiles", "bbox": [5, 44, 8, 46],
                                                             "show_imagery": False})
    assert not result.is_error, result.content[0].text
    [layer] = _layers()
    assert isinstance(layer, QgsVectorLayer) and layer.featureCount() == 3
    ids = sorted(f["item_id"] for f in layer.getFeatures())
    assert ids == data.ids("tiles")
    assert all(f["item_link"].endswith(f"/collections/tiles/items/{f['item_id']}") for f in layer.getFeatures())
    assert {f["eo:cloud_cover"] for f in layer.getFeatures()} == {0, 5, 10}
    assert layer.temporalProperties().isActive()


async def test_visualize_collection_groups_footprints_and_mosaic(tools):
    client, *_ = tools
    result = await client.call_tool("visualize_collection", {"collection": "tiles", "datetime": "2024-06-01/2024-06-30"})
    assert not result.is_error, result.content[0].text
    group = QgsProject.instance().layerTreeRoot().findGroup(result.structured_content["group"])
    kinds = [type(n.layer()).__name__ for n in group.findLayers()]
    assert kinds == ["QgsVectorLayer", "QgsRasterLayer"]


async def test_items_in_two_crs_become_one_layer_per_crs_in_a_group(tools):
    client, *_ = tools
    result = await client.call_tool("load_stac_items", {"collection": "mixed", "item_ids": ["mixed-utm", "mixed-geo"]})
    assert not result.is_error, result.content[0].text
    crs = sorted(lyr.crs().authid() for lyr in _layers())
    assert crs == ["EPSG:32632", "EPSG:4326"]


async def test_a_bad_href_is_a_clear_error_and_adds_nothing(tools):
    client, *_ = tools
    result = await client.call_tool("load_stac_asset", {"collection": "visual", "item_id": "visual-1", "asset": "broken"})
    assert result.is_error
    text = result.content[0].text
    assert "missing.tif" in text and "nothing was added" in text
    assert _layers() == [] and QgsProject.instance().layerTreeRoot().children() == []


async def test_an_unreachable_asset_in_a_mosaic_adds_no_half_mosaic(tools, stac):
    client, _deps, data, cogs = tools
    from osgeo import gdal

    (cogs.root / "tile-2.tif").rename(cogs.root / "tile-2.bak")
    gdal.VSICurlClearCache()  # earlier tests read tile-2; make GDAL ask the server again
    try:
        result = await client.call_tool("load_stac_items", {"collection": "tiles", "item_ids": data.ids("tiles")})
    finally:
        (cogs.root / "tile-2.bak").rename(cogs.root / "tile-2.tif")
        gdal.VSICurlClearCache()  # so later tests see it again
    assert result.is_error and "tile-2" in result.content[0].text
    assert QgsProject.instance().mapLayers() == {} and QgsProject.instance().layerTreeRoot().children() == []


async def test_a_classified_band_gets_a_paletted_renderer_with_the_stac_class_names(tools):
    client, *_ = tools
    result = await client.call_tool("load_stac_asset", {"collection": "scl", "item_id": "scl-1"})
    assert not result.is_error, result.content[0].text
    [layer] = _layers()
    renderer = layer.renderer()
    assert isinstance(renderer, QgsPalettedRasterRenderer)
    assert {c.value: c.label for c in renderer.classes()} == {float(v): d for v, d in SCL_CLASSES.items()}
    assert len({c.color.name() for c in renderer.classes()}) == len(SCL_CLASSES)


async def test_search_items_file_feeds_load_stac_items(tools):
    client, *_ = tools
    found = await client.call_tool("search_items", {"collections": ["tiles"], "bbox": [5, 44, 8, 46], "limit": 10})
    assert not found.is_error, found.content[0].text
    path = found.structured_content["item_collection_file"]
    result = await client.call_tool("load_stac_items", {"item_collection_file": path, "footprints": True})
    assert not result.is_error, result.content[0].text
    group = QgsProject.instance().layerTreeRoot().findGroup(result.structured_content["group"])
    layers = [n.layer() for n in group.findLayers()]
    assert [type(lyr).__name__ for lyr in layers] == ["QgsVectorLayer", "QgsRasterLayer"]
    assert layers[0].featureCount() == 3


async def test_the_same_ground_on_several_days_becomes_a_time_series_for_the_temporal_controller(tools):
    client, _deps, data, _cogs = tools
    result = await client.call_tool("load_stac_items", {"collection": "series", "item_ids": data.ids("series")})
    assert not result.is_error, result.content[0].text
    group = QgsProject.instance().layerTreeRoot().findGroup(result.structured_content["group"])
    layers = [n.layer() for n in group.findLayers()]
    days = sorted(lyr.temporalProperties().fixedTemporalRange().begin().toString("yyyy-MM-dd") for lyr in layers)
    assert days == SERIES_DATES and all(lyr.temporalProperties().isActive() for lyr in layers)
    values = sorted(lyr.dataProvider().sample(QgsPointXY(TILES_WEST + 0.5 * TILE_DEG, TILES_NORTH - 0.5 * TILE_DEG), 1)[0]
                    for lyr in layers)
    assert values == [10.0, 20.0, 30.0]  # each day keeps its own pixels
