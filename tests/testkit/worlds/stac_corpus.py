"""Published STAC items (tests/data/stac_corpus/items) made readable on loopback: each raster asset a test names
gets a small COG of its own, with the asset's band count and data type, in the item's CRS over the item's
bbox, raw values inside the item's own statistics; its href is rewritten to that COG. Nothing else in the
document changes (SOURCES.md says so). The COG paints three vertical stripes: the band whose common name is
red is high in the west third, green in the middle, blue in the east; every other band sits in between, so a
renderer that draws the right bands shows red, green, blue from west to east."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
from osgeo import gdal, osr

from ..servers.stac_replay import CORPUS
from .cogs import write_cog

SIZE = 96
_DTYPES = {"uint8": np.uint8, "uint16": np.uint16, "int16": np.int16, "float32": np.float32}
STRIPES = ("red", "green", "blue")


def corpus_item(name: str) -> dict:
    return json.loads((CORPUS / "items" / name).read_text(encoding="utf-8"))


def stripe_columns(width: int) -> dict[str, slice]:
    third = width // 3
    return {"red": slice(0, third), "green": slice(third, 2 * third), "blue": slice(2 * third, width)}


def _levels(band: dict, dtype: Any) -> tuple[float, float, float]:
    """(low, middle, high) raw values: inside the band's declared statistics when it has them."""
    stats = band.get("statistics") or {}
    if "minimum" in stats and "maximum" in stats:
        low, high = float(stats["minimum"]), float(stats["maximum"])
    else:
        low, high = (20.0, 230.0) if dtype == np.uint8 else (500.0, 9500.0)
    span = high - low
    return low + 0.1 * span, low + 0.5 * span, high - 0.1 * span


def striped_bands(bands: list[dict], dtype: Any, rows: int = SIZE, cols: int = SIZE) -> np.ndarray:
    columns = stripe_columns(cols)
    out = np.zeros((len(bands), rows, cols), dtype=dtype)
    for i, band in enumerate(bands):
        low, middle, high = _levels(band, dtype)
        colour = str(band.get("common_name") or "").lower()
        out[i, :, :] = low if colour in STRIPES else middle
        if colour in STRIPES:
            out[i, :, columns[colour]] = high
    return out


def item_epsg(item: dict, asset: dict) -> int:
    from stacgis_agent.tools.canvas.layers.stac_assets import item_epsg as catalog_epsg

    return catalog_epsg(item, asset) or 4326


def _projected_bounds(bbox: list[float], epsg: int) -> tuple[float, float, float, float]:
    wgs84, target = osr.SpatialReference(), osr.SpatialReference()
    wgs84.ImportFromEPSG(4326)
    target.ImportFromEPSG(epsg)
    for srs in (wgs84, target):
        srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    west, south, east, north = bbox[0], bbox[1], bbox[-3 if len(bbox) == 6 else 2], bbox[-1]
    xs, ys = [], []
    transform = osr.CoordinateTransformation(wgs84, target)
    for x, y in ((west, south), (west, north), (east, south), (east, north)):
        px, py, _ = transform.TransformPoint(x, y)
        xs.append(px)
        ys.append(py)
    return min(xs), min(ys), max(xs), max(ys)


def localise(item: dict, asset_key: str, root: Path, base_url: str, *, epsg: int | None = None,
             file_crs: bool = True) -> dict:
    """The item with `asset_key`'s href pointing at a COG written under `root` (served at `base_url`).
    `epsg` overrides the CRS the file is written in; `file_crs=False` writes no CRS into the file."""
    from stacgis_agent.tools.engine.stac_bands import asset_bands
    from stacgis_agent.tools.stac.legacy import upgraded_item

    asset = upgraded_item(item)["assets"][asset_key]
    bands = asset_bands(asset) or [{}, {}, {}]
    dtype = _DTYPES.get(str(bands[0].get("data_type") or asset.get("data_type") or "uint16"), np.uint16)
    epsg = epsg or item_epsg(item, asset)
    west, south, east, north = _projected_bounds(item["bbox"], epsg)
    pixel = max(east - west, north - south) / SIZE
    name = f"{item['id']}-{asset_key}.tif".replace("/", "_")
    path = write_cog(Path(root) / name, striped_bands(bands, dtype), origin=(west, north), pixel_size=pixel, epsg=epsg)
    if not file_crs:
        _drop_crs(path)
    localised = json.loads(json.dumps(item))
    localised["assets"][asset_key]["href"] = f"{base_url}/{name}"
    return localised


def _drop_crs(path: Path) -> None:
    """Rewrites the file without a CRS (georeferencing kept), as some published files are."""
    source = gdal.Open(str(path))
    copy = path.with_suffix(".nocrs.tif")
    gdal.Translate(str(copy), source, format="GTiff", creationOptions=["TILED=YES"])
    source = None
    ds = gdal.Open(str(copy), gdal.GA_Update)
    ds.SetProjection("")
    ds = None
    copy.replace(path)


def static_catalog(folder: Path, items: list[dict]) -> Path:
    """A catalog.json linking `items` (written beside it): the plugin's catalog for the test."""
    folder.mkdir(parents=True, exist_ok=True)
    links = []
    for number, item in enumerate(items):
        name = f"item-{number}.json"  # ids may hold a '/' (pystac's 0.9 example does)
        (folder / name).write_text(json.dumps(item), encoding="utf-8")
        links.append({"rel": "item", "href": f"./{name}"})
    catalog = {"type": "Catalog", "stac_version": "1.0.0", "id": "corpus", "description": "Published items",
               "links": links}
    (folder / "catalog.json").write_text(json.dumps(catalog), encoding="utf-8")
    return folder / "catalog.json"


def item_collection_file(folder: Path, items: list[dict]) -> Path:
    path = Path(folder) / "items.geojson"
    path.write_text(json.dumps({"type": "FeatureCollection", "features": items}), encoding="utf-8")
    return path
