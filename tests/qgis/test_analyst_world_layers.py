"""STAC layers judged as an analyst judges them, on the analyst's test world (STAC 1.1, proj:code only,
two UTM zones, files without a CRS): the true-colour view's rendered pixels are the raster's own with the
footprints drawn over it, band names read "red" rather than "Band 1", and the catalog's CRS is used (and
said) when the file has none."""

from __future__ import annotations

import httpx
import numpy as np
import pytest
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsLayerTreeModel,
    QgsPointXY,
    QgsProject,
    QgsRasterLayer,
    QgsRectangle,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import Qt

from stacgis_agent.tools.server import build_server
from testkit.qgis_drivers.rendered_pixels import render
from testkit.servers.canvas_servers import canvas_deps, gdal_test_config
from testkit.servers.mcp_calls import OneShotClient
from testkit.worlds.analyst_world import (
    LYON_TILE,
    NODATA_BLOCK,
    ORTHO_ORIGIN,
    ORTHO_PIXEL,
    PIXEL_M,
    S2_OFFSET,
    S2_SCALE,
    SIZE,
    analyst_world,
)

LYON_DAY1 = "S2_31TFL_20250912"


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    with gdal_test_config(), analyst_world(tmp_path_factory.mktemp("analyst-world")) as w:
        yield w


@pytest.fixture
async def tools(world, qgis_iface, qgis_new_project, tmp_path):
    async with httpx.AsyncClient(timeout=20) as http:
        deps = canvas_deps(http, world.catalog_url, str(tmp_path), qgis_iface)
        yield OneShotClient(build_server(deps, canvas=True))
    QgsProject.instance().removeAllMapLayers()


def _project_layers() -> list:
    return [node.layer() for node in QgsProject.instance().layerTreeRoot().findLayers()]


def _legend(layer) -> list[str]:
    """The labels under the layer in the Layers panel."""
    model = QgsLayerTreeModel(QgsProject.instance().layerTreeRoot())
    return [n.data(Qt.ItemDataRole.DisplayRole) for n in model.layerLegendNodes(
        QgsProject.instance().layerTreeRoot().findLayer(layer.id()))]


async def _call(client, name: str, args: dict):
    result = await client.call_tool(name, args)
    assert not result.is_error, result.content[0].text
    return result


async def test_true_colour_pixels_on_the_map_are_the_rasters_own_with_the_footprints_shown(tools, world):
    await _call(tools, "load_stac_items", {"collection": "sentinel-2-l2a", "item_ids": [LYON_DAY1],
                                           "asset": "visual", "footprints": True})
    footprints, raster = _project_layers()  # top first: the outlines are drawn over the imagery
    assert isinstance(footprints, QgsVectorLayer) and isinstance(raster, QgsRasterLayer)
    assert QgsProject.instance().layerTreeRoot().findLayer(footprints.id()).isVisible()
    west, north = LYON_TILE[2]
    margin = 8  # pixels kept clear of the footprint's outline along the tile edge
    cols = rows = SIZE - 2 * margin
    extent = QgsRectangle(west + margin * PIXEL_M, north - (margin + rows) * PIXEL_M,
                          west + (margin + cols) * PIXEL_M, north - margin * PIXEL_M)
    crs = QgsCoordinateReferenceSystem("EPSG:32631")
    shown = render([footprints, raster], crs, extent, cols, rows)
    expected = world.pixels(f"visual-{LYON_TILE[0]}-2025-09-12.tif")[:, margin:margin + rows, margin:margin + cols]
    assert np.array_equal(shown[..., :3], np.moveaxis(expected, 0, -1))
    # and the footprint is there to see: an outline around the tile, nothing inside it
    pad = 40
    alone = render([footprints], crs, QgsRectangle(west - pad * PIXEL_M, north - (SIZE + pad) * PIXEL_M,
                                                    west + (SIZE + pad) * PIXEL_M, north + pad * PIXEL_M),
                   SIZE + 2 * pad, SIZE + 2 * pad)
    drawn = (alone[..., :3] != 255).any(axis=-1)
    assert drawn.sum() > 4 * SIZE  # the outline, all round
    assert not drawn[pad + margin:pad + SIZE - margin, pad + margin:pad + SIZE - margin].any()


async def test_band_names_from_stac_reach_the_layers_panel_band_names_and_tool_results(tools, world):
    result = await _call(tools, "load_stac_asset", {"collection": "sentinel-2-l2a", "item_id": LYON_DAY1,
                                                    "asset": "visual"})
    [layer] = _project_layers()
    assert [layer.bandName(i) for i in (1, 2, 3)] == [f"Band {i}: {c}" for i, c in enumerate(("red", "green", "blue"), 1)]
    assert _legend(layer) == ["Band 1: red (Red)", "Band 2: green (Green)", "Band 3: blue (Blue)"]
    assert result.structured_content["layers"][0]["bands"] == ["red", "green", "blue"]
    west, north = LYON_TILE[2]
    point = await _call(tools, "query_raster_point", {"source": layer.name(), "x": west + 2000, "y": north - 2000,
                                                      "crs": "EPSG:32631"})
    assert [v["name"] for v in point.structured_content["values"]] == ["red", "green", "blue"]

    QgsProject.instance().removeAllMapLayers()
    result = await _call(tools, "load_stac_asset", {"collection": "sentinel-2-l2a", "item_id": LYON_DAY1,
                                                    "asset": "B08"})
    [nir] = _project_layers()
    assert nir.bandName(1) == "Band 1: nir"
    assert result.structured_content["layers"][0]["bands"] == ["nir"]


async def test_stac_11_scale_offset_and_nodata_apply_to_what_qgis_reads(tools, world):
    await _call(tools, "load_stac_asset", {"collection": "sentinel-2-l2a", "item_id": LYON_DAY1, "asset": "B04"})
    [layer] = _project_layers()
    raw = world.pixels(f"B04-{LYON_TILE[0]}-2025-09-12.tif")[0]
    west, north = LYON_TILE[2]
    row, col = 100, 150
    value, ok = layer.dataProvider().sample(QgsPointXY(west + (col + 0.5) * PIXEL_M, north - (row + 0.5) * PIXEL_M), 1)
    assert ok and value == pytest.approx(raw[row, col] * S2_SCALE + S2_OFFSET)
    _value, ok = layer.dataProvider().sample(QgsPointXY(west + NODATA_BLOCK / 2 * PIXEL_M,
                                                        north - NODATA_BLOCK / 2 * PIXEL_M), 1)
    assert not ok  # the catalog's nodata: nothing drawn, nothing reported


@pytest.mark.parametrize("item_id, said", [("ortho-lyon-code", "EPSG:32631"), ("ortho-lyon-wkt2", "EPSG:32631")])
async def test_the_catalogs_crs_is_used_and_said_when_the_file_has_none(tools, world, item_id, said):
    result = await _call(tools, "load_stac_asset", {"collection": "orthophoto", "item_id": item_id})
    [layer] = _project_layers()
    assert layer.crs() == QgsCoordinateReferenceSystem("EPSG:32631")
    assert layer.extent().xMinimum() == pytest.approx(ORTHO_ORIGIN[0])
    assert layer.extent().yMaximum() == pytest.approx(ORTHO_ORIGIN[1])
    assert layer.rasterUnitsPerPixelX() == pytest.approx(ORTHO_PIXEL)
    described = result.structured_content["layers"][0]
    assert described["crs"] == said and "from the catalog" in described["crs_note"]
    assert f"CRS {said} from the catalog; the file has no CRS" in result.content[0].text


async def test_items_in_two_utm_zones_become_one_layer_per_zone_in_the_right_place(tools, world):
    ids = [LYON_DAY1, "S2_32TLR_20250912"]
    result = await _call(tools, "load_stac_items", {"collection": "sentinel-2-l2a", "item_ids": ids, "asset": "B04"})
    rasters = [lyr for lyr in _project_layers() if isinstance(lyr, QgsRasterLayer)]
    assert sorted(lyr.crs().authid() for lyr in rasters) == ["EPSG:32631", "EPSG:32632"]
    for described in result.structured_content["layers"]:
        west, south, east, north = described["bounds_lonlat"]
        item = world.item(ids[0] if described["crs"] == "EPSG:32631" else ids[1])
        assert [west, south, east, north] == pytest.approx(item["bbox"], abs=1e-4)


async def test_an_asset_that_answers_404_adds_nothing_and_says_so(tools, world):
    result = await tools.call_tool("load_stac_asset", {"collection": "sentinel-2-l2a", "item_id": LYON_DAY1,
                                                       "asset": "B8A"})
    assert result.is_error
    text = result.content[0].text
    assert "B8A" in text and "nothing was added to the map" in text
    assert _project_layers() == []


async def test_a_new_ramp_stretches_over_the_bands_own_values(tools, world):
    await _call(tools, "load_stac_asset", {"collection": "sentinel-2-l2a", "item_id": LYON_DAY1, "asset": "B04"})
    [layer] = _project_layers()
    result = await _call(tools, "set_layer_style", {"layer": layer.name(), "ramp": "Greys", "band": 1})
    raw = world.pixels(f"B04-{LYON_TILE[0]}-2025-09-12.tif")[0]
    physical = raw[raw != 0] * S2_SCALE + S2_OFFSET
    low, high = np.percentile(physical, [2, 98])
    renderer = layer.renderer()
    assert renderer.classificationMin() == pytest.approx(low, abs=0.002)
    assert renderer.classificationMax() == pytest.approx(high, abs=0.002)
    assert f"{renderer.classificationMin():g}" in result.content[0].text


def test_the_catalogs_crs_wins_over_a_different_one_in_the_file_and_the_note_says_both():
    from osgeo import osr

    from stacgis_agent.tools.canvas.layers.mosaic import effective_crs
    from stacgis_agent.tools.canvas.layers.stac_assets import item_crs

    def srs(code: str):
        s = osr.SpatialReference()
        s.SetFromUserInput(code)
        return s

    used, note = effective_crs(srs("EPSG:4326"), "EPSG:32631")
    assert used.GetAuthorityCode(None) == "32631" and note == "from the catalog; the file says EPSG:4326"
    used, note = effective_crs(srs("EPSG:32631"), "EPSG:32631")
    assert used.GetAuthorityCode(None) == "32631" and note == ""
    used, note = effective_crs(srs("EPSG:32631"), "not a CRS")
    assert used.GetAuthorityCode(None) == "32631" and note == ""
    assert effective_crs(None, None) == (None, "neither the file nor the catalog gives a CRS")
    wkt2 = srs("EPSG:32632").ExportToWkt(["FORMAT=WKT2_2019"])
    assert item_crs({"properties": {"proj:wkt2": wkt2}}) == wkt2
    assert item_crs({"properties": {"proj:code": "EPSG:2154", "proj:wkt2": wkt2}}) == "EPSG:2154"
    assert item_crs({"properties": {}}, {"proj:epsg": 32631}) == "EPSG:32631"
