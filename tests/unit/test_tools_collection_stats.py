"""Collection statistics without servers: index formulas, band lookup by STAC common name (1.0 eo:bands and
1.1 bands, item_assets filling gaps), cloud classes, per-date mosaics without double counting, the progress
line, and the scale-out requirements."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from stacgis_agent.host.requirements import REQUIREMENTS, SCALE_OUT, requirements_for
from stacgis_agent.tools.common import ToolInputError
from stacgis_agent.tools.engine.date_stats import PeriodAccumulator, mosaic_of, period_of
from stacgis_agent.tools.engine.index_bands import SCL_EXCLUDED, resolve_bands
from stacgis_agent.tools.engine.index_formulas import INDICES, evaluate


def test_formulas_match_their_definitions_and_undefined_pixels_are_nan():
    nir, red = np.array([0.5, 0.3, 0.0], np.float32), np.array([0.1, 0.3, 0.0], np.float32)
    blue, green = np.array([0.05, 0.1, 0.0], np.float32), np.array([0.2, 0.2, 0.0], np.float32)
    ndvi = evaluate("NDVI", {"nir": nir, "red": red})
    assert ndvi[:2] == pytest.approx([0.4 / 0.6, 0.0]) and np.isnan(ndvi[2])
    assert evaluate("EVI", {"nir": nir, "red": red, "blue": blue})[0] == pytest.approx(
        2.5 * 0.4 / (0.5 + 0.6 - 0.375 + 1))
    assert evaluate("SAVI", {"nir": nir, "red": red})[0] == pytest.approx(1.5 * 0.4 / 1.1)
    assert evaluate("NDWI", {"green": green, "nir": nir})[0] == pytest.approx(-0.3 / 0.7)
    assert {"NDVI", "NDWI", "NDMI", "NBR", "NDSI", "EVI", "SAVI"} <= set(INDICES)


def _item(assets: dict) -> dict:
    return {"id": "it", "assets": assets}


def test_bands_found_by_common_name_in_stac_1_0_and_1_1_with_scale_offset_nodata():
    item = _item({
        "B04": {"href": "https://x/B04.tif", "type": "image/tiff",
                "eo:bands": [{"name": "B04", "common_name": "red"}],
                "raster:bands": [{"scale": 0.0001, "offset": -0.1, "nodata": 0}]},
        "B08": {"href": "https://x/B08.tif", "type": "image/tiff",
                "bands": [{"name": "B08", "eo:common_name": "nir", "raster:scale": 0.0002, "nodata": 0}]},
        "thumbnail": {"href": "https://x/t.jpg", "type": "image/jpeg", "roles": ["thumbnail"]}})
    found = resolve_bands(item, None, index="NDVI", asset=None)
    assert found.bands["red"].path == "/vsicurl/https://x/B04.tif"
    assert (found.bands["red"].scale, found.bands["red"].offset, found.bands["red"].nodata) == (0.0001, -0.1, 0.0)
    assert found.bands["nir"].scale == 0.0002 and found.described == "nir = B08, red = B04"
    assert found.mask is None


def test_item_assets_of_the_collection_fill_in_bands_and_scl_masks_clouds():
    item = _item({"red": {"href": "s3://b/red.tif"}, "nir08": {"href": "s3://b/nir.tif"},
                  "scl": {"href": "s3://b/scl.tif"}})
    item_assets = {"red": {"type": "image/tiff", "eo:bands": [{"common_name": "red"}]},
                   "nir08": {"type": "image/tiff", "eo:bands": [{"common_name": "nir08"}]},
                   "scl": {"type": "image/tiff"}}
    found = resolve_bands(item, item_assets, index="ndvi", asset=None)
    assert found.bands["nir"].path == "/vsis3/b/nir.tif"  # nir08 stands in for nir
    assert found.mask.path == "/vsis3/b/scl.tif" and found.mask_classes == SCL_EXCLUDED


def test_a_classification_asset_masks_the_classes_named_cloud_or_shadow():
    item = _item({"red": {"href": "/d/red.tif"}, "nir": {"href": "/d/nir.tif"},
                  "qa": {"href": "/d/qa.tif", "classification:classes": [
                      {"value": 0, "name": "clear"}, {"value": 2, "name": "cloud"},
                      {"value": 3, "name": "cloud_shadow"}, {"value": 5, "name": "water"}]}})
    found = resolve_bands(item, None, index="NDVI", asset=None)
    assert found.mask_asset == "qa" and found.mask_classes == (2, 3)
    assert resolve_bands(item, None, index="NDVI", asset=None, mask_clouds=False).mask is None


def test_a_missing_band_names_the_bands_the_item_has():
    item = _item({"red": {"href": "/d/red.tif"}, "nir": {"href": "/d/nir.tif"}})
    with pytest.raises(ToolInputError, match=r"no 'swir16' band.*NDMI.*Bands it has.*nir, red"):
        resolve_bands(item, None, index="NDMI", asset=None)
    with pytest.raises(ToolInputError, match="Unknown index 'XYZ'"):
        resolve_bands(item, None, index="XYZ", asset=None)


def _result(item_id, values, sort_key="0"):
    values = np.array(values, np.float32)
    return SimpleNamespace(item_id=item_id, sort_key=sort_key, values=values, observed=np.ones(values.shape, bool))


def test_a_date_mosaic_takes_the_first_valid_pixel_in_order_and_counts_each_pixel_once():
    nan = np.nan
    cloudy = _result("b", [[9.0, 9.0], [9.0, 9.0]], sort_key="050")
    clear = _result("a", [[1.0, nan], [1.0, nan]], sort_key="010")
    mosaic, observed = mosaic_of([cloudy, clear], (2, 2))
    assert mosaic.tolist() == [[1.0, 9.0], [1.0, 9.0]] and observed.all()
    acc = PeriodAccumulator(area=np.array([[True, True], [True, False]]))
    acc.add_date([cloudy, clear])
    row = acc.row("2024-06-01")
    assert row["valid_pixels"] == 3 and row["mean"] == pytest.approx(11 / 3) and row["valid_fraction"] == 1.0
    assert row["items"] == 2


def test_a_cell_any_tile_of_a_date_flags_as_cloud_is_left_out_even_where_a_clearer_tile_says_clear():
    nan = np.nan
    clear = _result("b", [[0.8, 0.8], [0.8, 0.8]], sort_key="005")  # first in order: its SCL said clear
    clear.flagged = np.zeros((2, 2), bool)
    cloudy = _result("a", [[nan, 0.7], [0.7, 0.7]], sort_key="020")
    cloudy.flagged = np.array([[True, False], [False, False]])
    mosaic, _observed = mosaic_of([cloudy, clear], (2, 2))
    assert np.isnan(mosaic[0, 0]) and mosaic[1, 1] == pytest.approx(0.8)
    acc = PeriodAccumulator(area=np.ones((2, 2), bool))
    acc.add_date([cloudy, clear])
    row = acc.row("2024-06-10")
    assert row["valid_pixels"] == 3 and row["cloud_excluded_pixels"] == 1


def test_periods_are_dates_iso_weeks_or_months():
    assert period_of("2024-06-15", "date") == "2024-06-15"
    assert period_of("2024-06-15", "month") == "2024-06"
    assert period_of("2024-12-30", "week") == "2025-W01"


def test_scale_out_adds_dask_and_distributed_to_the_requirements():
    assert requirements_for(False) == REQUIREMENTS
    assert {r.distribution for r in requirements_for(True)} - {r.distribution for r in REQUIREMENTS} == \
        {r.distribution for r in SCALE_OUT} == {"dask", "distributed"}


def test_the_progress_line_says_items_megabytes_and_time_left():
    import time

    from stacgis_agent.tools.engine.stats_runner import Progress

    line = Progress(total=412, done=37, bytes_read=2_100_000, started=time.perf_counter() - 37 / 375 * 40).line()
    assert line == "37 / 412 items, 2.1 MB read, ~40 s left"
    assert Progress(total=412, done=412, bytes_read=23_400_000, started=0.0).line() == "412 / 412 items, 23.4 MB read"


def test_the_time_left_counts_the_reads_in_flight():
    import time

    from stacgis_agent.tools.engine.stats_runner import Progress

    # 8 reads side by side, each taking 4 s: after 4 s the first 2 of 400 are done, 398 remain, 8 at a time
    early = Progress(total=400, done=2, started=time.perf_counter() - 4.0, workers=8, item_seconds=8.0)
    assert early.line().endswith("~199 s left")  # not the ~796 s that 4 s ÷ 2 items × 398 makes
    alone = Progress(total=400, done=2, started=time.perf_counter() - 4.0, workers=1, item_seconds=8.0)
    assert alone.line().endswith("~796 s left")  # one read at a time: the time so far per item is right
