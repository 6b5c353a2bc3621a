"""Small Cloud-Optimized GeoTIFFs made with GDAL inside the test, with known pixel values."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np
from osgeo import gdal, osr

# GDAL's exception mode is left as a QGIS user has it (off): the plugin must not depend on a test switching it.

_DTYPES = {np.dtype("float32"): gdal.GDT_Float32, np.dtype("float64"): gdal.GDT_Float64,
           np.dtype("uint8"): gdal.GDT_Byte, np.dtype("uint16"): gdal.GDT_UInt16, np.dtype("int16"): gdal.GDT_Int16}


def write_cog(path: Path, bands: np.ndarray, *, origin: tuple[float, float], pixel_size: float, epsg: int = 4326,
              nodata: float | None = None, scale: float | None = None, offset: float | None = None,
              band_names: Sequence[str] = (), blocksize: int = 256, overview_resampling: str = "AVERAGE") -> Path:
    """Writes `bands` (rows×cols or bands×rows×cols) north-up from `origin` (west, north)."""
    bands = bands[np.newaxis] if bands.ndim == 2 else bands
    count, rows, cols = bands.shape
    mem = gdal.GetDriverByName("MEM").Create("", cols, rows, count, _DTYPES[bands.dtype])
    mem.SetGeoTransform((origin[0], pixel_size, 0, origin[1], 0, -pixel_size))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(epsg)
    mem.SetProjection(srs.ExportToWkt())
    for i in range(count):
        band = mem.GetRasterBand(i + 1)
        band.WriteArray(bands[i])
        if nodata is not None:
            band.SetNoDataValue(nodata)
        if scale is not None:
            band.SetScale(scale)
        if offset is not None:
            band.SetOffset(offset)
        if i < len(band_names):
            band.SetDescription(band_names[i])
    if count == 3 and bands.dtype == np.uint8:
        for i, interp in enumerate((gdal.GCI_RedBand, gdal.GCI_GreenBand, gdal.GCI_BlueBand)):
            mem.GetRasterBand(i + 1).SetColorInterpretation(interp)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    written = gdal.Translate(str(path), mem, format="COG",
                             creationOptions=[f"BLOCKSIZE={blocksize}", "COMPRESS=DEFLATE",
                                              f"RESAMPLING={overview_resampling}", "OVERVIEWS=IGNORE_EXISTING"])
    if written is None:
        raise RuntimeError(f"GDAL could not write {path}: {gdal.GetLastErrorMsg()}")
    written = None
    return path


def smooth_field(rows: int, cols: int, seed: int = 0) -> np.ndarray:
    """A smooth float surface plus a little noise: overview averages stay close to the full-res values."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:rows, 0:cols].astype(np.float32)
    surface = 100 + 40 * np.sin(x / cols * 3.1) + 30 * np.cos(y / rows * 2.3)
    return (surface + rng.normal(0, 2, size=(rows, cols))).astype(np.float32)
