"""collection_statistics under partial clouds, against a full-resolution numpy truth: tiles of one date that
overlap, where one tile's SCL flags a cloud the other tile's SCL calls clear, and clouds whose edges cut
through the cells of the overview grid. A cell a cloud of any tile of the date touches is left out of the values,
yet its clear part still counts as valid pixels (a partly covered cell is neither dropped from the count nor
weighed as a whole one); the answer says how many cells the clouds removed, and the mean stays within 0.001 of the
truth."""

from __future__ import annotations

import httpx
import pytest
from mcp import Client

from stacgis_agent.tools.analysis.collection_stats import compute
from stacgis_agent.tools.server import build_server
from testkit.worlds.cloudy_world import COLLECTION, DATES, full_resolution_truth, make_cloudy_world

ACCURACY = 0.001  # the goal for partly cloudy dates: mean NDVI within this of the full-resolution truth


@pytest.fixture(scope="module")
def cloudy(cog_server, stac_api):
    world = make_cloudy_world(cog_server.root / "cloudy", cog_server.url + "/cloudy")
    stac_api.load([world.collection()], world.items)
    return world


@pytest.fixture
def deps(make_deps, stac_api):
    return make_deps(httpx.AsyncClient(timeout=10), {"local": stac_api.url})


async def _rows(deps, world, **kwargs):
    data = await compute(deps, world.items, world.collection(), world.area, index="NDVI", asset=None,
                         group_by="date", mask_clouds=True, **kwargs)
    return data, {r["period"]: r for r in data["rows"]}


@pytest.mark.parametrize("max_pixels", [65_536, 8_192])  # 40 m and 80 m cells over 10 m pixels, 20 m SCL
async def test_partly_cloudy_dates_at_overviews_stay_within_a_thousandth_of_the_full_resolution_truth(
        deps, cloudy, max_pixels):
    data, rows = await _rows(deps, cloudy, exact=False, max_pixels=max_pixels)
    assert "overviews at" in data["resolution"]
    for date in DATES:
        truth = full_resolution_truth(cloudy, date)
        assert 0.03 < truth["flagged_share"] < 0.3  # partly cloudy, not clear and not overcast
        row = rows[date]
        assert abs(row["mean"] - truth["mean"]) < ACCURACY, (date, row["mean"], truth["mean"])
        assert abs(row["median"] - truth["median"]) < 2 * ACCURACY, (date, row["median"], truth["median"])
        # the share of the observed area the mask removed is the clouds' own, not a ring of whole cells around them
        removed_share = row["cloud_excluded_pixels"] / (row["valid_pixels"] + row["cloud_excluded_pixels"])
        assert removed_share == pytest.approx(truth["flagged_share"], abs=0.01), (date, removed_share)
    assert rows[DATES[0]]["items"] == 2


@pytest.mark.parametrize("max_pixels", [65_536, 8_192])
async def test_at_overviews_the_valid_pixels_are_the_clear_area_of_the_truth_not_fewer(deps, cloudy, max_pixels):
    """Cells half under a cloud's edge count for their clear half: the valid share of the area matches the 10 m
    truth's (counting a whole cell out for any cloudy sample left out 0.2–1.3 % of the clear area here)."""
    data, rows = await _rows(deps, cloudy, exact=False, max_pixels=max_pixels)
    for date in DATES:
        truth = full_resolution_truth(cloudy, date)
        valid_share = rows[date]["valid_pixels"] / data["area_pixels"]
        true_share = truth["valid_pixels"] / truth["area_pixels"]
        assert valid_share / true_share == pytest.approx(1, abs=0.0015), (date, valid_share, true_share)


async def test_at_full_resolution_a_cell_any_tile_flags_is_excluded(deps, cloudy):
    _data, rows = await _rows(deps, cloudy, exact=True)
    truth = full_resolution_truth(cloudy, DATES[0])
    row = rows[DATES[0]]
    # the clearer tile B wins the overlap, but A's cloud there still removes the pixels
    assert row["valid_pixels"] == truth["valid_pixels"]
    assert row["cloud_excluded_pixels"] == truth["flagged_pixels"]
    assert row["mean"] == pytest.approx(truth["mean"], abs=1e-5)


async def test_the_answer_says_how_many_cells_the_clouds_removed(make_deps, stac_api, cloudy):
    server = build_server(make_deps(httpx.AsyncClient(timeout=10), {"local": stac_api.url}))
    async with Client(server) as client:
        result = await client.call_tool("collection_statistics", {
            "collection": COLLECTION, "datetime": "2024-06-01/2024-06-30", "index": "NDVI",
            "polygon": cloudy.area})
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    removed = sum(r["cloud_excluded_pixels"] for r in data["rows"])
    assert removed > 0 and data["cloud_excluded_pixels"] == removed
    text = result.content[0].text
    assert f"{removed:,} cell" in text and "any tile" in text, text


async def test_an_overcast_tile_costs_no_band_reads_and_still_removes_its_clouds(deps, cloudy, cog_server):
    """A tile whose SCL flags every cell is answered from its mask alone: the server is never asked for its red
    or nir file, yet its clouds still leave out the other tile's pixels under them, and the table is the one a
    read of every band gives."""
    import copy

    import numpy as np

    from testkit.worlds.cloudy_world import NORTH, SCL_PIXEL, SIZE, SWATH_EDGE, WEST_A
    from testkit.worlds.cogs import write_cog

    first = next(i for i in cloudy.items if i["id"] == f"A-{DATES[0]}")
    overcast = copy.deepcopy(first)
    overcast["id"] = f"A-overcast-{DATES[0]}"
    folder = cog_server.root / "cloudy-overcast"
    scl = np.full((SIZE // 2, SIZE // 2), 9, np.uint8)  # cloud, medium probability, wherever the tile has data
    scl[:, SWATH_EDGE // 2:] = 0  # east of A's swath edge (its red and nir are nodata there): SCL "no data"
    write_cog(folder / "scl.tif", scl, origin=(WEST_A, NORTH), pixel_size=SCL_PIXEL, epsg=32631, blocksize=128,
              overview_resampling="NEAREST")
    for name in ("red", "nir"):  # the same reflectance files under a path of their own, to count their requests
        link = folder / f"{name}.tif"
        if not link.exists():
            link.symlink_to(cog_server.root / "cloudy" / first["id"] / f"{name}.tif")
        overcast["assets"][name]["href"] = f"{cog_server.url}/cloudy-overcast/{name}.tif"
    overcast["assets"]["scl"]["href"] = f"{cog_server.url}/cloudy-overcast/scl.tif"
    overcast["properties"]["eo:cloud_cover"] = 100.0
    second = next(i for i in cloudy.items if i["id"] == f"B-{DATES[0]}")  # the other tile of that date
    world = copy.copy(cloudy)
    world.items = [second, overcast]  # the planner opens the first item to learn the grid
    cog_server.reset_counts()
    data, rows = await _rows(deps, world, exact=False)
    assert cog_server.requests["/cloudy-overcast/scl.tif"] > 0
    assert cog_server.requests["/cloudy-overcast/red.tif"] == cog_server.requests["/cloudy-overcast/nir.tif"] == 0
    # what reading every band gives: B's pixels under the overcast tile's footprint are left out
    from stacgis_agent.tools.engine import stats_worker

    tasks_read_fully = []
    original = stats_worker._mask_cells

    def never_all_flagged(*args, **kwargs):
        sky = original(*args, **kwargs)
        sky.no_data = None
        tasks_read_fully.append(1)
        return sky

    stats_worker._mask_cells = never_all_flagged
    try:
        _full, full_rows = await _rows(deps, world, exact=False)
    finally:
        stats_worker._mask_cells = original
    assert tasks_read_fully
    assert rows[DATES[0]] == full_rows[DATES[0]]
    assert rows[DATES[0]]["cloud_excluded_pixels"] > 0
