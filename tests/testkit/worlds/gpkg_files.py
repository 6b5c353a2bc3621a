"""GeoPackages of points for the tests that check a file on disk keeps its rows (a refused or declined
action must leave it as it was): written and read with OGR, never through QGIS's cached layers."""

from __future__ import annotations

import hashlib
from pathlib import Path

from osgeo import ogr


def write_gpkg(path: Path, table: str = "roads", rows: int = 3, spacing: float = 0.1) -> Path:
    """`rows` points named '<table> <i>', `spacing` degrees apart along 45° N from 5° E."""
    ogr.UseExceptions()  # in this test process only
    source = ogr.GetDriverByName("GPKG").CreateDataSource(str(path))
    layer = source.CreateLayer(table, geom_type=ogr.wkbPoint)
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
