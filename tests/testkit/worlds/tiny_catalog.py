"""A static STAC catalog of one-item collections over small lon/lat COGs, for tests that care about what a
catalog's text (collection ids, asset keys) or many small calls do, not about the pixels."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .cogs import write_cog

ORIGIN, PIXEL, SIZE = (5.0, 46.0), 0.001, 64
DATE = "2024-06-01"


def tiny_bbox() -> list[float]:
    return [ORIGIN[0], ORIGIN[1] - SIZE * PIXEL, ORIGIN[0] + SIZE * PIXEL, ORIGIN[1]]


def write_tiny_cog(path: Path, seed: int = 0) -> Path:
    """SIZE × SIZE float32 values seed, seed + 1, … north-up from ORIGIN (EPSG:4326)."""
    values = (np.arange(SIZE * SIZE, dtype=np.float32) + seed).reshape(SIZE, SIZE)
    return write_cog(path, values, origin=ORIGIN, pixel_size=PIXEL)


def write_tiny_catalog(folder: Path, entries: list[tuple[str, str, str]]) -> Path:
    """catalog.json with one collection per (collection id, asset key, href), each holding one item on DATE."""
    b = tiny_bbox()
    ring = [[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]], [b[0], b[1]]]
    catalog = {"type": "Catalog", "stac_version": "1.0.0", "id": "tiny", "description": "tiny", "links": []}
    for k, (collection_id, asset, href) in enumerate(entries):
        item = {"type": "Feature", "stac_version": "1.0.0", "id": f"item-{k}", "collection": collection_id,
                "bbox": b, "geometry": {"type": "Polygon", "coordinates": [ring]},
                "properties": {"datetime": f"{DATE}T10:00:00Z"}, "links": [],
                "assets": {asset: {"href": href, "type": "image/tiff; application=geotiff", "roles": ["data"]}}}
        collection = {"type": "Collection", "stac_version": "1.0.0", "id": collection_id, "description": "tiny",
                      "license": "CC0-1.0", "links": [{"rel": "item", "href": f"./item-{k}.json"}],
                      "extent": {"spatial": {"bbox": [b]}, "temporal": {"interval": [["2024-01-01T00:00:00Z", None]]}}}
        (folder / f"c{k}").mkdir(parents=True)
        (folder / f"c{k}" / f"item-{k}.json").write_text(json.dumps(item))
        (folder / f"c{k}" / "collection.json").write_text(json.dumps(collection))
        catalog["links"].append({"rel": "child", "href": f"./c{k}/collection.json"})
    (folder / "catalog.json").write_text(json.dumps(catalog))
    return folder / "catalog.json"


def write_dated_collection(folder: Path, collection_id: str, asset: str, hrefs: list[str]) -> Path:
    """catalog.json with one collection whose item k (asset href k) is dated k days after 2024-06-01: a call
    over the summer reads them all, one date each."""
    from datetime import date, timedelta

    b = tiny_bbox()
    ring = [[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]], [b[0], b[1]]]
    folder.mkdir(parents=True, exist_ok=True)
    links = []
    for k, href in enumerate(hrefs):
        item = {"type": "Feature", "stac_version": "1.0.0", "id": f"item-{k}", "collection": collection_id,
                "bbox": b, "geometry": {"type": "Polygon", "coordinates": [ring]},
                "properties": {"datetime": f"{date(2024, 6, 1) + timedelta(days=k)}T10:00:00Z"}, "links": [],
                "assets": {asset: {"href": href, "type": "image/tiff; application=geotiff", "roles": ["data"]}}}
        (folder / f"item-{k}.json").write_text(json.dumps(item))
        links.append({"rel": "item", "href": f"./item-{k}.json"})
    collection = {"type": "Collection", "stac_version": "1.0.0", "id": collection_id, "description": "dated",
                  "license": "CC0-1.0", "links": links,
                  "extent": {"spatial": {"bbox": [b]}, "temporal": {"interval": [["2024-06-01T00:00:00Z", None]]}}}
    (folder / "collection.json").write_text(json.dumps(collection))
    catalog = {"type": "Catalog", "stac_version": "1.0.0", "id": "dated", "description": "dated",
               "links": [{"rel": "child", "href": "./collection.json"}]}
    (folder / "catalog.json").write_text(json.dumps(catalog))
    return folder / "catalog.json"
