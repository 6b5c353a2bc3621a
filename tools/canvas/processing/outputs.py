"""The files a Processing output really writes, and what is on disk there now, in the analyst's words.

A path without an extension gets the output type's default one (OUTPUT `my_analysis` writes
`my_analysis.gpkg`); a shapefile is a family of files (`roads.shp` rewrites `roads.dbf`, `.prj`, `.cpg`…);
a GeoTIFF carries `.aux.xml` and `.ovr` beside it. The confirmation names every one of them that exists.
Reading what is on disk (layers, feature counts) is I/O: `describe_on_disk` runs in a worker thread.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from ...engine import gdal_names

SIDECARS = {  # extension → the files written or invalidated beside it ({stem}: the path without extension)
    ".shp": ("{stem}.shx", "{stem}.dbf", "{stem}.prj", "{stem}.cpg", "{stem}.qix", "{stem}.sbn", "{stem}.sbx",
             "{path}.xml", "{stem}.qmd"),
    ".dbf": ("{stem}.cpg",),
    ".tif": ("{path}.aux.xml", "{path}.ovr", "{path}.msk", "{stem}.tfw"),
    ".tiff": ("{path}.aux.xml", "{path}.ovr", "{path}.msk", "{stem}.tfw"),
    ".gpkg": ("{path}-wal", "{path}-shm", "{path}-journal"),
    ".sqlite": ("{path}-wal", "{path}-shm", "{path}-journal"),
}
ANY_FILE_SIDECAR = "{path}.aux.xml"  # GDAL keeps statistics beside any raster it writes
DATABASES = {".gpkg": "GeoPackage", ".sqlite": "SpatiaLite database", ".db": "SpatiaLite database",
             ".mbtiles": "MBTiles file"}
KINDS = {".shp": "shapefile", ".tif": "GeoTIFF", ".tiff": "GeoTIFF", ".csv": "CSV file", ".geojson": "GeoJSON file",
         ".json": "JSON file", ".kml": "KML file", ".html": "HTML page", ".xlsx": "spreadsheet", ".ods": "spreadsheet",
         ".pdf": "PDF", ".png": "PNG image", ".vrt": "virtual raster"}
_URI_DBNAME = re.compile(r"dbname='((?:[^'\\]|\\.)*)'|dbname=(\S+)")
_URI_TABLE = re.compile(r"table=\"((?:[^\"\\]|\\.)*)\"|table=(\S+)")


@dataclass(frozen=True)
class Target:
    """Where one output goes: a file (with the extension Processing adds) or a table inside a database file."""
    path: Path
    table: str | None = None  # a layer inside a GeoPackage/SpatiaLite file (ogr: URI)
    also: tuple[Path, ...] = ()  # the path as given, when Processing may write it without the extension

    def files(self) -> list[Path]:
        """Every file this output writes or replaces: the file itself and its sidecars."""
        if self.table is not None:
            return [self.path]
        suffix = self.path.suffix.lower()
        templates = SIDECARS.get(suffix) or (() if suffix in DATABASES else (ANY_FILE_SIDECAR,))
        stem = self.path.with_suffix("")
        found = [self.path, *(Path(t.format(stem=stem, path=self.path)) for t in templates), *self.also]
        return list(dict.fromkeys(found))


def file_target(path: Path, default_extension: str) -> Target:
    """A path as Processing writes it: with no extension, the output type's default one is added."""
    if not path.suffix and default_extension:
        return Target(path.with_name(f"{path.name}.{default_extension.lstrip('.')}"), also=(path,))
    return Target(path)


def table_target(uri: str) -> Target | None:
    """An `ogr:dbname='…' table="…"` destination (a layer inside a database file), or None for other URIs."""
    if not uri.lower().startswith("ogr:"):
        return None
    dbname, table = _URI_DBNAME.search(uri), _URI_TABLE.search(uri)
    if dbname is None or table is None:
        return None
    file = (dbname.group(1) if dbname.group(1) is not None else dbname.group(2)).replace("\\'", "'")
    name = (table.group(1) if table.group(1) is not None else table.group(2)).replace('\\"', '"')
    return Target(Path(os.path.realpath(os.path.expanduser(file))), name)


def describe_on_disk(target: Target) -> str | None:
    """What writing this output replaces, in words ("the existing file /o/a.gpkg (a GeoPackage with layer
    'roads', 3 features)"), or None when it only creates new files. Call in a worker thread."""
    if target.table is not None:
        return _describe_table(target)
    existing = [f for f in target.files() if f.is_file()]
    if not existing:
        return None
    written = next((f for f in (target.path, *target.also) if f in existing), None)
    words = f"the existing file {written} ({_what_is_in(written)})" if written else ""
    sidecars = [f.name for f in existing if f != written and f not in target.also]
    if sidecars:
        beside = f"the existing file(s) {', '.join(sidecars)} beside {target.path}"
        words = f"{words} and {beside}" if words else beside
    return words


def _describe_table(target: Target) -> str:
    kind = DATABASES.get(target.path.suffix.lower(), "database file")
    if not target.path.exists():
        return f"creates the new {kind} {target.path} with layer '{target.table}'"
    counts = _layer_counts(target.path)
    if target.table in counts:
        others = len(counts) - 1
        kept = "; its other layer stays" if others == 1 else f"; its {others} other layers stay" if others else ""
        return (f"replaces the existing layer '{target.table}' ({_features(counts[target.table])}) "
                f"in {kind} {target.path}{kept}")
    stay = "its layer stays" if len(counts) == 1 else f"its {len(counts)} layers stay"
    return f"adds the new layer '{target.table}' to {kind} {target.path} ({stay})"


def _what_is_in(path: Path) -> str:
    suffix = path.suffix.lower()
    kind = DATABASES.get(suffix) or KINDS.get(suffix) or "file"
    counts = _layer_counts(path)
    if not counts:
        return f"a {kind}"
    listed = ", ".join(f"'{name}' ({_features(count)})" for name, count in list(counts.items())[:5])
    more = f" and {len(counts) - 5} more" if len(counts) > 5 else ""
    return f"a {kind} with layer(s) {listed}{more}"


def _features(count: int | None) -> str:
    return "features unknown" if count is None or count < 0 else f"{count} feature{'s' if count != 1 else ''}"


def _layer_counts(path: Path) -> dict[str, int | None]:
    """Layer name → feature count of a vector file, read-only; {} for rasters and unreadable files."""
    from osgeo import gdal

    dataset = gdal.OpenEx(gdal_names.dataset(gdal_names.local_file(path)), gdal.OF_VECTOR | gdal.OF_READONLY)  # None if not vector
    if dataset is None:
        return {}
    try:
        return {layer.GetName(): layer.GetFeatureCount() for layer in
                (dataset.GetLayer(i) for i in range(dataset.GetLayerCount()))}
    finally:
        dataset = None
