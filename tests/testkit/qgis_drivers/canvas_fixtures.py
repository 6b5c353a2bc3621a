"""Test data for the canvas tools: COGs served over HTTP and the STAC items that point at them
(adjacent tiles for a mosaic, an NDVI index with nodata, red/green/blue band assets, a visual RGB,
an item in another CRS, a broken href), loaded into the real STAC API."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..servers.stac_api import collection_doc
from ..worlds.cogs import smooth_field, write_cog

TILE = 256
PIXEL = 0.001
TILE_DEG = TILE * PIXEL
TILES_WEST, TILES_NORTH = 6.0, 45.5
NODATA = -9999.0
NDVI_NODATA = -2.0
SERIES_DATES = ["2024-05-03", "2024-05-13", "2024-05-23"]
S2_SCALE, S2_OFFSET = 0.0001, -0.1
SCL_CLASSES = {4: "vegetation", 5: "not vegetated", 6: "water", 8: "cloud medium probability", 9: "cloud high probability"}


@dataclass
class CanvasData:
    root: Path
    collections: list[dict] = field(default_factory=list)
    items: list[dict] = field(default_factory=list)

    def ids(self, collection: str) -> list[str]:
        return [i["id"] for i in self.items if i["collection"] == collection]


def _polygon(b: list[float]) -> dict:
    return {"type": "Polygon", "coordinates": [[[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]], [b[0], b[1]]]]}


def _item(collection: str, item_id: str, bbox: list[float], assets: dict, date: str = "2024-06-01", **props) -> dict:
    return {"type": "Feature", "stac_version": "1.0.0", "id": item_id, "collection": collection,
            "geometry": _polygon(bbox), "bbox": bbox,
            "properties": {"datetime": f"{date}T10:00:00Z", **props}, "assets": assets, "links": []}


def make_canvas_data(root: Path, base_url: str, mosaic_tiles: int = 3) -> CanvasData:
    data = CanvasData(root=root)
    dem_bands = [{"nodata": NODATA, "scale": 0.5, "offset": 10.0, "data_type": "float32"}]
    tiles_bbox = [TILES_WEST, TILES_NORTH - TILE_DEG, TILES_WEST + mosaic_tiles * TILE_DEG, TILES_NORTH]
    for k in range(mosaic_tiles):  # side by side, west to east
        west = TILES_WEST + k * TILE_DEG
        raw = smooth_field(TILE, TILE, seed=k)
        raw[:8, :8] = NODATA
        write_cog(root / f"tile-{k}.tif", raw, origin=(west, TILES_NORTH), pixel_size=PIXEL, nodata=NODATA,
                  scale=0.5, offset=10.0, band_names=["elevation"])
        bbox = [west, TILES_NORTH - TILE_DEG, west + TILE_DEG, TILES_NORTH]
        data.items.append(_item("tiles", f"tile-{k}", bbox, {"data": {
            "href": f"{base_url}/tile-{k}.tif", "type": "image/tiff; application=geotiff", "roles": ["data"],
            "raster:bands": dem_bands, "eo:bands": [{"name": "elevation"}]}},
            date=f"2024-06-0{1 + k % 9}", **{"proj:code": "EPSG:4326", "proj:shape": [TILE, TILE],  # projection v2
                                               "proj:transform": [PIXEL, 0, west, 0, -PIXEL, TILES_NORTH],
                                               "eo:cloud_cover": 5 * k}))
    ndvi = np.linspace(-0.5, 0.9, TILE * TILE, dtype=np.float32).reshape(TILE, TILE)
    ndvi[:16, :] = NDVI_NODATA
    write_cog(root / "ndvi.tif", ndvi, origin=(TILES_WEST, TILES_NORTH), pixel_size=PIXEL, nodata=NDVI_NODATA,
              band_names=["ndvi"])
    box = [TILES_WEST, TILES_NORTH - TILE_DEG, TILES_WEST + TILE_DEG, TILES_NORTH]
    data.items.append(_item("ndvi", "ndvi-1", box, {"ndvi": {
        "href": f"{base_url}/ndvi.tif", "type": "image/tiff; application=geotiff; profile=cloud-optimized",
        "roles": ["data"], "raster:bands": [{"nodata": NDVI_NODATA, "data_type": "float32"}],
        "eo:bands": [{"name": "ndvi", "description": "Normalised difference vegetation index"}]}}))
    s2_assets = {}
    for value, colour, key in ((1200, "red", "B04"), (1000, "green", "B03"), (800, "blue", "B02")):
        raw = np.full((TILE, TILE), value, np.uint16)
        raw[:, : TILE // 2] += 600
        write_cog(root / f"s2-{key}.tif", raw, origin=(TILES_WEST, TILES_NORTH), pixel_size=PIXEL, nodata=0)
        s2_assets[key] = {"href": f"{base_url}/s2-{key}.tif", "type": "image/tiff; application=geotiff", "roles": ["data"],
                          "eo:bands": [{"name": key, "common_name": colour}],
                          "raster:bands": [{"nodata": 0, "scale": S2_SCALE, "offset": S2_OFFSET}]}
    data.items.append(_item("s2like", "s2-1", box, s2_assets, **{"proj:epsg": 4326}))
    rgb = np.stack([np.full((TILE, TILE), v, np.uint8) for v in (200, 120, 40)])
    write_cog(root / "visual.tif", rgb, origin=(TILES_WEST, TILES_NORTH), pixel_size=PIXEL)
    data.items.append(_item("visual", "visual-1", box, {
        "visual": {"href": f"{base_url}/visual.tif", "roles": ["visual"],
                   "eo:bands": [{"name": n, "common_name": n} for n in ("red", "green", "blue")]},
        "broken": {"href": f"{base_url}/missing.tif", "type": "image/tiff", "roles": ["data"]}}))
    utm = smooth_field(128, 128, seed=9)
    write_cog(root / "utm.tif", utm, origin=(300000.0, 5000000.0), pixel_size=100.0, epsg=32632)
    data.items.append(_item("mixed", "mixed-utm", [6.4, 44.9, 6.55, 45.05], {"data": {
        "href": f"{base_url}/utm.tif", "type": "image/tiff", "roles": ["data"]}}, **{"proj:epsg": 32632}))
    data.items.append(_item("mixed", "mixed-geo", tiles_bbox, {"data": {
        "href": f"{base_url}/tile-0.tif", "type": "image/tiff", "roles": ["data"]}}, date="2024-06-02"))
    scl = np.zeros((TILE, TILE), np.uint8)  # Sentinel-2 scene classification: a few classes, 0 = no data
    for k, value in enumerate(SCL_CLASSES):
        scl[:, 50 * k + 6: 50 * (k + 1)] = value
    write_cog(root / "scl.tif", scl, origin=(TILES_WEST, TILES_NORTH), pixel_size=PIXEL, nodata=0,
              overview_resampling="NEAREST")
    data.items.append(_item("scl", "scl-1", box, {"SCL": {
        "href": f"{base_url}/scl.tif", "type": "image/tiff; application=geotiff", "roles": ["data"],
        "raster:bands": [{"nodata": 0, "data_type": "uint8"}],
        "classification:classes": [{"value": v, "description": d} for v, d in SCL_CLASSES.items()]}}))
    for k, date in enumerate(SERIES_DATES):  # the same ground on three days: a time series, not a mosaic
        write_cog(root / f"series-{k}.tif", np.full((64, 64), 10.0 * (k + 1), np.float32),
                  origin=(TILES_WEST, TILES_NORTH), pixel_size=TILE_DEG / 64, nodata=NODATA)
        data.items.append(_item("series", f"series-{date}", box, {"data": {
            "href": f"{base_url}/series-{k}.tif", "type": "image/tiff", "roles": ["data"]}}, date=date))
    everything = [4.0, 44.0, 8.0, 46.0]
    for cid in ("tiles", "ndvi", "s2like", "visual", "mixed", "scl", "series"):
        data.collections.append(collection_doc(cid, everything, ["2024-06-01T00:00:00Z", None]))
    return data
