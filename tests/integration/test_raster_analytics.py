"""Zonal statistics weighted at pixel edges, and change between two periods, on COGs over HTTP."""

from __future__ import annotations

import httpx
import numpy as np
import pytest
from osgeo import gdal

from stacgis_agent.tools.server import build_server
from testkit.servers.mcp_calls import OneShotClient
from testkit.worlds.stac_fixtures import DATES, DEM_NODATA, DEM_OFFSET, DEM_SCALE, ORIGIN, PIXEL


@pytest.fixture
def client(make_deps, gdal_config, stac_api):
    return OneShotClient(build_server(make_deps(httpx.AsyncClient(timeout=10), {"local": stac_api.url})))


def lon(col: float) -> float:
    return ORIGIN[0] + col * PIXEL


def lat(row: float) -> float:
    return ORIGIN[1] - row * PIXEL


async def test_zonal_stats_weight_edge_pixels_by_the_area_inside(client, cog_server, test_data):
    # edges on pixel middles: edge pixels count half, corner pixels a quarter
    c0, c1, r0, r1 = 100.5, 200.5, 500.5, 600.5
    ring = [[lon(c0), lat(r1)], [lon(c1), lat(r1)], [lon(c1), lat(r0)], [lon(c0), lat(r0)], [lon(c0), lat(r1)]]
    result = await client.call_tool("compute_zonal_stats", {"source": cog_server.href(f"dem-{DATES[0]}.tif"),
                                                            "polygon": {"type": "Polygon", "coordinates": [ring]}})
    assert not result.is_error, result.content[0].text
    stats = result.structured_content
    values = test_data.arrays[f"dem-{DATES[0]}.tif"][500:601, 100:201].astype(np.float64) * DEM_SCALE + DEM_OFFSET
    weights = np.ones(values.shape)
    weights[0, :] *= 0.5
    weights[-1, :] *= 0.5
    weights[:, 0] *= 0.5
    weights[:, -1] *= 0.5
    expected = (values * weights).sum() / weights.sum()
    assert stats["pixels_touched"] == 101 * 101
    assert stats["pixel_weight_sum"] == pytest.approx(100 * 100)
    assert stats["weighted_mean"] == pytest.approx(expected, rel=1e-12)
    assert stats["covered_area"] == pytest.approx(100 * 100 * PIXEL * PIXEL)


async def test_detect_change_reports_each_period_and_the_difference_raster(client, test_data):
    bbox = [lon(100), lat(300), lon(300), lat(100)]  # columns 100..300, rows 100..300
    result = await client.call_tool("detect_change", {
        "collection": "dem-test", "asset": "data", "bbox": bbox,
        "period_a": "2024-06-01/2024-06-02", "period_b": "2024-06-11/2024-06-12"})
    assert not result.is_error, result.content[0].text
    data = result.structured_content

    def physical(name: str) -> np.ndarray:
        raw = test_data.arrays[name][100:300, 100:300]
        return np.where(raw == DEM_NODATA, np.nan, raw.astype(np.float64) * DEM_SCALE + DEM_OFFSET)

    a, b = physical(f"dem-{DATES[0]}.tif"), physical(f"dem-{DATES[1]}.tif")
    assert data["grid"] == [200, 200]
    assert data["period_a"]["mean"] == pytest.approx(np.nanmean(a), rel=1e-9)
    assert data["difference"]["mean"] == pytest.approx(np.nanmean(b - a), rel=1e-6)
    saved = gdal.Open(data["difference_file"]).ReadAsArray()
    assert np.allclose(saved, b - a, atol=1e-4, equal_nan=True)


async def test_detect_change_says_when_a_period_has_no_items(client):
    result = await client.call_tool("detect_change", {
        "collection": "dem-test", "asset": "data", "bbox": [5.1, 45.2, 5.2, 45.3],
        "period_a": "2020-01-01/2020-01-02", "period_b": "2024-06-11/2024-06-12"})
    assert result.is_error and "period_a" in result.content[0].text and "widen the dates" in result.content[0].text
