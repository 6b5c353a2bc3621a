"""Test data for the STAC tools: COGs with known values, the collections and items that describe
them (loaded into the real STAC API), and the same as a static catalog on disk."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..servers.stac_api import collection_doc
from .cogs import smooth_field, write_cog

ORIGIN = (5.0, 46.0)  # west, north
PIXEL = 0.001
SIZE = 1024
DEM_SCALE, DEM_OFFSET, DEM_NODATA = 0.5, 10.0, -9999.0
DATES = ["2024-06-01", "2024-06-11", "2024-06-21"]
MANY_ITEMS = 137


@dataclass
class TestData:
    root: Path
    arrays: dict[str, np.ndarray] = field(default_factory=dict)  # raw (unscaled) arrays by file name
    collections: list[dict] = field(default_factory=list)
    items: list[dict] = field(default_factory=list)


def _bbox() -> list[float]:
    return [ORIGIN[0], ORIGIN[1] - SIZE * PIXEL, ORIGIN[0] + SIZE * PIXEL, ORIGIN[1]]


def _polygon(b: list[float]) -> dict:
    return {"type": "Polygon", "coordinates": [[[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]], [b[0], b[1]]]]}


def make_test_data(root: Path, base_url: str) -> TestData:
    """COG files under `root` (served at `base_url`) and the STAC documents that point at them."""
    data = TestData(root=root)
    bbox = _bbox()
    dem_bands = [{"nodata": DEM_NODATA, "scale": DEM_SCALE, "offset": DEM_OFFSET, "data_type": "float32"}]
    for k, date in enumerate(DATES):
        raw = smooth_field(SIZE, SIZE, seed=k) + 5 * k
        raw[:40, :40] = DEM_NODATA
        name = f"dem-{date}.tif"
        write_cog(root / name, raw, origin=ORIGIN, pixel_size=PIXEL, nodata=DEM_NODATA, scale=DEM_SCALE,
                  offset=DEM_OFFSET, band_names=["elevation"])
        data.arrays[name] = raw
        data.items.append({
            "type": "Feature", "stac_version": "1.0.0", "id": f"dem-{date}", "collection": "dem-test",
            "geometry": _polygon(bbox), "bbox": bbox,
            "properties": {"datetime": f"{date}T10:00:00Z", "eo:cloud_cover": 10 * k, "proj:epsg": 4326,
                           "proj:shape": [SIZE, SIZE], "proj:transform": [PIXEL, 0, ORIGIN[0], 0, -PIXEL, ORIGIN[1]]},
            "assets": {"data": {"href": f"{base_url}/{name}", "type": "image/tiff; application=geotiff; profile=cloud-optimized",
                                "roles": ["data"], "raster:bands": dem_bands,
                                "eo:bands": [{"name": "elevation"}]}},
            "links": []})
    rgb = np.stack([np.full((256, 256), v, np.uint8) for v in (200, 120, 40)])
    rgb[0, :128] = 100
    write_cog(root / "rgb.tif", rgb, origin=ORIGIN, pixel_size=PIXEL * 4, band_names=["red", "green", "blue"])
    data.arrays["rgb.tif"] = rgb
    data.items.append({
        "type": "Feature", "stac_version": "1.1.0", "id": "rgb-1", "collection": "rgb-test",
        "geometry": _polygon(bbox), "bbox": bbox,
        "properties": {"datetime": None, "start_datetime": "2024-05-01T00:00:00Z", "end_datetime": "2024-05-31T23:59:59Z"},
        "assets": {"visual": {"href": f"{base_url}/rgb.tif", "roles": ["visual"],  # no "type": guessed from href
                              "bands": [{"name": n, "eo:common_name": n} for n in ("red", "green", "blue")]},
                   "broken": {"href": f"{base_url}/missing.tif", "roles": ["data"]}},
        "links": []})
    for i in range(MANY_ITEMS):
        x = 5.0 + (i % 20) * 0.05
        y = 45.0 + (i // 20) * 0.05
        b = [x, y, x + 0.04, y + 0.04]
        data.items.append({"type": "Feature", "stac_version": "1.0.0", "id": f"tile-{i:04d}", "collection": "many-test",
                           "geometry": _polygon(b), "bbox": b,
                           "properties": {"datetime": f"2023-{1 + i % 12:02d}-{1 + i % 28:02d}T00:00:00Z",
                                          "eo:cloud_cover": i % 100},
                           "assets": {}, "links": []})
    data.collections = [
        collection_doc("dem-test", bbox, ["2024-06-01T00:00:00Z", None], title="Test elevation",
                       description="Single-band float elevation with nodata, scale and offset",
                       keywords=["elevation", "dem"],
                       summaries={"eo:bands": [{"name": "elevation"}]},
                       item_assets={"data": {"type": "image/tiff; application=geotiff", "roles": ["data"],
                                             "raster:bands": dem_bands, "eo:bands": [{"name": "elevation"}]}}),
        collection_doc("rgb-test", bbox, ["2024-05-01T00:00:00Z", "2024-05-31T23:59:59Z"], title="Test true colour",
                       description="Three-band RGB visual imagery", keywords=["rgb", "visual"], license="proprietary",
                       item_assets={"visual": {"roles": ["visual"], "bands": [
                           {"name": "red", "eo:common_name": "red"}, {"name": "green", "eo:common_name": "green"},
                           {"name": "blue", "eo:common_name": "blue"}]}}),
        collection_doc("many-test", [5.0, 45.0, 6.0, 45.4], ["2023-01-01T00:00:00Z", "2023-12-31T00:00:00Z"],
                       title="Many tiles", description="Tiles for paging tests", keywords=["tiles"]),
    ]
    return data


def write_static_catalog(folder: Path, data: TestData) -> Path:
    """catalog.json → collection.json → one JSON per item, linked by relative hrefs."""
    folder.mkdir(parents=True, exist_ok=True)
    catalog = {"type": "Catalog", "stac_version": "1.0.0", "id": "static-test", "description": "On-disk test catalog",
               "links": []}
    for collection in data.collections:
        cid = collection["id"]
        (folder / cid).mkdir(exist_ok=True)
        links = []
        for item in data.items:
            if item["collection"] == cid:
                (folder / cid / f"{item['id']}.json").write_text(json.dumps({**item, "links": []}))
                links.append({"rel": "item", "href": f"./{item['id']}.json"})
        (folder / cid / "collection.json").write_text(json.dumps({**collection, "links": links}))
        catalog["links"].append({"rel": "child", "href": f"./{cid}/collection.json"})
    (folder / "catalog.json").write_text(json.dumps(catalog))
    return folder / "catalog.json"
