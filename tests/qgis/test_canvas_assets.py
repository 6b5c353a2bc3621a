"""Which asset of a STAC item is shown and how (pure data; no QGIS objects needed)."""

from __future__ import annotations

import pytest

from stacgis_agent.tools.canvas.layers.stac_assets import band_kind, choose_assets, item_epsg
from stacgis_agent.tools.common import ToolInputError


def item(assets: dict, **props) -> dict:
    return {"id": "i1", "collection": "c", "properties": {"datetime": "2024-06-01T00:00:00Z", **props}, "assets": assets}


def test_visual_wins_then_rgb_by_common_name_then_first_raster_data_asset():
    bands = {k: {"href": f"https://x/{k}.tif", "roles": ["data"], "eo:bands": [{"name": k, "common_name": c}]}
             for k, c in (("B04", "red"), ("B03", "green"), ("B02", "blue"), ("B08", "nir"))}
    with_visual = item({**bands, "tci": {"href": "https://x/tci.tif", "roles": ["visual"]}})
    assert choose_assets(with_visual).keys == ["tci"] and choose_assets(with_visual).kind == "visual"
    stacked = choose_assets(item(bands))
    assert stacked.kind == "rgb" and stacked.keys == ["B04", "B03", "B02"]
    only_nir = choose_assets(item({"B08": bands["B08"], "thumb": {"href": "https://x/t.png", "roles": ["thumbnail"]}}))
    assert only_nir.kind == "single" and only_nir.keys == ["B08"]


def test_stac_1_1_bands_with_scale_offset_nodata_and_statistics():
    asset = {"href": "s3://bucket/ndvi.tif", "roles": ["data"],  # no "type": guessed from the href
             "bands": [{"name": "ndvi", "nodata": -2, "raster:scale": 0.001, "raster:offset": -1,
                        "statistics": {"minimum": -0.3, "maximum": 0.8}}]}
    choice = choose_assets(item({"ndvi": asset}))
    assert choice.bands[0]["nodata"] == -2 and choice.bands[0]["scale"] == 0.001 and choice.bands[0]["offset"] == -1
    assert choice.bands[0]["statistics"] == {"minimum": -0.3, "maximum": 0.8}
    assert band_kind(choice) == "index"


def test_projection_v2_code_and_time_range_items():
    assert item_epsg(item({}, **{"proj:code": "EPSG:32631"})) == 32631
    assert item_epsg(item({}, **{"proj:epsg": 2154})) == 2154
    ranged = {"id": "r", "properties": {"datetime": None, "start_datetime": "2024-05-01T00:00:00Z",
                                        "end_datetime": "2024-05-31T00:00:00Z"},
              "assets": {"data": {"href": "https://x/a.tif", "roles": ["data"]}}}
    choice = choose_assets(ranged)
    assert (choice.start, choice.end) == ("2024-05-01T00:00:00Z", "2024-05-31T00:00:00Z")


@pytest.mark.parametrize(("key", "name", "kind"), [("SCL", None, "classes"), ("dem", "elevation", "elevation"),
                                                  ("lwir11", "lwir11", "temperature"), ("B04", "B04", "other")])
def test_band_kind_picks_the_ramp_family(key, name, kind):
    asset = {"href": f"https://x/{key}.tif", "roles": ["data"], "eo:bands": [{"name": name}] if name else []}
    assert band_kind(choose_assets(item({key: asset})), collection="") == kind


def test_unknown_asset_key_lists_the_assets():
    with pytest.raises(ToolInputError, match="Its assets: data"):
        choose_assets(item({"data": {"href": "https://x/a.tif", "roles": ["data"]}}), "visual")
