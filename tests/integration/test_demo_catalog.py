"""The offline demo catalog shipped in resources/ answers a first run's questions with no network:
"what data do I have?" and statistics of its index band in physical units."""

from __future__ import annotations

import httpx
import numpy as np
from osgeo import gdal

from stacgis_agent.agent.config import DEMO_CATALOG, Settings
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.server import build_server
from testkit.servers.mcp_calls import OneShotClient

LYON = (4.835, 45.76)


def _client():
    deps = ToolDeps.from_settings(Settings(), http=httpx.AsyncClient(timeout=5))
    return OneShotClient(build_server(deps))


async def test_what_data_do_i_have_lists_the_three_demo_collections():
    result = await _client().call_tool("search_collections", {})
    assert not result.is_error, result.content[0].text
    ids = sorted(c["id"] for c in result.structured_content["collections"])
    assert ids == ["demo-elevation", "demo-ndvi", "demo-rgb"]


async def test_demo_items_cover_lyon_at_two_dates():
    lon, lat = LYON
    result = await _client().call_tool("search_items", {
        "collections": ["demo-rgb"], "bbox": [lon - 0.01, lat - 0.01, lon + 0.01, lat + 0.01]})
    items = result.structured_content["items"]
    assert [i["id"] for i in sorted(items, key=lambda i: i["id"])] == ["demo-rgb-2025-06-15", "demo-rgb-2025-09-15"]
    june = await _client().call_tool("search_items", {"collections": ["demo-rgb"], "datetime": "2025-06-01/2025-06-30"})
    assert [i["id"] for i in june.structured_content["items"]] == ["demo-rgb-2025-06-15"]


async def test_ndvi_statistics_apply_scale_and_nodata_exactly():
    tif = DEMO_CATALOG.parent / "collections" / "demo-ndvi" / "items" / "demo-ndvi-2025-06-15.tif"
    raw = gdal.Open(str(tif)).ReadAsArray().astype("float64")
    valid = raw[raw != -32768] * 0.0001
    result = await _client().call_tool("get_raster_statistics", {"source": str(tif), "exact": True})
    assert not result.is_error, result.content[0].text
    stats = result.structured_content
    assert stats["valid_pixels"] == valid.size
    assert np.isclose(stats["mean"], valid.mean(), atol=1e-6)
    assert np.isclose(stats["min"], valid.min()) and np.isclose(stats["max"], valid.max())
