"""Partly cloudy Sentinel-2-like dates for collection statistics: red/nir at 10 m and SCL at 20 m (as Sentinel-2
L2A has them), UTM 31N. On the first date two tiles overlap; round clouds cover parts of the scene, and in the
overlap the clearer tile's SCL misses a cloud the other tile's SCL flags (both tiles see the same cloudy
reflectance there, as two processings of one acquisition do), and the other tile's swath ends (nodata, SCL 0
"no data") where the clearer tile has good pixels. On the second date one tile has clouds whose
edges cut through the cells of the overview grid. The scene is one function of the ground position, so every
tile shows the same values where tiles overlap; the truth is computed with numpy at full resolution."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .cogs import write_cog
from .collection_world import NODATA, OFFSET, SCALE, _asset, _footprint, reflectance, transformer

EPSG = 32631
PIXEL, SCL_PIXEL = 10.0, 20.0
SIZE = 640  # 6.4 km tiles of 10 m pixels
NORTH = 5072000.0
WEST_A, WEST_B = 640000.0, 643200.0  # B overlaps the east half of A
DATES = ("2024-06-10", "2024-06-20")
COLLECTION = "s2-partly-cloudy"
CLOUD_RED, CLOUD_NIR = 0.26, 0.31  # a cloud's reflectance: NDVI about 0.09 where clear land reads 0.6–0.8
EXCLUDED = (0, 1, 3, 8, 9, 10)  # SCL no data, saturated, cloud shadow, cloud medium/high, cirrus
SWATH_EDGE = 560  # tile A on the first date has no data east of this column (SCL 0): tile B has it
# clouds as (x, y, radius) in metres; which tiles' SCL flags each one
CLOUDS = {
    DATES[0]: [((644300.0, 5069300.0, 700.0), ("A",)),  # in the overlap: only A's SCL sees it
               ((645900.0, 5067200.0, 520.0), ("A", "B")),  # in the overlap: both see it
               ((641500.0, 5067900.0, 610.0), ("A",)),  # A alone covers it
               ((648100.0, 5070100.0, 450.0), ("B",))],  # B alone covers it
    DATES[1]: [((641730.0, 5070330.0, 385.0), ("A",)), ((643910.0, 5067450.0, 555.0), ("A",)),
               ((645270.0, 5069990.0, 275.0), ("A",))],
}
TILES = {DATES[0]: (("A", WEST_A, 20.0), ("B", WEST_B, 5.0)), DATES[1]: (("A", WEST_A, 30.0),)}
AREA_UTM = (640300.0, 5066100.0, 649300.0, 5071700.0)  # west, south, east, north: across both tiles


def scene(x: np.ndarray, y: np.ndarray, day: int) -> tuple[np.ndarray, np.ndarray]:
    """Clear-sky red and nir reflectance at ground positions (metres)."""
    red = 0.045 + 0.02 * np.sin((x - WEST_A) / 1500.0) + 0.002 * day
    nir = 0.30 + 0.08 * np.cos((y - NORTH) / 1200.0) + 0.04 * np.sin((x - WEST_A) / 2300.0)
    return red, nir


def _cloudy(x: np.ndarray, y: np.ndarray, clouds) -> np.ndarray:
    inside = np.zeros(x.shape, bool)
    for (cx, cy, r), _tiles in clouds:
        inside |= (x - cx) ** 2 + (y - cy) ** 2 <= r * r
    return inside


def _flagged(x: np.ndarray, y: np.ndarray, clouds, tile: str) -> np.ndarray:
    return _cloudy(x, y, [c for c in clouds if tile in c[1]])


@dataclass
class CloudyWorld:
    root: Path
    base_url: str
    collection_id: str = COLLECTION
    items: list[dict] = field(default_factory=list)
    area: dict = field(default_factory=dict)

    def collection(self) -> dict:
        from ..servers.stac_api import collection_doc

        return collection_doc(self.collection_id, [4.7, 45.6, 4.9, 45.8], ["2024-01-01T00:00:00Z", None],
                              title="Partly cloudy Sentinel-2-like tiles")


def make_cloudy_world(root: Path, base_url: str, collection: str = COLLECTION) -> CloudyWorld:
    world = CloudyWorld(root, base_url, collection)
    rows, cols = np.mgrid[0:SIZE, 0:SIZE].astype(np.float64)
    srows, scols = np.mgrid[0:SIZE // 2, 0:SIZE // 2].astype(np.float64)
    for day, date in enumerate(DATES):
        for tile, west, cloud_cover in TILES[date]:
            x, y = west + (cols + 0.5) * PIXEL, NORTH - (rows + 0.5) * PIXEL
            red, nir = scene(x, y, day)
            cloudy = _cloudy(x, y, CLOUDS[date])
            red, nir = np.where(cloudy, CLOUD_RED, red), np.where(cloudy, CLOUD_NIR, nir)
            sx, sy = west + (scols + 0.5) * SCL_PIXEL, NORTH - (srows + 0.5) * SCL_PIXEL
            scl = np.where(_flagged(sx, sy, CLOUDS[date], tile), 9, 4).astype(np.uint8)
            stored_red, stored_nir = reflectance(red), reflectance(nir)
            if tile == "A" and day == 0:  # the swath ends: no data, and SCL says "no data", not "cloud"
                stored_red[:, SWATH_EDGE:] = NODATA
                stored_nir[:, SWATH_EDGE:] = NODATA
                scl[:, SWATH_EDGE // 2:] = 0
            item_id = f"{tile}-{date}"
            assets = {}
            for name, values, pixel in (("red", stored_red, PIXEL), ("nir", stored_nir, PIXEL),
                                        ("scl", scl, SCL_PIXEL)):
                rel = f"{item_id}/{name}.tif"
                write_cog(root / rel, values, origin=(west, NORTH), pixel_size=pixel, epsg=EPSG,
                          nodata=None if name == "scl" else NODATA, blocksize=128,
                          overview_resampling="NEAREST" if name == "scl" else "AVERAGE")
                assets[name] = _asset(f"{base_url}/{rel}", None if name == "scl" else name, False, name)
            footprint, bbox = _footprint((west, NORTH), SIZE * PIXEL, EPSG)
            world.items.append({
                "type": "Feature", "stac_version": "1.0.0", "id": item_id, "collection": collection,
                "geometry": footprint, "bbox": bbox, "links": [], "assets": assets,
                "properties": {"datetime": f"{date}T10:30:00Z", "eo:cloud_cover": cloud_cover, "proj:epsg": EPSG}})
    tr = transformer(EPSG, 4326)
    w, s, e, n = AREA_UTM
    ring = [list(tr.TransformPoint(px, py)[:2]) for px, py in ((w, s), (e, s), (e, n), (w, n))]
    world.area = {"type": "Polygon", "coordinates": [ring + [ring[0]]]}
    return world


def full_resolution_truth(world: CloudyWorld, date: str) -> dict:
    """NDVI at 10 m over the area on one date, independently of the product: the tiles' stored pixels placed on
    one 10 m grid, a pixel kept when a tile has data there and no tile with data there has its SCL (its 20 m
    pixel) flag it."""
    from matplotlib.path import Path as MplPath
    from osgeo import gdal

    west, east = WEST_A, max(w for _t, w, _c in TILES[DATES[0]]) + SIZE * PIXEL
    width = int((east - west) / PIXEL)
    red = np.full((SIZE, width), np.nan)
    nir = np.full((SIZE, width), np.nan)
    flagged = np.zeros((SIZE, width), bool)
    for tile, tile_west, _cc in TILES[date]:
        c0 = int((tile_west - west) / PIXEL)
        item = f"{tile}-{date}"
        raw = {name: gdal.Open(str(world.root / item / f"{name}.tif")).ReadAsArray() for name in ("red", "nir", "scl")}
        scl = np.repeat(np.repeat(raw["scl"], 2, axis=0), 2, axis=1)
        has_data = (raw["red"] != NODATA) & (raw["nir"] != NODATA)
        tile_red = np.where(has_data, raw["red"] * SCALE + OFFSET, np.nan)
        tile_nir = np.where(has_data, raw["nir"] * SCALE + OFFSET, np.nan)
        view = np.s_[:, c0:c0 + SIZE]
        red[view] = np.where(np.isnan(red[view]), tile_red, red[view])  # same scene: any tile with data gives it
        nir[view] = np.where(np.isnan(nir[view]), tile_nir, nir[view])
        flagged[view] |= np.isin(scl, EXCLUDED) & has_data  # a tile speaks of the sky only where it has data
    tr = transformer(4326, EPSG)
    ring = [tr.TransformPoint(lon, lat)[:2] for lon, lat in world.area["coordinates"][0]]
    rows, cols = np.mgrid[0:SIZE, 0:width]
    centres = np.column_stack([(west + (cols + 0.5) * PIXEL).ravel(), (NORTH - (rows + 0.5) * PIXEL).ravel()])
    inside = MplPath(ring).contains_points(centres).reshape(SIZE, width)
    ndvi = (nir - red) / (nir + red)
    observed = inside & np.isfinite(ndvi)
    valid = observed & ~flagged
    return {"mean": float(ndvi[valid].mean()), "median": float(np.median(ndvi[valid])),
            "valid_pixels": int(valid.sum()), "flagged_pixels": int((observed & flagged).sum()),
            "area_pixels": int(inside.sum()),
            "flagged_share": float((observed & flagged).sum() / observed.sum())}
