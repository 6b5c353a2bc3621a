"""A small Sentinel-2-like collection for collection statistics: red/nir/SCL COGs (uint16 reflectance with
STAC scale/offset/nodata) over Lyon in UTM 31N, three dates, the last one with a second tile in UTM 32N
overlapping the east of the area; STAC 1.0 `eo:bands`/`raster:bands` on some items, STAC 1.1 `bands` on
others. The arrays are kept so tests compute the expected numbers with numpy on the same pixels."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from osgeo import osr

from .cogs import write_cog

EPSG_A, EPSG_B = 32631, 32632
ORIGIN_A = (640000.0, 5072000.0)  # west, north of tile A (UTM 31N), around Lyon
PIXEL = 20.0
SIZE = 200  # 4 km tiles
SCALE, OFFSET, NODATA = 0.0001, -0.1, 0
DATES = ("2024-03-10", "2024-04-12", "2024-05-15")
CLOUD_BLOCK = (slice(60, 100), slice(40, 90))  # SCL class 9 (cloud high) on the second date
COLLECTION = "s2-lyon"


@dataclass
class CollectionWorld:
    root: Path
    base_url: str
    collection_id: str = COLLECTION
    items: list[dict] = field(default_factory=list)
    bands: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)  # item id -> {"red", "nir", "scl"} raw
    area: dict = field(default_factory=dict)  # GeoJSON polygon in lon/lat inside tile A

    def collection(self) -> dict:
        from ..servers.stac_api import collection_doc

        return collection_doc(self.collection_id, self.lonlat_bbox(), ["2024-01-01T00:00:00Z", "2024-12-31T23:59:59Z"],
                              title="Sentinel-2-like reflectance around Lyon",
                              summaries={"eo:cloud_cover": {"minimum": 0, "maximum": 100}},
                              keywords=["sentinel-2", "reflectance"])

    def lonlat_bbox(self) -> list[float]:
        ring = self.area["coordinates"][0]
        xs, ys = [p[0] for p in ring], [p[1] for p in ring]
        return [min(xs) - 0.05, min(ys) - 0.05, max(xs) + 0.05, max(ys) + 0.05]


def transformer(src_epsg: int, dst_epsg: int) -> osr.CoordinateTransformation:
    src, dst = osr.SpatialReference(), osr.SpatialReference()
    src.ImportFromEPSG(src_epsg)
    dst.ImportFromEPSG(dst_epsg)
    for s in (src, dst):
        s.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    return osr.CoordinateTransformation(src, dst)


def _footprint(origin: tuple[float, float], size_m: float, epsg: int) -> tuple[dict, list[float]]:
    tr = transformer(epsg, 4326)
    w, n = origin
    corners = [tr.TransformPoint(x, y)[:2] for x, y in ((w, n - size_m), (w + size_m, n - size_m),
                                                          (w + size_m, n), (w, n))]
    ring = [list(c) for c in corners] + [list(corners[0])]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return {"type": "Polygon", "coordinates": [ring]}, [min(xs), min(ys), max(xs), max(ys)]


def reflectance(values: np.ndarray) -> np.ndarray:
    """Physical reflectance -> stored uint16 (inverse of scale/offset)."""
    return np.clip(np.round((values - OFFSET) / SCALE), 1, 65535).astype(np.uint16)


def _asset(href: str, common: str | None, stac11: bool, kind: str = "reflectance") -> dict:
    asset = {"href": href, "type": "image/tiff; application=geotiff; profile=cloud-optimized", "roles": ["data"]}
    if kind == "scl":
        asset["roles"] = ["data", "classification"]
        return asset
    if stac11:
        asset["bands"] = [{"name": common, "eo:common_name": common, "nodata": NODATA, "data_type": "uint16",
                           "raster:scale": SCALE, "raster:offset": OFFSET}]
    else:
        asset["eo:bands"] = [{"name": common, "common_name": common}]
        asset["raster:bands"] = [{"nodata": NODATA, "data_type": "uint16", "scale": SCALE, "offset": OFFSET}]
    return asset


def make_collection_world(root: Path, base_url: str, collection: str = COLLECTION) -> CollectionWorld:
    world = CollectionWorld(root, base_url, collection)
    y, x = np.mgrid[0:SIZE, 0:SIZE].astype(np.float64)
    tiles = []
    for k, date in enumerate(DATES):
        red = 0.05 + 0.04 * x / SIZE + 0.01 * k
        nir = 0.25 + 0.25 * y / SIZE + 0.05 * k
        if k == 2:  # constant tiles: NDVI exactly 0.5 on A and 0.8 on B
            red, nir = np.full_like(x, 0.1), np.full_like(x, 0.3)
        raw = {"red": reflectance(red), "nir": reflectance(nir), "scl": np.full((SIZE, SIZE), 4, np.uint8)}
        raw["red"][:4, :] = NODATA  # a nodata strip along the north edge
        if k == 1:
            raw["scl"][CLOUD_BLOCK] = 9
        tiles.append((f"A-{date}", date, EPSG_A, ORIGIN_A, raw, 10.0, k == 1))
    # tile B, UTM 32N, covering the east half of the area
    corner = transformer(EPSG_A, EPSG_B).TransformPoint(ORIGIN_A[0] + SIZE * PIXEL * 0.6, ORIGIN_A[1])[:2]
    origin_b = (round(corner[0] / PIXEL) * PIXEL, round(corner[1] / PIXEL) * PIXEL)
    raw_b = {"red": reflectance(np.full((SIZE, SIZE), 0.1)), "nir": reflectance(np.full((SIZE, SIZE), 0.9)),
             "scl": np.full((SIZE, SIZE), 4, np.uint8)}
    tiles.append((f"B-{DATES[2]}", DATES[2], EPSG_B, origin_b, raw_b, 5.0, True))
    for item_id, date, epsg, origin, raw, cloud, stac11 in tiles:
        assets = {}
        for name in ("red", "nir", "scl"):
            rel = f"{item_id}/{name}.tif"
            write_cog(root / rel, raw[name], origin=origin, pixel_size=PIXEL, epsg=epsg,
                      nodata=None if name == "scl" else NODATA, blocksize=64,
                      overview_resampling="NEAREST" if name == "scl" else "AVERAGE")
            assets[name] = _asset(f"{base_url}/{rel}", None if name == "scl" else name, stac11, name)
        footprint, bbox = _footprint(origin, SIZE * PIXEL, epsg)
        world.items.append({
            "type": "Feature", "stac_version": "1.1.0" if stac11 else "1.0.0", "id": item_id,
            "collection": collection, "geometry": footprint, "bbox": bbox, "links": [], "assets": assets,
            "properties": {"datetime": f"{date}T10:30:00Z", "eo:cloud_cover": cloud, "proj:epsg": epsg,
                           "proj:shape": [SIZE, SIZE],
                           "proj:transform": [PIXEL, 0, origin[0], 0, -PIXEL, origin[1]]}})
        world.bands[item_id] = raw
    # the area: a quadrilateral inside tile A (UTM corners -> lon/lat)
    tr = transformer(EPSG_A, 4326)
    w, n = ORIGIN_A
    corners = [(w + 500, n - 300), (w + 3500, n - 700), (w + 3300, n - 3600), (w + 700, n - 3400)]
    ring = [list(tr.TransformPoint(cx, cy)[:2]) for cx, cy in corners]
    world.area = {"type": "Polygon", "coordinates": [ring + [ring[0]]]}
    return world


def area_mask_by_centres(world: CollectionWorld) -> np.ndarray:
    """Tile A's pixels whose centre is inside the area (an independent point-in-polygon test)."""
    from matplotlib.path import Path as MplPath

    tr = transformer(4326, EPSG_A)
    ring = [tr.TransformPoint(lon, lat)[:2] for lon, lat in world.area["coordinates"][0]]
    y, x = np.mgrid[0:SIZE, 0:SIZE]
    cx = ORIGIN_A[0] + (x + 0.5) * PIXEL
    cy = ORIGIN_A[1] - (y + 0.5) * PIXEL
    inside = MplPath(ring).contains_points(np.column_stack([cx.ravel(), cy.ravel()]))
    return inside.reshape(SIZE, SIZE)


def expected_ndvi(world: CollectionWorld, item_id: str) -> np.ndarray:
    """NDVI of tile A's item on its own pixels, NaN where nodata, clouds (SCL 3, 8, 9, 10) or outside the area."""
    raw = world.bands[item_id]
    red = raw["red"].astype(np.float64) * SCALE + OFFSET
    nir = raw["nir"].astype(np.float64) * SCALE + OFFSET
    ndvi = (nir - red) / (nir + red)
    invalid = (raw["red"] == NODATA) | (raw["nir"] == NODATA) | np.isin(raw["scl"], (0, 1, 3, 8, 9, 10))
    invalid |= ~area_mask_by_centres(world)
    return np.where(invalid, np.nan, ndvi)


class SlowFiles:
    """An ASGI app serving a folder like StaticFiles (Range included) but `delay_s` late on every request:
    a slow object store, so tests can stop or break a job while reads are in flight."""

    def __init__(self, directory: Path, delay_s: float) -> None:
        from starlette.staticfiles import StaticFiles

        self.files = StaticFiles(directory=str(directory))
        self.delay_s = delay_s

    async def __call__(self, scope, receive, send):
        import asyncio

        await asyncio.sleep(self.delay_s)
        await self.files(scope, receive, send)


@contextlib.contextmanager
def served_collection_world(root: Path, **collection_fields):
    """The world's COGs over HTTP and its items in a real STAC API of their own: yields (api, world).
    `collection_fields` are added to the collection document (e.g. providers=[…], as real catalogs name them).
    A STAC API that cannot start is reported through server_missing (a failure in CI)."""
    from ..servers.cog_server import CogServer
    from ..servers.loopback import server_missing
    from ..servers.stac_api import StacApi, StacApiUnavailable

    cogs = CogServer(root).start()
    api = StacApi()
    try:
        world = make_collection_world(root, cogs.url)
        try:
            api.start()
        except StacApiUnavailable as exc:
            server_missing(str(exc))
        api.load([{**world.collection(), **collection_fields}], world.items)
        yield api, world
    finally:
        api.stop()
        cogs.stop()
