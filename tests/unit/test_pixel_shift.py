"""A tile in the grid's CRS whose pixels are not the grid's cells (a neighbouring Sentinel-2 tile's lattice shifted
by a fraction of a pixel; an overview pixel of 963.2 m under a 960 m grid) is read and resampled in numpy: the
cells are those GDAL's warp gives (overlap-weighted average with nodata left out; nearest for masks), at the
tile's edges, its nodata and cells off the tile included."""

from __future__ import annotations

import numpy as np
import pytest
from osgeo import gdal, osr

from stacgis_agent.tools.engine.grid_windows import Grid
from stacgis_agent.tools.engine.pixel_shift import lattice_of, read_resampled

NODATA = 0
PIXEL = 963.2


def _tile() -> gdal.Dataset:
    rng = np.random.default_rng(3)
    values = rng.integers(1, 5000, (40, 50)).astype(np.uint16)
    values[5:9, 10:30] = NODATA  # a hole
    values[:, 45:] = NODATA  # a swath's end
    ds = gdal.GetDriverByName("MEM").Create("", 50, 40, 1, gdal.GDT_UInt16)
    ds.SetGeoTransform((600000.0, PIXEL, 0, 5400000.0, 0, -PIXEL))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(32632)
    ds.SetProjection(srs.ExportToWkt())
    ds.GetRasterBand(1).WriteArray(values)
    ds.GetRasterBand(1).SetNoDataValue(NODATA)
    return ds


@pytest.mark.parametrize("resampling", ["average", "nearest"])
@pytest.mark.parametrize("shift, cell", [((0.125, 0.0), PIXEL), ((0.3, 0.7), PIXEL), ((0.0, 0.0), 960.0),
                                         ((0.4, 0.2), 960.0), ((-3.6, -2.25), 960.0), ((0.5, 0.5), 2 * PIXEL)])
def test_another_lattice_in_the_same_crs_gives_the_cells_gdal_warp_gives(resampling, shift, cell):
    ds = _tile()
    west, north = 600000.0 + shift[0] * PIXEL, 5400000.0 - shift[1] * PIXEL
    cols, rows = int(52 * PIXEL / cell), int(30 * PIXEL / cell)  # past the tile's east edge
    grid = Grid(ds.GetProjection(), (west, north - rows * cell, west + cols * cell, north), cols, rows)
    lattice = lattice_of(ds, ds.GetRasterBand(1), grid, True)
    assert lattice[:2] == pytest.approx(shift)
    ours = read_resampled(ds.GetRasterBand(1), lattice, grid, NODATA, resampling)
    warped = gdal.Warp("", ds, format="MEM", outputBounds=grid.bounds, width=grid.width, height=grid.height,
                       resampleAlg=resampling, outputType=gdal.GDT_Float32, srcNodata=NODATA,
                       dstNodata=float("nan"), warpOptions=["INIT_DEST=NO_DATA"]).ReadAsArray()
    both = np.isfinite(ours) & np.isfinite(warped)
    assert both.sum() > 0.5 * ours.size
    assert np.allclose(ours[both], warped[both], rtol=1e-4)
    # a cell has a value in one exactly where it has one in the other, but cells wholly off the tile: GDAL's warp
    # gives those its neighbour's value when the grid starts before the tile
    x = shift[0] + np.arange(cols) * cell / PIXEL
    y = shift[1] + np.arange(rows) * cell / PIXEL
    step = cell / PIXEL
    on_tile = ((y + step > 0) & (y < 40))[:, None] & ((x + step > 0) & (x < 50))[None, :]
    assert np.array_equal(np.isfinite(ours), np.isfinite(warped) & on_tile)


def test_another_crs_or_a_rotated_grid_is_left_to_the_warp():
    ds = _tile()
    grid = Grid(ds.GetProjection(), (600100.0, 5400000.0 - 9600.0, 609700.0, 5400000.0), 10, 10)
    assert lattice_of(ds, ds.GetRasterBand(1), grid, False) is None
    ds.SetGeoTransform((600000.0, PIXEL, 1.0, 5400000.0, 0, -PIXEL))
    assert lattice_of(ds, ds.GetRasterBand(1), grid, True) is None
