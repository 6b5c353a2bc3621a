"""The world `bench_vs_odc_stac.py` reads: Sentinel-2-L2A-like items of one summer, generated once.

2 × 2 tiles of 15.36 km (120 items) in UTM 32N (red and nir at 10 m, SCL at 20 m, 512-pixel blocks and overviews as
Sentinel-2 COGs have them), overlapping by 1.28 km; DATES dates, one of them overcast, clouds and their
shadows as SCL classes, a swath edge (nodata, SCL 0) on one tile, and in the overlaps clouds that only one
tile's SCL flags (two processings of one acquisition). The scene, its noise and the clouds are functions of the
ground position, so overlapping tiles agree pixel for pixel and the truth is one numpy computation at 10 m.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from testkit.worlds.cogs import write_cog  # noqa: E402
from testkit.worlds.collection_world import transformer  # noqa: E402

EPSG, PIXEL, SCL_PIXEL, SIZE = 32632, 10.0, 20.0, 1536  # 15.36 km tiles
OVERLAP = 128  # pixels shared by neighbouring tiles
WEST, NORTH = 500000.0, 5400000.0
STEP = (SIZE - OVERLAP) * PIXEL
TILES = {f"T{j}{i}": (WEST + i * STEP, NORTH - j * STEP) for j in (0, 1) for i in (0, 1)}
WIDTH = 2 * SIZE - OVERLAP  # the world's 10 m grid, all tiles
DATES = [str(np.datetime64("2023-04-02") + 6 * k) for k in range(30)]  # April to September, every 6 days
OVERCAST = "2023-07-07"
JULY = [d for d in DATES if d[5:7] == "07"]  # the month the full-resolution comparisons read
SCALE, OFFSET, NODATA = 0.0001, -0.1, 0
EXCLUDED = (0, 1, 3, 8, 9, 10)  # SCL: no data, saturated, cloud shadow, cloud medium/high, cirrus
COLLECTION = "s2-bench"
OTHER_EPSG, OTHER_ZONE_TILES = 32633, ("T01", "T11")  # the two-zone variant: the east tiles stored in UTM 33N
# the area: a polygon (not a box) inside the four tiles, about 25 km × 24 km
AREA_UTM = [(WEST + 1900, NORTH - 26000), (WEST + 27000, NORTH - 27200), (WEST + 26100, NORTH - 2100),
            (WEST + 3100, NORTH - 1500)]


def _clouds(day: int) -> list[tuple[float, float, float, tuple[str, ...] | None]]:
    """(x, y, radius, tiles whose SCL flags it (None: all)) of one date's clouds."""
    if DATES[day] == OVERCAST:
        return [(WEST + STEP, NORTH - STEP, 60000.0, None)]
    rng = np.random.default_rng(100 + day)
    clouds = []
    for _ in range(int(rng.integers(3, 12))):
        x, y = WEST + rng.uniform(0, WIDTH * PIXEL), NORTH - rng.uniform(0, WIDTH * PIXEL)
        clouds.append((x, y, float(rng.uniform(300, 2500)), None))
    # in the overlap of the west and east tiles, a cloud only the west tiles' SCL sees
    clouds.append((WEST + STEP + OVERLAP * PIXEL / 2, NORTH - rng.uniform(3000, 25000), 500.0, ("T00", "T10")))
    return clouds


def _scene(day: int, rows: slice, cols: slice, noise: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r, c = np.mgrid[rows, cols].astype(np.float64)
    x, y = WEST + (c + 0.5) * PIXEL, NORTH - (r + 0.5) * PIXEL
    season = np.sin(day / len(DATES) * np.pi)
    red = 0.05 + 0.025 * np.sin((x - WEST) / 2100.0) - 0.01 * season + noise[rows, cols] * 0.4
    nir = 0.28 + 0.09 * np.cos((y - NORTH) / 1700.0) + 0.05 * season + noise[rows, cols]
    return red, nir


def _inside(x: np.ndarray, y: np.ndarray, clouds, tile: str | None) -> np.ndarray:
    inside = np.zeros(x.shape, bool)
    for cx, cy, radius, tiles in clouds:
        if tile is None or tiles is None or tile in tiles:
            inside |= (x - cx) ** 2 + (y - cy) ** 2 <= radius * radius
    return inside


def _stored(values: np.ndarray) -> np.ndarray:
    return np.clip(np.round((values - OFFSET) / SCALE), 1, 65535).astype(np.uint16)


def _tile_window(tile: str) -> tuple[slice, slice]:
    west, north = TILES[tile]
    r0, c0 = int(round((NORTH - north) / PIXEL)), int(round((west - WEST) / PIXEL))
    return slice(r0, r0 + SIZE), slice(c0, c0 + SIZE)


def make_files(root: Path) -> None:
    if (root / "files.done").exists():
        return
    noise = np.random.default_rng(7).normal(0, 0.01, (WIDTH, WIDTH))
    for day, date in enumerate(DATES):
        clouds = _clouds(day)
        for tile in TILES:
            rows, cols = _tile_window(tile)
            red, nir = _scene(day, rows, cols, noise)
            r, c = np.mgrid[rows, cols].astype(np.float64)
            x, y = WEST + (c + 0.5) * PIXEL, NORTH - (r + 0.5) * PIXEL
            cloudy = _inside(x, y, clouds, None)
            red, nir = np.where(cloudy, 0.27, red), np.where(cloudy, 0.31, nir)
            stored_red, stored_nir = _stored(red), _stored(nir)
            sr, sc = np.mgrid[0:SIZE // 2, 0:SIZE // 2].astype(np.float64)
            west, north = TILES[tile]
            sx, sy = west + (sc + 0.5) * SCL_PIXEL, north - (sr + 0.5) * SCL_PIXEL
            scl = np.where(_inside(sx, sy, clouds, tile), 9, 4).astype(np.uint8)
            shadow = _inside(sx + 800.0, sy + 600.0, clouds, tile) & (scl == 4)  # shadows beside the clouds
            scl[shadow] = 3
            if tile == "T01" and day % 3 == 1:  # the swath ends: no data there, SCL says "no data"
                stored_red[:, SIZE - 300:] = NODATA
                stored_nir[:, SIZE - 300:] = NODATA
                scl[:, (SIZE - 300) // 2:] = 0
            for name, values, pixel in (("red", stored_red, PIXEL), ("nir", stored_nir, PIXEL),
                                        ("scl", scl, SCL_PIXEL)):
                write_cog(root / "files" / f"{tile}-{date}" / f"{name}.tif", values, origin=(west, north),
                          pixel_size=pixel, epsg=EPSG, nodata=None if name == "scl" else NODATA, blocksize=512,
                          overview_resampling="NEAREST" if name == "scl" else "AVERAGE")
    (root / "files.done").write_text("ok")


def make_other_zone(root: Path) -> None:
    """The two-zone variant's files: the east tiles' files warped into UTM 33N (nearest, the same pixel size:
    the same stored values, on another grid), as COGs of their own under files-2z/."""
    from osgeo import gdal, osr

    if (root / "files-2z.done").exists():
        return
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(OTHER_EPSG)
    for date in DATES:
        for tile in OTHER_ZONE_TILES:
            for name, pixel in (("red", PIXEL), ("nir", PIXEL), ("scl", SCL_PIXEL)):
                target = root / "files-2z" / f"{tile}-{date}" / f"{name}.tif"
                target.parent.mkdir(parents=True, exist_ok=True)
                warped = gdal.Warp("", str(root / "files" / f"{tile}-{date}" / f"{name}.tif"), format="MEM",
                                   dstSRS=srs.ExportToWkt(), xRes=pixel, yRes=pixel, targetAlignedPixels=True,
                                   resampleAlg="near", dstNodata=None if name == "scl" else NODATA)
                gdal.Translate(str(target), warped, format="COG",
                               creationOptions=["BLOCKSIZE=512", "COMPRESS=DEFLATE", "OVERVIEWS=IGNORE_EXISTING",
                                                f"RESAMPLING={'NEAREST' if name == 'scl' else 'AVERAGE'}"])
    (root / "files-2z.done").write_text("ok")


def area_lonlat() -> dict:
    tr = transformer(EPSG, 4326)
    ring = [list(tr.TransformPoint(x, y)[:2]) for x, y in AREA_UTM]
    return {"type": "Polygon", "coordinates": [ring + [ring[0]]]}


def s2_asset(href: str, name: str, shape: list[int], transform: list[float]) -> dict:
    """A band's asset as Sentinel-2 L2A catalogs publish it: the SCL classes, or reflectance with scale/offset."""
    asset = {"href": href, "roles": ["data"], "type": "image/tiff; application=geotiff; profile=cloud-optimized",
             "proj:shape": shape, "proj:transform": transform}
    if name == "scl":
        asset["raster:bands"] = [{"data_type": "uint8"}]
    else:
        asset["eo:bands"] = [{"name": name, "common_name": name}]
        asset["raster:bands"] = [{"nodata": NODATA, "data_type": "uint16", "scale": SCALE, "offset": OFFSET}]
    return asset


def s2_item(item_id: str, collection: str, date: str, epsg: int, corners: list, assets: dict) -> dict:
    """A STAC 1.0 item with the eo, raster and projection extensions over the lon/lat `corners` of its footprint."""
    ring = [list(c) for c in corners]
    xs, ys = [c[0] for c in ring], [c[1] for c in ring]
    return {"type": "Feature", "stac_version": "1.0.0", "id": item_id, "collection": collection,
            "stac_extensions": ["https://stac-extensions.github.io/eo/v1.1.0/schema.json",
                                "https://stac-extensions.github.io/raster/v1.1.0/schema.json",
                                "https://stac-extensions.github.io/projection/v1.1.0/schema.json"],
            "geometry": {"type": "Polygon", "coordinates": [ring + [ring[0]]]},
            "bbox": [min(xs), min(ys), max(xs), max(ys)], "links": [], "assets": assets,
            "properties": {"datetime": f"{date}T10:30:00Z", "proj:epsg": epsg, "eo:cloud_cover": 20,
                           "platform": "sentinel-2a"}}


def items(base_url: str, root: Path | None = None, zones: int = 1) -> list[dict]:
    """STAC 1.0 items as a real Sentinel-2 L2A catalog publishes them (eo, raster and projection fields). With
    zones=2, the east tiles are the UTM 33N files of make_other_zone (read under `root` for their grids)."""
    from osgeo import gdal

    out = []
    for date in DATES:
        for tile, (west, north) in TILES.items():
            other = zones == 2 and tile in OTHER_ZONE_TILES
            epsg, folder = (OTHER_EPSG, "files-2z") if other else (EPSG, "files")
            grids = {}
            for name, pixel in (("red", PIXEL), ("nir", PIXEL), ("scl", SCL_PIXEL)):
                if other:
                    ds = gdal.Open(str(root / folder / f"{tile}-{date}" / f"{name}.tif"))
                    gt = ds.GetGeoTransform()
                    grids[name] = ([ds.RasterYSize, ds.RasterXSize], [gt[1], 0, gt[0], 0, gt[5], gt[3]])
                else:
                    n = int(SIZE * PIXEL / pixel)
                    grids[name] = ([n, n], [pixel, 0, west, 0, -pixel, north])
            (rows, cols), (px, _a, x0, _b, py, y0) = grids["red"]
            tr = transformer(epsg, 4326)
            corners = [tr.TransformPoint(x, y)[:2] for x, y in
                       ((x0, y0 + rows * py), (x0 + cols * px, y0 + rows * py), (x0 + cols * px, y0), (x0, y0))]
            assets = {name: s2_asset(f"{base_url}/{folder}/{tile}-{date}/{name}.tif", name, *grids[name])
                      for name in ("red", "nir", "scl")}
            out.append(s2_item(f"{tile}-{date}", COLLECTION, date, epsg, corners, assets))
    return out


def truth(root: Path) -> dict[str, float | None]:
    """Mean NDVI over the area on each date at 10 m from the stored pixels, independently of every tool: a pixel
    counts where a tile has data and no tile with data there has its SCL (20 m) flag it."""
    cached = root / "truth.json"
    if cached.exists():
        return json.loads(cached.read_text())
    from matplotlib.path import Path as MplPath
    from osgeo import gdal

    r, c = np.mgrid[0:WIDTH, 0:WIDTH]
    centres = np.column_stack([(WEST + (c + 0.5) * PIXEL).ravel(), (NORTH - (r + 0.5) * PIXEL).ravel()])
    inside = MplPath(AREA_UTM).contains_points(centres).reshape(WIDTH, WIDTH)
    out: dict[str, float | None] = {}
    for date in DATES:
        red, nir = np.full((WIDTH, WIDTH), np.nan), np.full((WIDTH, WIDTH), np.nan)
        flagged = np.zeros((WIDTH, WIDTH), bool)
        for tile in TILES:
            folder = root / "files" / f"{tile}-{date}"
            raw = {n: gdal.Open(str(folder / f"{n}.tif")).ReadAsArray() for n in ("red", "nir", "scl")}
            has = (raw["red"] != NODATA) & (raw["nir"] != NODATA)
            view = _tile_window(tile)
            red[view] = np.where(np.isnan(red[view]) & has, raw["red"] * SCALE + OFFSET, red[view])
            nir[view] = np.where(np.isnan(nir[view]) & has, raw["nir"] * SCALE + OFFSET, nir[view])
            scl = np.repeat(np.repeat(raw["scl"], 2, axis=0), 2, axis=1)
            flagged[view] |= np.isin(scl, EXCLUDED) & has
        ndvi = (nir - red) / (nir + red)
        valid = inside & np.isfinite(ndvi) & ~flagged
        out[date] = float(ndvi[valid].mean()) if valid.any() else None
    cached.write_text(json.dumps(out))
    return out
