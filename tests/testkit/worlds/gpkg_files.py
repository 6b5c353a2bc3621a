"""GeoPackages of points for the tests that check a file on disk keeps its rows (a refused or declined
action must leave it as it was): written and read with OGR, never through QGIS's cached layers."""

from __future__ import annotations

import hashlib
from pathlib import Path

from osgeo import ogr


def write_gpkg(path: Path, table: str = "roads", rows: int = 3, spacing: float = 0.1, epsg: int | None = 4326) -> Path:
    """`rows` points named '<table> <i>', `spacing` apart along y = 45 from x = 5 (in the units of `epsg`, the table's
    coordinate system: degrees of EPSG:4326 unless told; None writes no CRS, which QGIS 3.22 reads as GDAL's
    undefined geographic SRS and 3.40+ as none). A file that exists gets the table added."""
    from osgeo import osr

    ogr.UseExceptions()  # in this test process only
    driver = ogr.GetDriverByName("GPKG")
    source = driver.Open(str(path), 1) if path.exists() else driver.CreateDataSource(str(path))
    srs = None
    if epsg is not None:
        srs = osr.SpatialReference()
        srs.ImportFromEPSG(epsg)
    layer = source.CreateLayer(table, srs=srs, geom_type=ogr.wkbPoint)
    layer.CreateField(ogr.FieldDefn("name", ogr.OFTString))
    for i in range(rows):
        feature = ogr.Feature(layer.GetLayerDefn())
        feature.SetField("name", f"{table} {i}")
        feature.SetGeometry(ogr.CreateGeometryFromWkt(f"POINT ({5 + i * spacing} 45)"))
        layer.CreateFeature(feature)
    source = None
    return path


def rows_on_disk(path: Path, table: str = "roads") -> int:
    source = ogr.Open(str(path))  # a fresh read of the file, not QGIS's cached layer
    count = source.GetLayerByName(table).GetFeatureCount()
    source = None
    return count


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
