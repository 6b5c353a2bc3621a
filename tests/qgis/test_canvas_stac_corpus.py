"""Published STAC items (Planet-style blue-green-red-NIR, Maxar WorldView-2 in STAC 0.8, Planet with raster
statistics and scale, an item with only proj:projjson) loaded by the MCP tools into a real QGIS and judged as
an analyst would: on the rendered pixels and the legend. Each item's raster asset is a local COG painted in
stripes (testkit/worlds/stac_corpus.py): red in the west third, green in the middle, blue in the east."""

from __future__ import annotations

import json

import httpx
import pytest
from qgis.core import QgsLayerTreeLayer, QgsMultiBandColorRenderer, QgsProject, QgsRasterLayer
from qgis.PyQt.QtCore import Qt

from stacgis_agent.tools.server import build_server
from testkit.qgis_drivers.rendered_pixels import render
from testkit.servers.canvas_servers import canvas_deps, gdal_test_config
from testkit.servers.cog_server import CogServer
from testkit.servers.mcp_calls import OneShotClient
from testkit.worlds.stac_corpus import corpus_item, item_collection_file, localise, static_catalog

WIDTH = HEIGHT = 90  # the COGs are square: the whole image fills the render


@pytest.fixture(scope="module")
def cogs(tmp_path_factory):
    with gdal_test_config():
        server = CogServer(tmp_path_factory.mktemp("corpus-cogs")).start()
        yield server
        server.stop()


@pytest.fixture
def load(cogs, qgis_iface, qgis_new_project, tmp_path):
    """Loads published items, their asset rewritten to a local COG, with load_stac_items; returns the answer."""
    async def run(items: list[dict], asset: str | None = None):
        catalog = static_catalog(tmp_path / "catalog", items)
        async with httpx.AsyncClient(timeout=20) as http:
            deps = canvas_deps(http, str(catalog), str(tmp_path), qgis_iface)
            client = OneShotClient(build_server(deps, canvas=True))
            args = {"item_collection_file": str(item_collection_file(tmp_path, items))}
            if asset:
                args["asset"] = asset
            return await client.call_tool("load_stac_items", args)

    yield run
    QgsProject.instance().removeAllMapLayers()


def _raster() -> QgsRasterLayer:
    [layer] = [n.layer() for n in QgsProject.instance().layerTreeRoot().findLayers()
               if isinstance(n.layer(), QgsRasterLayer)]
    return layer


def _stripe_colours(layer: QgsRasterLayer) -> dict[str, tuple[int, int, int]]:
    """The colour QGIS draws in the middle of each stripe."""
    image = render([layer], layer.crs(), layer.extent(), WIDTH, HEIGHT)
    row = HEIGHT // 2
    return {name: tuple(int(v) for v in image[row, col, :3])
            for name, col in (("west", WIDTH // 6), ("middle", WIDTH // 2), ("east", 5 * WIDTH // 6))}


def _dominant(rgb: tuple[int, int, int]) -> str:
    return ("red", "green", "blue")[max(range(3), key=lambda i: rgb[i])]


def _legend(layer: QgsRasterLayer) -> list[str]:
    """The layer's entries in the Layers panel, as QGIS builds them."""
    nodes = layer.legend().createLayerTreeModelLegendNodes(QgsLayerTreeLayer(layer))
    return [str(node.data(Qt.ItemDataRole.DisplayRole)) for node in nodes]


async def test_blue_green_red_nir_analytic_is_drawn_in_true_colour_by_common_name(load, cogs):
    item = localise(corpus_item("stac-spec-extended-item.json"), "analytic", cogs.root, cogs.url)
    result = await load([item], asset="analytic")
    assert not result.is_error, result.content[0].text
    layer = _raster()
    renderer = layer.renderer()
    assert isinstance(renderer, QgsMultiBandColorRenderer)
    assert (renderer.redBand(), renderer.greenBand(), renderer.blueBand()) == (3, 2, 1)
    colours = _stripe_colours(layer)
    assert {k: _dominant(v) for k, v in colours.items()} == {"west": "red", "middle": "green", "east": "blue"}, colours
    legend = _legend(layer)
    assert legend[0].startswith("Band 3: red") and legend[2].startswith("Band 1: blue"), legend
    assert "red = band 3 (red), green = band 2 (green), blue = band 1 (blue), by common name" in result.content[0].text


async def test_a_mosaic_of_blue_green_red_nir_scenes_is_drawn_in_true_colour(load, cogs):
    west = corpus_item("stac-spec-extended-item.json")
    east = json.loads(json.dumps(west))  # the same scene once more, one scene-width east: a mosaic of two
    width = west["bbox"][2] - west["bbox"][0]
    east["id"] += "-east"
    east["bbox"] = [west["bbox"][0] + width, west["bbox"][1], west["bbox"][2] + width, west["bbox"][3]]
    items = [localise(item, "analytic", cogs.root, cogs.url) for item in (west, east)]
    result = await load(items, asset="analytic")
    assert not result.is_error, result.content[0].text
    layer = _raster()
    assert layer.source().endswith(".vrt") and layer.width() > 1.5 * layer.height()
    renderer = layer.renderer()
    assert (renderer.redBand(), renderer.greenBand(), renderer.blueBand()) == (3, 2, 1)
    assert _legend(layer)[0].startswith("Band 3: red"), _legend(layer)
    assert "red = band 3 (red)" in result.content[0].text


async def test_maxar_worldview2_in_stac_0_8_is_read_and_drawn_in_true_colour(load, cogs):
    published = corpus_item("pystac-0.8.1-digitalglobe-sample.json")
    item = localise(published, "multispectral_image", cogs.root, cogs.url)
    result = await load([item])
    assert not result.is_error, result.content[0].text
    layer = _raster()
    assert layer.bandCount() == 8
    renderer = layer.renderer()
    assert (renderer.redBand(), renderer.greenBand(), renderer.blueBand()) == (5, 3, 2)  # coastal, blue, green, yellow, red…
    assert _legend(layer)[0].startswith("Band 5: red"), _legend(layer)
    colours = _stripe_colours(layer)
    assert {k: _dominant(v) for k, v in colours.items()} == {"west": "red", "middle": "green", "east": "blue"}, colours


async def test_raster_statistics_with_a_scale_stretch_what_qgis_draws_not_a_black_image(load, cogs):
    published = corpus_item("raster-ext-item-planet.json")  # STAC 1.1, no collection, statistics in raw counts
    item = localise(published, "data", cogs.root, cogs.url)
    result = await load([item])
    assert not result.is_error, result.content[0].text
    layer = _raster()
    colours = _stripe_colours(layer)
    assert all(max(rgb) > 150 for rgb in colours.values()), colours  # not black
    assert {k: _dominant(v) for k, v in colours.items()} == {"west": "red", "middle": "green", "east": "blue"}, colours
    red = layer.renderer().redContrastEnhancement()
    assert red.minimumValue() == pytest.approx(19.62) and red.maximumValue() == pytest.approx(329.25)  # 0.01 × counts


async def test_an_item_without_a_collection_is_named_by_its_id(load, cogs):
    published = corpus_item("stac-spec-collectionless-item.json")
    result = await load([localise(published, "analytic", cogs.root, cogs.url)], asset="analytic")
    assert not result.is_error, result.content[0].text
    assert _raster().name() == published["id"]  # never "None (1 items)"
    assert "None" not in result.content[0].text


async def test_a_crs_given_only_as_projjson_is_the_layers_crs(load, cogs):
    published = corpus_item("stac-spec-proj-example.json")
    for key in ("proj:code", "proj:wkt2"):  # this item gives its CRS three ways: keep only PROJJSON
        published["properties"].pop(key)
    item = localise(published, "B8", cogs.root, cogs.url, epsg=32614, file_crs=False)
    result = await load([item], asset="B8")
    assert not result.is_error, result.content[0].text
    layer = _raster()
    assert layer.crs().authid() == "EPSG:32614"
    assert "from the catalog" in result.content[0].text
