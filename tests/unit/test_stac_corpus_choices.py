"""What the plugin reads in published STAC items (tests/data/stac_corpus/SOURCES.md): which asset it shows,
which bands it draws as true colour, the bands STAC 1.1 describes on the asset itself, an item's time range."""

from __future__ import annotations

import pytest

from stacgis_agent.tools.canvas.layers.stac_assets import choose_assets, true_colour_bands
from stacgis_agent.tools.common import ToolInputError
from stacgis_agent.tools.engine.index_bands import resolve_bands
from stacgis_agent.tools.engine.stac_bands import asset_bands
from stacgis_agent.tools.stac.timeutil import item_times
from testkit.servers.stac_replay import load_session
from testkit.worlds.stac_corpus import corpus_item


def _naip() -> dict:
    return load_session("planetary-computer-naip-paging.json")[0]["response"]["features"][0]


@pytest.mark.parametrize("item, asset, keys, drawn", [
    (lambda: corpus_item("stac-spec-extended-item.json"), "analytic", ["analytic"], (3, 2, 1)),
    (lambda: corpus_item("pystac-0.8.1-digitalglobe-sample.json"), None, ["multispectral_image"], (5, 3, 2)),
    (lambda: corpus_item("earth-search-v1-sentinel-2-l2a.json"), None, ["visual"], (1, 2, 3)),
    (lambda: corpus_item("raster-ext-item-planet.json"), None, ["data"], (1, 2, 3)),
    (_naip, None, ["image"], (1, 2, 3)),
], ids=["planet-like-bgrn", "maxar-wv2-stac-0.8", "earth-search-v1-s2", "planet-raster-ext", "pc-naip"])
def test_true_colour_is_drawn_from_the_bands_named_red_green_blue(item, asset, keys, drawn):
    choice = choose_assets(item(), asset)
    assert choice.keys == keys and choice.kind == "visual"
    colour = true_colour_bands(choice.bands)
    assert colour.bands == drawn and colour.basis == "common name"


def test_a_stac_1_1_single_band_asset_describes_its_band_on_the_asset():
    band_4 = corpus_item("raster-ext-item-sentinel2.json")["assets"]["B04"]
    [band] = asset_bands(band_4)
    assert band["common_name"] == "red" and band["statistics"]["maximum"] == 17200 and band["nodata"] == 0


def test_bands_named_by_colour_without_common_names_are_drawn_by_name():
    colour = true_colour_bands([{"name": "Blue"}, {"name": "Green"}, {"name": "Red"}, {"name": "NIR"}])
    assert colour.bands == (3, 2, 1) and colour.basis == "band name"


def test_an_item_with_a_datetime_and_a_range_keeps_its_range():
    properties = corpus_item("pystac-0.9.0-datetimerange.json")["properties"]
    assert item_times(properties) == ("2018-01-01T13:21:30Z", "2018-01-01T13:31:30Z")



def test_a_stac_0_9_item_whose_assets_refer_to_bands_by_index_is_read():
    """pystac's landsat8-sample (STAC 0.9.0): the bands are described once in the item's properties, each asset
    lists the index of its band. The index's bands are the right assets, true colour is B4/B3/B2, and an asset
    read on its own (no item at hand) has one band described by nothing, never a traceback."""
    item = corpus_item("pystac-0.9.0-landsat8-sample.json")
    assert asset_bands(item["assets"]["B5"]) == [{}]
    assert asset_bands(item["assets"]["B5"], item["properties"]["eo:bands"])[0]["common_name"] == "nir"
    assert resolve_bands(item, None, index="ndvi", asset=None).described == "nir = B5, red = B4"
    assert resolve_bands(item, None, index="nbr", asset=None).described == "nir = B5, swir22 = B7"
    choice = choose_assets(item)
    assert choice.kind == "rgb" and choice.keys == ["B4", "B3", "B2"]
    del item["properties"]["eo:bands"]  # indices into nothing: refused in a sentence, never a traceback
    with pytest.raises(ToolInputError, match="has no 'nir' band"):
        resolve_bands(item, None, index="ndvi", asset=None)
