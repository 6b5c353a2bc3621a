"""Raster tools reading COGs over HTTP in place: values checked against numpy on the same arrays,
bytes fetched counted at the HTTP server."""

from __future__ import annotations

import httpx
import numpy as np
import pytest
from osgeo import gdal

from stacgis_agent.tools.server import build_server
from testkit.servers.mcp_calls import OneShotClient
from testkit.worlds.stac_fixtures import DATES, DEM_NODATA, DEM_OFFSET, DEM_SCALE, ORIGIN, PIXEL, SIZE

DEM = f"dem-{DATES[0]}.tif"


@pytest.fixture
def client(make_deps, gdal_config, stac_api):
    http = httpx.AsyncClient(timeout=10)
    return OneShotClient(build_server(make_deps(http, {"local": stac_api.url})))


def physical(raw: np.ndarray) -> np.ndarray:
    values = raw.astype(np.float64) * DEM_SCALE + DEM_OFFSET
    return values[raw != DEM_NODATA]


def fresh_reads(cog_server) -> None:
    gdal.VSICurlClearCache()
    cog_server.reset_counts()


async def test_raster_info_reads_the_header_only(client, cog_server):
    fresh_reads(cog_server)
    result = await client.call_tool("get_raster_info", {"source": cog_server.href(DEM)})
    info = result.structured_content
    assert (info["width"], info["height"], info["crs"]) == (SIZE, SIZE, "EPSG:4326")
    assert info["overviews"] == [[512, 512], [256, 256]]
    band = info["bands"][0]
    assert (band["name"], band["dtype"], band["nodata"], band["scale"], band["offset"]) == \
        ("elevation", "Float32", DEM_NODATA, DEM_SCALE, DEM_OFFSET)
    assert info["bounds_lonlat"] == [5.0, 46.0 - SIZE * PIXEL, 5.0 + SIZE * PIXEL, 46.0]
    assert cog_server.bytes_sent["/" + DEM] < 0.1 * (cog_server.root / DEM).stat().st_size


async def test_exact_statistics_equal_numpy_on_the_full_resolution_array(client, cog_server, test_data):
    raw = test_data.arrays[DEM]
    result = await client.call_tool("get_raster_statistics", {"source": cog_server.href(DEM), "exact": True,
                                                               "percentiles": [10, 50, 90]})
    stats = result.structured_content
    expected = physical(raw)
    assert stats["exact"] is True and stats["resolution"] == [PIXEL, PIXEL]
    assert stats["valid_pixels"] == expected.size == SIZE * SIZE - 40 * 40
    assert stats["mean"] == pytest.approx(expected.mean(), rel=1e-12)
    assert stats["std"] == pytest.approx(expected.std(), rel=1e-9)
    assert (stats["min"], stats["max"]) == (expected.min(), expected.max())
    assert stats["percentiles"]["p50"] == pytest.approx(np.percentile(expected, 50), rel=1e-12)


async def test_exact_statistics_over_a_bbox_use_the_pixels_inside_it(client, cog_server, test_data):
    raw = test_data.arrays[DEM]
    bbox = [5.1, 45.2, 5.3, 45.4]  # columns 100..300, rows 600..800
    result = await client.call_tool("get_raster_statistics", {"source": cog_server.href(DEM), "exact": True,
                                                               "bbox": bbox})
    expected = physical(raw[600:800, 100:300])
    assert result.structured_content["valid_pixels"] == expected.size == 200 * 200
    assert result.structured_content["mean"] == pytest.approx(expected.mean(), rel=1e-12)


async def test_polygon_statistics_take_pixels_whose_centre_is_inside(client, cog_server, test_data):
    raw = test_data.arrays[DEM]
    x0, y0, w, h = 5.1, 45.2, 0.3, 0.2
    triangle = {"type": "Polygon", "coordinates": [[[x0, y0], [x0 + w, y0], [x0, y0 + h], [x0, y0]]]}
    result = await client.call_tool("get_raster_statistics", {"source": cog_server.href(DEM), "exact": True,
                                                               "polygon": triangle})
    cx = ORIGIN[0] + (np.arange(SIZE) + 0.5) * PIXEL
    cy = ORIGIN[1] - (np.arange(SIZE) + 0.5) * PIXEL
    u = (cx[None, :] - x0) / w
    v = (cy[:, None] - y0) / h
    inside = (u >= 0) & (v >= 0) & (u + v <= 1)
    expected = physical(raw[inside])
    assert abs(result.structured_content["valid_pixels"] - expected.size) <= 0.01 * expected.size  # edge pixels
    assert result.structured_content["mean"] == pytest.approx(expected.mean(), rel=1e-3)


async def test_overview_statistics_are_close_and_fetch_a_small_fraction_of_the_file(client, cog_server, test_data):
    href = cog_server.href(DEM)
    size = (cog_server.root / DEM).stat().st_size
    fresh_reads(cog_server)
    approx = (await client.call_tool("get_raster_statistics", {"source": href})).structured_content
    overview_bytes = cog_server.bytes_sent["/" + DEM]
    fresh_reads(cog_server)
    exact = (await client.call_tool("get_raster_statistics", {"source": href, "exact": True})).structured_content
    exact_bytes = cog_server.bytes_sent["/" + DEM]
    assert approx["exact"] is False and approx["level"] == "overview 2"
    assert approx["resolution"] == [PIXEL * 4, PIXEL * 4] and approx["pixels_read"] == 256 * 256
    assert approx["mean"] == pytest.approx(exact["mean"], rel=0.01)  # the stated error
    assert approx["std"] == pytest.approx(exact["std"], rel=0.05)
    assert exact["min"] <= approx["min"] and approx["max"] <= exact["max"]  # averaging pulls toward the mean
    assert overview_bytes < 0.15 * size
    assert exact_bytes > 0.7 * size  # the full-resolution level is most of the file
    assert overview_bytes < 0.15 * exact_bytes
    assert cog_server.range_requests["/" + DEM] >= 1


async def test_point_values_in_physical_units_and_nodata(client, cog_server, test_data):
    raw = test_data.arrays[DEM]
    col, row = 500, 300
    lon, lat = ORIGIN[0] + (col + 0.5) * PIXEL, ORIGIN[1] - (row + 0.5) * PIXEL
    result = await client.call_tool("query_raster_point", {"source": cog_server.href(DEM), "x": lon, "y": lat})
    assert result.structured_content["pixel"] == [col, row]
    assert result.structured_content["values"][0]["value"] == pytest.approx(raw[row, col] * DEM_SCALE + DEM_OFFSET)
    result = await client.call_tool("query_raster_point", {"source": cog_server.href(DEM), "x": 5.0001, "y": 45.9999})
    assert result.structured_content["values"][0] == {"band": 1, "name": "elevation", "value": None, "nodata": True}


async def test_multiple_rasters_at_a_point_report_failures_per_raster(client, cog_server, test_data):
    lon, lat = ORIGIN[0] + 0.5005, ORIGIN[1] - 0.8005  # row 200: below the rows whose red is 100
    result = await client.call_tool("query_multiple_rasters_point", {
        "sources": [cog_server.href("rgb.tif"), cog_server.href("missing.tif")], "x": lon, "y": lat})
    ok_row, bad_row = result.structured_content["results"]
    assert [v["value"] for v in ok_row["values"]] == [200.0, 120.0, 40.0]
    assert "GDAL cannot open" in bad_row["error"]


async def test_timeseries_follows_the_items_of_a_collection_in_date_order(client, test_data):
    col, row = 700, 700
    lon, lat = ORIGIN[0] + (col + 0.5) * PIXEL, ORIGIN[1] - (row + 0.5) * PIXEL
    result = await client.call_tool("get_timeseries", {"collection": "dem-test", "asset": "data", "lon": lon,
                                                       "lat": lat, "datetime": "2024-01-01/2024-12-31"})
    series = result.structured_content["series"]
    assert [s["item_id"] for s in series] == [f"dem-{d}" for d in DATES]
    expected = [test_data.arrays[f"dem-{d}.tif"][row, col] * DEM_SCALE + DEM_OFFSET for d in DATES]
    assert [s["value"] for s in series] == pytest.approx(expected)


async def test_bad_raster_input_gives_errors_the_model_can_act_on(client, cog_server):
    href = cog_server.href(DEM)
    cases = [
        ({"source": cog_server.href("missing.tif")}, "GDAL cannot open"),
        ({"source": href, "bbox": [10, 10, 11, 11]}, "does not overlap"),
        ({"source": href, "bbox": [5.1, 45.4, 5.3, 45.2]}, "swap"),
        ({"source": href, "band": 3}, "bands 1..1"),
        ({"source": href, "polygon": {"type": "Polygon", "coordinates": [[[556597, 5621521], [578000, 5621521],
                                                                           [578000, 5650000], [556597, 5621521]]]}},
         "look projected"),
        ({"source": "not a layer"}, "neither a raster layer"),
    ]
    for args, expected in cases:
        result = await client.call_tool("get_raster_statistics", args)
        assert result.is_error and expected in result.content[0].text, (args, result.content[0].text)


async def test_a_huge_exact_read_is_refused_with_what_to_do(client, cog_server, monkeypatch):
    from stacgis_agent.tools.engine import raster_reads

    monkeypatch.setattr(raster_reads, "MAX_EXACT_PIXELS", 500_000)  # the real limit is 16 M pixels
    result = await client.call_tool("get_raster_statistics", {"source": cog_server.href(DEM), "exact": True})
    assert result.is_error and "too many for exact mode" in result.content[0].text
    result = await client.call_tool("get_raster_statistics", {"source": cog_server.href(DEM)})
    assert not result.is_error and result.structured_content["exact"] is False


async def test_polygon_in_another_crs_is_reprojected(client, cog_server, test_data):
    # the bbox [5.1, 45.2, 5.3, 45.4] in Web Mercator
    from osgeo import osr

    src, dst = osr.SpatialReference(), osr.SpatialReference()
    src.ImportFromEPSG(4326)
    dst.ImportFromEPSG(3857)
    src.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    dst.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    t = osr.CoordinateTransformation(src, dst)
    ring = [list(t.TransformPoint(x, y)[:2]) for x, y in [(5.1, 45.2), (5.3, 45.2), (5.3, 45.4), (5.1, 45.4), (5.1, 45.2)]]
    result = await client.call_tool("get_raster_statistics", {"source": cog_server.href(DEM), "exact": True,
                                                               "polygon": {"type": "Polygon", "coordinates": [ring]},
                                                               "crs": "EPSG:3857"})
    expected = physical(test_data.arrays[DEM][600:800, 100:300])
    assert result.structured_content["valid_pixels"] == expected.size
    assert result.structured_content["mean"] == pytest.approx(expected.mean(), rel=1e-9)
