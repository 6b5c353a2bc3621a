"""A small year_world (bench/year_world.py) for tests: Sentinel-2-like items over two UTM zones, read the way the
bench reads them. Two tiles in UTM 32N on one 60 m lattice (overlapping), one in UTM 33N (its pixels are warped
onto the 32N grid), three dates; red and nir at 60 m, SCL at 120 m, DEFLATE with the horizontal predictor,
256-pixel blocks and overviews; clouds and their shadows in SCL, a swath that ends (nodata, SCL 0) on the
second date. Every tile shows one scene, a function of the ground position."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .cogs import write_cog
from .collection_world import NODATA, OFFSET, SCALE, _asset, _footprint, reflectance, transformer

PIXEL, SCL_PIXEL, SIZE = 60.0, 120.0, 600  # 36 km tiles
TILES = {"32TQT": (32632, 700020.0, 5310000.0), "32TQU": (32632, 700020.0 + 300 * PIXEL, 5310000.0 - 120 * PIXEL),
         "33TUN": (32633, 262000.0, 5312000.0)}
DATES = ("2023-06-02", "2023-06-08", "2023-06-14")
AREA = [(11.55, 47.45), (12.45, 47.45), (12.45, 47.85), (11.55, 47.85)]  # across 12° E, the zones' boundary
EXCLUDED = (0, 1, 3, 8, 9, 10)
COLLECTION = "s2-two-zones"


@dataclass
class ZonesWorld:
    root: Path
    base_url: str
    items: list[dict] = field(default_factory=list)

    def collection(self) -> dict:
        return {"type": "Collection", "id": COLLECTION, "item_assets": {}}

    @property
    def area(self) -> dict:
        ring = [list(p) for p in AREA]
        return {"type": "Polygon", "coordinates": [ring + [ring[0]]]}


def _scene(x: np.ndarray, y: np.ndarray, day: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """red, nir and whether a cloud is there, at ground points (UTM 32N metres)."""
    red = 0.05 + 0.02 * np.sin(x / 3100.0) * np.cos(y / 2300.0) + 0.003 * day
    nir = 0.30 + 0.08 * np.cos(y / 1700.0) + 0.04 * np.sin(x / 2900.0)
    cloudy = np.zeros(x.shape, bool)
    rng = np.random.default_rng(11 + day)
    for _ in range(12):
        cx, cy, r = rng.uniform(690000, 780000), rng.uniform(5250000, 5310000), rng.uniform(600, 4000)
        cloudy |= (x - cx) ** 2 + (y - cy) ** 2 < r * r
    return np.where(cloudy, 0.27, red), np.where(cloudy, 0.31, nir), cloudy


def _ground(tile: str, pixel: float) -> tuple[np.ndarray, np.ndarray]:
    epsg, west, north = TILES[tile]
    n = int(round(SIZE * PIXEL / pixel))
    r, c = np.mgrid[0:n, 0:n].astype(np.float64)
    x, y = west + (c + 0.5) * pixel, north - (r + 0.5) * pixel
    if epsg != 32632:
        points = np.asarray(transformer(epsg, 32632).TransformPoints(np.column_stack([x.ravel(), y.ravel()])))
        x, y = points[:, 0].reshape(x.shape), points[:, 1].reshape(y.shape)
    return x, y


def make_zones_world(root: Path, base_url: str, compress: str = "DEFLATE") -> ZonesWorld:
    world = ZonesWorld(Path(root), base_url.rstrip("/"))
    for day, date in enumerate(DATES):
        for tile, (epsg, west, north) in TILES.items():
            name = f"{tile}-{date}"
            folder = world.root / name
            x, y = _ground(tile, PIXEL)
            red, nir, _ = _scene(x, y, day)
            gone = (x > 760000.0) if day == 1 else np.zeros(x.shape, bool)  # the swath ends on the second date
            stored = {"red": reflectance(red), "nir": reflectance(nir)}
            for key, values in stored.items():
                values[gone] = NODATA
                _write(folder / f"{key}.tif", values, (west, north), PIXEL, epsg, NODATA, "AVERAGE", compress)
            sx, sy = _ground(tile, SCL_PIXEL)
            _, _, cloudy = _scene(sx, sy, day)
            _, _, shadow = _scene(sx + 900.0, sy + 600.0, day)
            scl = np.where(cloudy, 9, np.where(shadow, 3, 4)).astype(np.uint8)
            scl[(sx > 760000.0) if day == 1 else np.zeros(sx.shape, bool)] = 0
            _write(folder / "scl.tif", scl, (west, north), SCL_PIXEL, epsg, None, "NEAREST", compress)
            world.items.append(_item(world, name, tile, date))
    return world


def _write(path: Path, values: np.ndarray, origin: tuple[float, float], pixel: float, epsg: int,
           nodata: float | None, resampling: str, compress: str) -> None:
    from osgeo import gdal

    write_cog(path, values, origin=origin, pixel_size=pixel, epsg=epsg, nodata=nodata, blocksize=256,
              overview_resampling=resampling)
    if compress != "DEFLATE":  # the same file with another compression (the reader refuses what it cannot decode)
        again = path.with_suffix(".tmp.tif")
        gdal.Translate(str(again), str(path), format="COG", creationOptions=[
            "BLOCKSIZE=256", f"COMPRESS={compress}", f"RESAMPLING={resampling}", "OVERVIEWS=IGNORE_EXISTING"])
        again.replace(path)
    else:  # with the horizontal predictor, as Sentinel-2's COGs are written
        again = path.with_suffix(".tmp.tif")
        gdal.Translate(str(again), str(path), format="COG", creationOptions=[
            "BLOCKSIZE=256", "COMPRESS=DEFLATE", "PREDICTOR=2", f"RESAMPLING={resampling}",
            "OVERVIEWS=IGNORE_EXISTING"])
        again.replace(path)


def _item(world: ZonesWorld, name: str, tile: str, date: str) -> dict:
    epsg, west, north = TILES[tile]
    geometry, bbox = _footprint((west, north), SIZE * PIXEL, epsg)
    href = f"{world.base_url}/{name}"
    assets = {"red": _asset(f"{href}/red.tif", "red", False), "nir": _asset(f"{href}/nir.tif", "nir", False),
              "scl": _asset(f"{href}/scl.tif", None, False, "scl")}
    return {"type": "Feature", "stac_version": "1.0.0", "id": name, "collection": COLLECTION, "geometry": geometry,
            "bbox": bbox, "links": [], "assets": assets,
            "properties": {"datetime": f"{date}T10:30:00Z", "proj:epsg": epsg, "eo:cloud_cover": 20}}


__all__ = ["DATES", "EXCLUDED", "OFFSET", "SCALE", "ZonesWorld", "make_zones_world"]
