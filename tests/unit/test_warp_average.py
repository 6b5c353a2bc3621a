"""The average warp of another zone's tile onto the grid (tools/engine/warp_average.py): its cells against a field
whose true cell averages are known, GDAL's own average warp beside it; cells over nodata, half over it, and off the
tile; one map made for every band and date of a tile, also when threads ask for it at once."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from osgeo import gdal, gdal_array, osr

from stacgis_agent.tools.engine import warp_average
from stacgis_agent.tools.engine.grid_windows import Grid

PIXEL = 60.0
SOURCE_WEST, SOURCE_NORTH = 300000.0, 5310060.0  # a tile in UTM 33N, 24 km wide (400 pixels), as year_world's
GRID_WEST, GRID_NORTH = 750480.0, 5310000.0  # inside it, on UTM 32N's 60 m lattice


def _wkt(epsg: int) -> str:
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(epsg)
    return srs.ExportToWkt()


def _to_32n():
    a, b = osr.SpatialReference(), osr.SpatialReference()
    a.ImportFromEPSG(32633), b.ImportFromEPSG(32632)
    for srs in (a, b):
        srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    return osr.CoordinateTransformation(a, b)


def field(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """A smooth field of the ground position (UTM 32N metres): linear, so a cell's true average is its centre's."""
    return 1000.0 + 3.0 * (x - GRID_WEST) / PIXEL - 2.0 * (GRID_NORTH - y) / PIXEL


def source(size: int = 400, dtype=np.float32) -> gdal.Dataset:
    """A 33N tile in memory whose pixels hold the field at their centres."""
    r, c = np.mgrid[0:size, 0:size].astype(np.float64)
    x, y = SOURCE_WEST + (c + 0.5) * PIXEL, SOURCE_NORTH - (r + 0.5) * PIXEL
    moved = np.asarray(_to_32n().TransformPoints(np.column_stack([x.ravel(), y.ravel()]).tolist()))
    values = field(moved[:, 0], moved[:, 1]).reshape(size, size).astype(dtype)
    return memory(values)


def memory(values: np.ndarray) -> gdal.Dataset:
    mem = gdal_array.OpenArray(values)
    mem.SetGeoTransform((SOURCE_WEST, PIXEL, 0.0, SOURCE_NORTH, 0.0, -PIXEL))
    mem.SetProjection(_wkt(32633))
    mem.samples = values
    return mem


def grid(width: int = 200, height: int = 150, west: float = GRID_WEST, north: float = GRID_NORTH,
         pixel: float = PIXEL) -> Grid:
    return Grid(_wkt(32632), (west, north - height * pixel, west + width * pixel, north), width, height)


def truth(cells: Grid) -> np.ndarray:
    gt = cells.geotransform
    r, c = np.mgrid[0:cells.height, 0:cells.width].astype(np.float64)
    return field(gt[0] + (c + 0.5) * gt[1], gt[3] + (r + 0.5) * gt[5])


def gdal_average(src: gdal.Dataset, cells: Grid, nodata: float | None = None) -> np.ndarray:
    out = np.full((cells.height, cells.width), np.nan, np.float32)
    target = gdal_array.OpenArray(out)
    target.SetGeoTransform(cells.geotransform)
    target.SetProjection(cells.crs_wkt)
    gdal.Warp(target, src, options=gdal.WarpOptions(resampleAlg="average", srcNodata=nodata, dstNodata=float("nan"),
                                                     multithread=False, warpOptions=["INIT_DEST=NO_DATA"]))
    del target
    return out


@pytest.fixture(autouse=True)
def fresh_maps(monkeypatch):
    monkeypatch.setattr(warp_average, "_maps", warp_average.KeptMaps(16, warp_average.MAPS_BYTES))


def never(*_args):
    raise AssertionError("GDAL was asked to warp")


def test_a_cells_value_is_the_average_of_its_footprint_closer_to_the_truth_than_gdals_warp():
    src, cells = source(), grid()
    mine = warp_average.average(src, cells, None, never)
    gdals = gdal_average(src, cells)
    true = truth(cells)
    assert np.isfinite(mine).all() and np.isfinite(gdals).all()
    mine_error, gdal_error = np.abs(mine - true), np.abs(gdals - true)
    # the field climbs 3.6 a pixel: a footprint a tenth of a pixel off would be 0.36 off
    assert mine_error.max() < 0.05, mine_error.max()
    assert mine_error.mean() <= gdal_error.mean(), (mine_error.mean(), gdal_error.mean())
    assert np.abs(mine - gdals).max() < 1.0  # GDAL's own kind of average, its transformer approximated


def test_a_map_made_a_few_rows_at_a_time_is_the_map_made_at_once(monkeypatch):
    """The map is made BUILD_ROWS grid rows at a time (a whole grid's temporaries were ~70 MB paged in afresh):
    every row's boxes, weights and first pixels are those of one pass over the grid, the last short step too."""
    src, cells = source(), grid(width=230, height=150, west=GRID_WEST - 3000.0)  # off the tile's west edge too
    monkeypatch.setattr(warp_average, "BUILD_ROWS", 10_000)
    whole = warp_average._build(src, cells)
    monkeypatch.setattr(warp_average, "BUILD_ROWS", 7)  # 21 steps of 7 rows and one of 3
    steps = warp_average._build(src, cells)
    assert (whole.offsets, whole.pad, whole.stride) == (steps.offsets, steps.pad, steps.stride)
    assert np.array_equal(whole.first, steps.first) and np.array_equal(whole.inside, steps.inside)
    assert all(np.array_equal(a, b) for a, b in zip(whole.weights, steps.weights))
    assert (whole.inside == 0).any() and (whole.inside > 0).any()  # cells off the tile and on it


def test_cells_over_nodata_are_nan_half_over_it_take_their_valid_pixels_and_off_the_tile_are_nan():
    src = source(dtype=np.uint16)
    values = src.samples.copy()
    values[:, 200:] = 0  # nodata east of the tile's column 200
    mem = memory(values)
    cells = grid(width=300, height=100, west=GRID_WEST - 3000.0)  # across the tile's west edge and its nodata line
    mine = warp_average.average(mem, cells, 0, never)
    gdals = gdal_average(mem, cells, 0)
    true = truth(cells)
    both = np.isfinite(mine) & np.isfinite(gdals)
    # the same cells are valid but for a few along the edges, where the footprints' corners differ by GDAL's
    # approximation
    assert abs(int(np.isfinite(mine).sum()) - int(np.isfinite(gdals).sum())) <= 0.01 * both.sum()
    assert np.isnan(mine).any() and np.isfinite(mine).sum() > 1000
    # well inside the valid part, the truth to the integer the pixels hold
    inner = np.zeros(mine.shape, bool)
    valid = np.isfinite(mine)
    inner[2:-2, 2:-2] = valid[:-4, 2:-2] & valid[4:, 2:-2] & valid[2:-2, :-4] & valid[2:-2, 4:]
    assert np.abs(mine[inner] - true[inner]).max() < 1.0
    # a cell half over nodata is the mean of its valid pixels: within the valid values' range, never pulled to 0
    edge = valid & ~inner
    assert (mine[edge] > 500).all()


def test_the_map_is_made_once_for_the_bands_and_dates_of_a_tile_also_by_threads_at_once(monkeypatch):
    made = []
    build = warp_average._build

    def counted(mem, cells):
        made.append(1)
        time.sleep(0.05)  # long enough for the other threads to ask meanwhile
        return build(mem, cells)

    monkeypatch.setattr(warp_average, "_build", counted)
    cells = grid()
    tiles = [source() for _ in range(4)]  # four dates of one tile: one footprint
    results = [None] * 4

    def read(k: int) -> None:
        results[k] = warp_average.average(tiles[k], cells, None, never)

    threads = [threading.Thread(target=read, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(made) == 1
    assert all(np.array_equal(results[0], r) for r in results)
    warp_average.average(source(), grid(width=100), None, never)  # another grid: another map
    assert len(made) == 2


def test_a_grid_far_coarser_than_the_tile_is_left_to_gdal():
    src, cells = source(), grid(width=10, height=10, pixel=PIXEL * 8)
    asked = []

    def warp(mem, target):
        asked.append(target)
        return np.zeros((target.height, target.width), np.float32)

    out = warp_average.average(src, cells, None, warp)
    assert asked == [cells] and out.shape == (10, 10)


def test_gdals_warp_leaves_no_cell_unset_where_its_chunks_meet_no_source(monkeypatch):
    """GDAL warps a large grid chunk by chunk and skips the chunks no source pixel reaches: their cells are NaN
    (nothing there), not whatever the memory held."""
    from stacgis_agent.tools.engine import stats_worker

    monkeypatch.setattr(stats_worker, "WARP_CHUNK_BYTES", 200_000)
    src = source(size=40)  # 2.4 km of tile in a corner of a 36 km grid
    cells = grid(width=600, height=600, west=750000.0, north=5312040.0)
    for _ in range(3):  # memory freed by the last round is what the next round's cells are made of
        out = stats_worker._warped(src, stats_worker.BandRef("mem"), cells, "average", None, 1, "full resolution",
                                   None, single_band=True)
        assert 0 < np.isfinite(out).sum() < 2 * 40 * 40
        assert np.isnan(out[-300:, -300:]).all()


def test_a_float_tile_with_nodata_0_and_nan_pixels_averages_the_valid_pixels_around_a_nan():
    src = source()
    values = src.samples.copy()
    values[100:110, 100:110] = np.nan  # no value there, though the tile's nodata is 0
    mem = memory(values)
    cells = grid()
    mine = warp_average.average(mem, cells, 0, never)
    clean = warp_average.average(source(), cells, 0, never)
    # only the cells wholly over the 10 × 10 NaN pixels have no value (about 9 × 9 of them); one partly over them
    # is the mean of its valid pixels, as a cell partly over nodata is
    assert np.isfinite(clean).all()
    assert 64 <= int(np.isnan(mine).sum()) <= 100
    both = np.isfinite(mine)
    assert np.abs(mine[both] - truth(cells)[both]).max() < 4.0
