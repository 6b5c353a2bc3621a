"""Files for the trap tier (tests/traps): a shapefile whose hole is wound like an outer ring, a raster that its
.aux.xml sidecar moves. Each also in its clean form (the twin)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .cogs import write_cog

LOT_WITH_HOLE = ("POLYGON((500000 5000000,500000 5000100,500300 5000100,500300 5000000,500000 5000000),"
                 "(500010 5000010,500110 5000010,500110 5000020,500010 5000020,500010 5000010))")  # 30,000 − 1,000 m²
HOLE_WOUND_LIKE_A_SHELL = ("POLYGON((500000 5000000,500000 5000100,500300 5000100,500300 5000000,500000 5000000),"
                           "(500010 5000010,500010 5000020,500110 5000020,500110 5000010,500010 5000010))")


def write_lot_shapefile(path: Path, hole_wound_like_a_shell: bool) -> Path:
    """A one-lot shapefile in UTM 31N: its outer ring clockwise (as the format says), its hole counter-clockwise,
    or, in the trap, clockwise too (GDAL would rewind it on write; SHAPE_REWIND_ON_WRITE=NO keeps it as given)."""
    from osgeo import gdal, ogr, osr

    gdal.SetConfigOption("SHAPE_REWIND_ON_WRITE", "NO" if hole_wound_like_a_shell else None)
    try:
        source = ogr.GetDriverByName("ESRI Shapefile").CreateDataSource(str(path))
        srs = osr.SpatialReference()
        srs.ImportFromEPSG(32631)
        layer = source.CreateLayer(path.stem, srs=srs, geom_type=ogr.wkbPolygon)
        feature = ogr.Feature(layer.GetLayerDefn())
        feature.SetGeometry(ogr.CreateGeometryFromWkt(HOLE_WOUND_LIKE_A_SHELL if hole_wound_like_a_shell
                                                      else LOT_WITH_HOLE))
        layer.CreateFeature(feature)
        feature = layer = source = None  # written and closed, in this order
    finally:
        gdal.SetConfigOption("SHAPE_REWIND_ON_WRITE", None)
    return path


SIDECAR_MOVE = """<PAMDataset><SRS dataAxisToSRSAxisMapping="2,1">EPSG:4326</SRS>
<GeoTransform>10.0, 0.01, 0.0, 50.0, 0.0, -0.01</GeoTransform></PAMDataset>"""


def write_scan(path: Path, moved_by_sidecar: bool) -> Path:
    """A 100 × 100 raster of values row × 100 + column that QGIS draws at 10° E, 50° N: placed there by an .aux.xml
    sidecar over its own georeference at 5° E, 46° N (the trap), or by its own georeference (the twin)."""
    values = np.arange(100 * 100, dtype=np.float32).reshape(100, 100)
    write_cog(path, values, origin=(5.0, 46.0) if moved_by_sidecar else (10.0, 50.0), pixel_size=0.01)
    if moved_by_sidecar:
        Path(f"{path}.aux.xml").write_text(SIDECAR_MOVE)
    return path
