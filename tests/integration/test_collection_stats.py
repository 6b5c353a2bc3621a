"""collection_statistics against the real STAC API and COGs over HTTP: NDVI per date equals numpy on the same
pixels, clouds/nodata/outside-area excluded, two CRSs on one date mosaicked without double counting, progress
notifications, a clear error for a missing band, the CSV and the chart on disk."""

from __future__ import annotations

import csv

import httpx
import numpy as np
import pytest
from mcp import Client

from stacgis_agent.tools.analysis.collection_stats import compute
from stacgis_agent.tools.server import build_server
from testkit.worlds.collection_world import (
    CLOUD_BLOCK,
    COLLECTION,
    DATES,
    area_mask_by_centres,
    expected_ndvi,
    make_collection_world,
)


@pytest.fixture(scope="session")
def s2_world(cog_server, stac_api):
    world = make_collection_world(cog_server.root / "s2lyon", cog_server.url + "/s2lyon")
    stac_api.load([world.collection()], world.items)
    return world


@pytest.fixture
def server(make_deps, stac_api, s2_world):
    return build_server(make_deps(httpx.AsyncClient(timeout=10), {"local": stac_api.url}))


async def _call(server, arguments: dict, progress: list | None = None):
    async def on_progress(done, total, message):
        progress.append((done, total, message))

    async with Client(server) as client:
        return await client.call_tool("collection_statistics", arguments,
                                      progress_callback=on_progress if progress is not None else None)


async def test_ndvi_per_date_equals_numpy_on_the_same_pixels_without_clouds_nodata_or_outside(server, s2_world):
    progress: list = []
    result = await _call(server, {"collection": COLLECTION, "datetime": "2024-03-01/2024-04-30", "index": "NDVI",
                                  "polygon": s2_world.area, "exact": True}, progress)
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    rows = {r["period"]: r for r in data["rows"]}
    assert list(rows) == [DATES[0], DATES[1]]
    area = area_mask_by_centres(s2_world)
    for date in DATES[:2]:
        expected = expected_ndvi(s2_world, f"A-{date}")
        valid = expected[np.isfinite(expected)]
        row = rows[date]
        assert row["items"] == 1
        assert row["valid_pixels"] == valid.size
        assert row["mean"] == pytest.approx(valid.mean(), abs=1e-6)
        assert row["median"] == pytest.approx(np.median(valid), abs=1e-6)
        assert row["min"] == pytest.approx(valid.min(), abs=1e-6)
        assert row["max"] == pytest.approx(valid.max(), abs=1e-6)
        assert row["std"] == pytest.approx(valid.std(), abs=1e-6)
        assert row["valid_fraction"] == pytest.approx(valid.size / area.sum(), abs=1e-4)
    clouds = np.zeros(area.shape, bool)
    clouds[CLOUD_BLOCK] = True
    assert rows[DATES[1]]["cloud_excluded_pixels"] == int((clouds & area).sum()) > 0
    assert "full resolution" in data["resolution"]
    text = result.content[0].text
    assert "outside the area" in text and "nodata" in text and "'scl'" in text  # the answer says what was left out
    # progress: one notification per item at least, ending at 2 / 2, in the feed's words
    assert progress[-1][:2] == (2, 2) and progress[-1][2].startswith("2 / 2 items, ")
    assert "MB read" in progress[-1][2]
    # the CSV holds the same table, the chart is a PNG
    with open(data["csv_file"], newline="") as f:
        table = list(csv.DictReader(f))
    assert [r["period"] for r in table] == [DATES[0], DATES[1]]
    assert float(table[0]["mean"]) == pytest.approx(rows[DATES[0]]["mean"])
    with open(data["chart_file"], "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


async def test_a_date_with_tiles_in_two_crs_is_mosaicked_once_per_pixel(server, s2_world):
    result = await _call(server, {"collection": COLLECTION, "datetime": "2024-05-01/2024-05-31", "index": "NDVI",
                                  "polygon": s2_world.area, "exact": True})
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    row = data["rows"][0]
    assert row["items"] == 2
    assert data["grid_crs"] in ("EPSG:32631", "EPSG:32632")  # one grid: both tiles reprojected onto it
    assert row["valid_pixels"] == data["area_pixels"]  # each area pixel once, though both tiles cover the east
    assert row["valid_fraction"] == pytest.approx(1.0)
    assert row["min"] == pytest.approx(0.5, abs=1e-4)  # tile A (UTM 31N)
    assert row["max"] == pytest.approx(0.8, abs=1e-4)  # tile B (UTM 32N), the clearer one, wins its overlap
    assert 0.5 < row["mean"] < 0.8


async def test_overview_mode_says_which_resolution_reads_fewer_bytes_and_stays_close(make_deps, stac_api, s2_world,
                                                                                     cog_server):
    deps = make_deps(httpx.AsyncClient(timeout=10), {"local": stac_api.url})
    items = [i for i in s2_world.items if i["id"] == f"A-{DATES[0]}"]

    async def run(folder: str, **kwargs):
        fresh = [_fresh_copy(cog_server, item, folder) for item in items]  # files no earlier read fetched
        cog_server.reset_counts()
        data = await compute(deps, fresh, s2_world.collection(), s2_world.area, index="NDVI", asset=None,
                             group_by="date", mask_clouds=True, **kwargs)
        return data, sum(cog_server.bytes_sent.values())

    full, full_bytes = await run("s2lyon-overview-full", exact=True)
    coarse, coarse_bytes = await run("s2lyon-overview", exact=False, max_pixels=4096)
    # ~25,000 native pixels over the area > 4,096: two levels coarser, from the COG's overviews
    assert "overviews at 80 m" in coarse["resolution"] and "exact=true" in coarse["resolution"]
    assert coarse["rows"][0]["mean"] == pytest.approx(full["rows"][0]["mean"], abs=0.01)
    # files of 2-5 kB: the headers are most of what either read fetches (before, the overview read was
    # answered from GDAL's cache of the full read's chunks: a third of the bytes said nothing of the reads)
    assert coarse_bytes < 0.8 * full_bytes


async def test_the_bytes_it_reports_are_the_bytes_the_server_sent(make_deps, stac_api, s2_world, cog_server):
    """The progress line's "MB read" and the result's bytes_read: what the server sent (counted there), at
    overviews and at full resolution, from files GDAL has not read before (links under a fresh folder each)."""
    deps = make_deps(httpx.AsyncClient(timeout=10), {"local": stac_api.url})
    for exact, folder in ((False, "s2lyon-bytes-overview"), (True, "s2lyon-bytes-full")):
        items = [_fresh_copy(cog_server, item, folder) for item in s2_world.items]
        cog_server.reset_counts()
        data = await compute(deps, items, s2_world.collection(), s2_world.area, index="NDVI", asset=None,
                             group_by="date", mask_clouds=True, exact=exact, max_pixels=4096)
        served = sum(cog_server.bytes_sent.values())
        assert served > 0
        assert data["bytes_read"] == pytest.approx(served, rel=0.03), (exact, data["bytes_read"], served)


def _fresh_copy(cog_server, item: dict, folder: str) -> dict:
    """The item with its files under a path no earlier test read (links to the same files): GDAL's /vsicurl/
    cache holds what earlier tests fetched, and the bytes served are counted here."""
    import copy
    import os

    fresh = copy.deepcopy(item)
    prefix = cog_server.url + "/"
    for asset in fresh["assets"].values():
        rel = asset["href"][len(prefix):]
        link = cog_server.root / folder / rel
        if not link.exists():
            link.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(cog_server.root / rel, link)
        asset["href"] = f"{prefix}{folder}/{rel}"
    return fresh


async def test_an_item_without_a_needed_band_is_named_with_the_bands_it_has(server, s2_world):
    result = await _call(server, {"collection": COLLECTION, "datetime": "2024-03-01/2024-03-31", "index": "NDMI",
                                  "polygon": s2_world.area})
    assert result.is_error
    text = result.content[0].text
    assert "no 'swir16' band" in text and "nir" in text and "red" in text


async def test_an_asset_by_month_and_the_cloud_filter(server, s2_world):
    result = await _call(server, {"collection": COLLECTION, "datetime": "2024-01-01/2024-12-31", "asset": "nir",
                                  "polygon": s2_world.area, "group_by": "month", "max_cloud_cover": 7, "exact": True})
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    assert [r["period"] for r in data["rows"]] == ["2024-05"]  # only tile B (5 %) passes the filter
    assert data["rows"][0]["min"] == pytest.approx(0.9, abs=1e-6)  # scale/offset applied
    assert "more than 7% cloud" in result.content[0].text


async def test_an_outside_mcp_client_over_http_receives_the_same_progress(tmp_path, stac_api, s2_world):
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    from stacgis_agent.agent.config import CatalogConfig, Settings
    from stacgis_agent.tools.deps import ToolDeps
    from stacgis_agent.tools.outside.http_endpoint import McpHttpEndpoint, load_or_create_token
    from testkit.servers.stac_api import free_port

    deps = ToolDeps.from_settings(Settings(catalogs=[CatalogConfig("local", stac_api.url)]), work_dir=str(tmp_path))
    token = load_or_create_token(tmp_path / "profile")
    endpoint = McpHttpEndpoint(deps, token, free_port())
    await endpoint.start()
    progress: list = []

    async def on_progress(done, total, message):
        progress.append((done, total, message))

    try:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=30)
        async with Client(streamable_http_client(endpoint.url, http_client=http)) as client:
            result = await client.call_tool("collection_statistics", {
                "collection": COLLECTION, "datetime": "2024-03-01/2024-04-30", "index": "NDVI",
                "polygon": s2_world.area, "exact": True}, progress_callback=on_progress)
    finally:
        await endpoint.stop()
    assert not result.is_error, result.content[0].text
    assert progress[0][1] is None and progress[0][2].startswith("searching ")  # before the search: a note
    values = [p[0] for p in progress]
    assert all(b > a for a, b in zip(values, values[1:])), values  # MCP: each progress value above the last
    assert (2, 2) == progress[-1][:2] and any(0 <= p[0] < 1 and p[1] == 2 for p in progress)
    assert progress[-1][2].startswith("2 / 2 items, ") and "MB read" in progress[-1][2]


async def test_a_protected_catalogs_assets_are_read_with_its_headers_which_never_go_to_a_cluster(tmp_path):
    from osgeo import gdal

    from stacgis_agent.agent.config import CatalogConfig, Settings
    from stacgis_agent.tools.deps import ToolDeps
    from testkit.qgis_drivers.canvas_fixtures import NODATA, PIXEL, TILES_NORTH, TILES_WEST, make_canvas_data
    from testkit.servers.protected_cogs import ProtectedCogServer
    from testkit.worlds.stac_fixtures import write_static_catalog

    root = tmp_path / "cogs"
    root.mkdir()
    server = ProtectedCogServer(root, "Authorization", "Bearer s3cret")
    data = make_canvas_data(root, server.url, mosaic_tiles=1)
    catalog = write_static_catalog(tmp_path / "catalog", data)
    server.start()
    allowed = gdal.GetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS")
    gdal.SetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", None)  # GDAL 3.6 refuses /vsicurl?… paths with it
    try:
        config = CatalogConfig("protected", str(catalog), kind="static", headers={"Authorization": "Bearer s3cret"},
                               asset_hosts=[f"127.0.0.1:{server.port}"])
        settings = Settings(catalogs=[config], dask_scheduler="tcp://127.0.0.1:9")  # a cluster that must not be used
        deps = ToolDeps.from_settings(settings, work_dir=str(tmp_path / "out"))
        bbox = [TILES_WEST + 20 * PIXEL, TILES_NORTH - 120 * PIXEL, TILES_WEST + 120 * PIXEL, TILES_NORTH - 20 * PIXEL]
        async with Client(build_server(deps)) as client:
            result = await client.call_tool("collection_statistics", {
                "collection": "tiles", "datetime": "2024-06-01", "asset": "data", "bbox": bbox, "exact": True})
    finally:
        gdal.SetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", allowed)
        server.stop()
    assert not result.is_error, result.content[0].text
    row = result.structured_content["rows"][0]
    raw = gdal.Open(str(root / "tile-0.tif")).ReadAsArray()[20:120, 20:120].astype(float)
    expected = raw[raw != NODATA] * 0.5 + 10.0
    assert row["valid_pixels"] == expected.size and row["mean"] == pytest.approx(expected.mean(), abs=1e-4)
    assert server.refused == 0
    assert "not sent to the Dask cluster" in result.content[0].text


@pytest.mark.parametrize("exact", [True, False])
async def test_a_whole_world_bbox_finds_the_data_inside_it(server, s2_world, exact):
    from testkit.worlds.collection_world import NODATA, OFFSET, SCALE

    result = await _call(server, {"collection": COLLECTION, "datetime": "2024-03-01/2024-04-30", "index": "NDVI",
                                  "bbox": [-180, -90, 180, 90], "exact": exact})
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    rows = {r["period"]: r for r in data["rows"]}
    assert list(rows) == [DATES[0], DATES[1]]
    assert all(r["valid_pixels"] > 0 and r["mean"] is not None for r in rows.values())
    assert "% of the area lies in the items' extent" in result.content[0].text
    if exact:  # every valid pixel of tile A, none twice: the same numbers as numpy over the whole tile
        for date in DATES[:2]:
            raw = s2_world.bands[f"A-{date}"]
            red = raw["red"].astype(np.float64) * SCALE + OFFSET
            nir = raw["nir"].astype(np.float64) * SCALE + OFFSET
            valid = (raw["red"] != NODATA) & (raw["nir"] != NODATA) & ~np.isin(raw["scl"], (3, 8, 9, 10))
            ndvi = ((nir - red) / (nir + red))[valid]
            assert rows[date]["valid_pixels"] == ndvi.size
            assert rows[date]["mean"] == pytest.approx(ndvi.mean(), abs=1e-6)
