"""The world `bench_vs_odc_stac.py` reads: a year of Sentinel-2-L2A-like items over two UTM zones, generated once.

Six tiles of 109.8 km (1,830 pixels of 60 m, red and nir; SCL at 120 m; 512-pixel blocks and overviews as
Sentinel-2 COGs have them), four in UTM 32N on one pixel lattice (MGRS-like, overlapping by 9.8 km) and two in
UTM 33N, every 6 days of 2023 (about 353 items: a tile the swath misses that day is not published), under a
204 km × 97 km area across the zone boundary. Clouds and their shadows are SCL classes, one date is overcast,
every third date the swath ends on a slanted line (no data, SCL 0), and in the tiles' overlaps some clouds only
one tile's SCL flags (two processings of one acquisition). The scene, its noise, the clouds and the swath are
functions of the ground position, so every tile tells the same story and the truth is one numpy computation on
the 60 m lattice of UTM 32N: `truth()` per date, from the stored values, independently of every tool.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from odc_world import s2_asset, s2_item  # noqa: E402  (the same item documents as the one-zone world's)

from testkit.worlds.collection_world import transformer  # noqa: E402

EPSG, OTHER_EPSG = 32632, 32633
PIXEL, SCL_PIXEL, SIZE = 60.0, 120.0, 1830  # 109.8 km tiles
STEP = 1666  # pixels between neighbouring tiles' corners (99.96 km: one 60 m lattice for the 32N tiles)
TILES = {  # name -> (EPSG, west, north)
    "32TPT": (EPSG, 600000.0, 5400000.0), "32TQT": (EPSG, 600000.0 + STEP * PIXEL, 5400000.0),
    "32TPS": (EPSG, 600000.0, 5400000.0 - STEP * PIXEL), "32TQS": (EPSG, 600000.0 + STEP * PIXEL, 5400000.0 - STEP * PIXEL),
    "33TUN": (OTHER_EPSG, 300000.0, 5410020.0), "33TUM": (OTHER_EPSG, 300000.0, 5410020.0 - STEP * PIXEL),
}
DATES = [str(np.datetime64("2023-01-03") + 6 * k) for k in range(61)]  # 2023, every 6 days
OVERCAST = "2023-07-08"
SWATH_EDGE = (742000.0, 0.18)  # every third date no data east of x = 742 km + 0.18 (y - 5300 km), in 32N
SCALE, OFFSET, NODATA = 0.0001, -0.1, 0
EXCLUDED = (0, 1, 3, 8, 9, 10)  # SCL: no data, saturated, cloud shadow, cloud medium/high, cirrus
COLLECTION = "s2-year"
MONTH = "2023-06"  # the month the full-resolution comparison reads
AREA_LONLAT = [(10.62, 47.30), (13.34, 47.27), (13.36, 48.14), (10.60, 48.17)]  # 204 km × 97 km
GROUND_WEST, GROUND_NORTH = 600000.0, 5420000.0  # the 60 m lattice of the truth (32N), its corner
GROUND_COLS, GROUND_ROWS = 4600, 4000


def _rng_clouds(day: int) -> list[tuple[float, float, float, tuple[str, ...] | None]]:
    """(x, y, radius, tiles whose SCL flags it (None: all)) of one date's clouds, in 32N metres."""
    if DATES[day] == OVERCAST:
        return [(740000.0, 5300000.0, 400000.0, None)]
    rng = np.random.default_rng(300 + day)
    clouds = []
    for _ in range(int(rng.integers(4, 40))):
        x, y = rng.uniform(600000, 880000), rng.uniform(5180000, 5420000)
        clouds.append((x, y, float(rng.uniform(300, 9000) if rng.random() < 0.3 else rng.uniform(150, 2500)), None))
    # in the overlaps of the 32N columns and of the zones, clouds only one tile's SCL sees
    x_overlap = 600000.0 + STEP * PIXEL + (SIZE - STEP) * PIXEL / 2
    clouds.append((x_overlap, rng.uniform(5240000, 5390000), 1500.0, ("32TPT", "32TPS")))
    clouds.append((800000.0, rng.uniform(5240000, 5390000), 2000.0, ("33TUN", "33TUM")))
    return clouds


def _noise() -> np.ndarray:
    return np.random.default_rng(7).normal(0, 0.004, (GROUND_ROWS, GROUND_COLS)).astype(np.float32)


def _ground_index(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The flat index of the ground lattice's pixel holding each point (32N metres)."""
    r = np.clip(((GROUND_NORTH - y) // PIXEL).astype(np.int64), 0, GROUND_ROWS - 1)
    c = np.clip(((x - GROUND_WEST) // PIXEL).astype(np.int64), 0, GROUND_COLS - 1)
    return r * GROUND_COLS + c


def _season(day: int) -> float:
    return float(np.sin((day / len(DATES)) * np.pi) ** 2)


def _fields(x: np.ndarray, y: np.ndarray, noise: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """red, nir reflectance at ground points (32N metres) without the season: fields and the ground cell's noise."""
    n = noise.ravel()[_ground_index(x, y)]
    red = 0.06 + 0.03 * np.sin((x - 600000) / 7100.0) * np.cos((y - 5300000) / 5300.0) + n * 0.4
    nir = 0.22 + 0.08 * np.cos((y - 5300000) / 3700.0) + 0.04 * np.sin((x - 600000) / 2900.0) + n
    return red.astype(np.float32), nir.astype(np.float32)


def _cloud_lattice(clouds, tile: str | None) -> np.ndarray:
    """The clouds `tile`'s SCL sees (None: every cloud, as the bands see them) drawn on the ground lattice."""
    cloudy = np.zeros((GROUND_ROWS, GROUND_COLS), bool)
    for cx, cy, radius, tiles in clouds:
        if tile is not None and tiles is not None and tile not in tiles:
            continue
        r0, r1 = _ground_span(GROUND_NORTH - cy - radius, GROUND_NORTH - cy + radius, GROUND_ROWS)
        c0, c1 = _ground_span(cx - radius - GROUND_WEST, cx + radius - GROUND_WEST, GROUND_COLS)
        if r1 <= r0 or c1 <= c0:
            continue
        r, c = np.mgrid[r0:r1, c0:c1]
        x, y = GROUND_WEST + (c + 0.5) * PIXEL, GROUND_NORTH - (r + 0.5) * PIXEL
        cloudy[r0:r1, c0:c1] |= (x - cx) ** 2 + (y - cy) ** 2 <= radius * radius
    return cloudy.ravel()


def _ground_span(low: float, high: float, n: int) -> tuple[int, int]:
    return max(0, int(low // PIXEL)), min(n, int(high // PIXEL) + 1)


def _swath_gone(day: int, across: np.ndarray) -> np.ndarray:
    """Where the day's swath has no data (`across`: x - slope (y - 5300 km) of the points): every third date east
    of a slanted line, some dates further west (the 33N tiles then have no item that day)."""
    if day % 3 != 1:
        return np.zeros(across.shape, bool)
    return across > SWATH_EDGE[0] - (42000.0 if day % 9 == 4 else 0.0)


def _across(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return x - SWATH_EDGE[1] * (y - 5300000.0)


def _stored(values: np.ndarray) -> np.ndarray:
    return np.clip(np.round((values - np.float32(OFFSET)) / np.float32(SCALE)), 1, 65535).astype(np.uint16)


def _centres(tile: str, pixel: float) -> tuple[np.ndarray, np.ndarray]:
    """The tile's pixel centres at `pixel` size, in 32N metres."""
    epsg, west, north = TILES[tile]
    n = int(round(SIZE * PIXEL / pixel))
    r, c = np.mgrid[0:n, 0:n].astype(np.float64)
    x, y = west + (c + 0.5) * pixel, north - (r + 0.5) * pixel
    if epsg != EPSG:
        x, y = _to_32n(x, y, epsg)
    return x, y


def _to_32n(x: np.ndarray, y: np.ndarray, epsg: int) -> tuple[np.ndarray, np.ndarray]:
    tr = transformer(epsg, EPSG)
    points = np.asarray(tr.TransformPoints(np.column_stack([x.ravel(), y.ravel()])))
    return points[:, 0].reshape(x.shape), points[:, 1].reshape(y.shape)


class _Tile:
    """What does not change from date to date: where the tile's pixels lie on the ground, the fields there."""

    def __init__(self, tile: str, noise: np.ndarray) -> None:
        x, y = _centres(tile, PIXEL)
        self.ground, self.across = _ground_index(x, y), _across(x, y)
        self.red, self.nir = _fields(x, y, noise)
        sx, sy = _centres(tile, SCL_PIXEL)
        self.scl_ground, self.scl_across = _ground_index(sx, sy), _across(sx, sy)
        self.shadow_ground = _ground_index(sx + 1500.0, sy + 900.0)  # shadows beside the clouds


def _tile_files(day: int, tile: str, fixed: _Tile, lattices: dict) -> dict[str, np.ndarray] | None:
    """The stored red, nir and SCL of one tile on one date; None when the swath misses the tile."""
    gone = _swath_gone(day, fixed.across)
    if gone.all():
        return None
    season = _season(day)
    cloudy = lattices[None][fixed.ground]
    red = np.where(cloudy, np.float32(0.27), fixed.red - np.float32(0.02 * season))
    nir = np.where(cloudy, np.float32(0.31), fixed.nir + np.float32(0.15 * season))
    stored_red, stored_nir = _stored(red), _stored(nir)
    stored_red[gone], stored_nir[gone] = NODATA, NODATA
    scl = np.where(lattices[tile][fixed.scl_ground], 9, 4).astype(np.uint8)
    scl[lattices[tile][fixed.shadow_ground] & (scl == 4)] = 3
    scl[_swath_gone(day, fixed.scl_across)] = 0
    return {"red": stored_red, "nir": stored_nir, "scl": scl}


def make_files(root: Path) -> None:
    if (root / "files.done").exists():
        return
    noise = _noise()
    fixed = {t: _Tile(t, noise) for t in TILES}
    published = []
    for day, date in enumerate(DATES):
        clouds = _rng_clouds(day)
        lattices = {t: _cloud_lattice(clouds, t) for t in (None, *TILES)}
        for tile, (epsg, west, north) in TILES.items():
            files = _tile_files(day, tile, fixed[tile], lattices)
            if files is None:
                continue
            published.append(f"{tile}-{date}")
            for name, values in files.items():
                _write_cog(root / "files" / f"{tile}-{date}" / f"{name}.tif", values, (west, north),
                           SCL_PIXEL if name == "scl" else PIXEL, epsg, None if name == "scl" else NODATA,
                           "NEAREST" if name == "scl" else "AVERAGE")
    (root / "published.json").write_text(json.dumps(published))
    (root / "files.done").write_text("ok")


def _write_cog(path: Path, values: np.ndarray, origin: tuple[float, float], pixel: float, epsg: int,
               nodata: float | None, resampling: str) -> None:
    """A COG as Sentinel-2's are published: 512-pixel blocks, DEFLATE, overviews down to 1/32."""
    from osgeo import gdal, osr

    types = {np.dtype("uint8"): gdal.GDT_Byte, np.dtype("uint16"): gdal.GDT_UInt16}
    mem = gdal.GetDriverByName("MEM").Create("", values.shape[1], values.shape[0], 1, types[values.dtype])
    mem.SetGeoTransform((origin[0], pixel, 0, origin[1], 0, -pixel))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(epsg)
    mem.SetProjection(srs.ExportToWkt())
    band = mem.GetRasterBand(1)
    band.WriteArray(values)
    if nodata is not None:
        band.SetNoDataValue(nodata)
    path.parent.mkdir(parents=True, exist_ok=True)
    gdal.Translate(str(path), mem, format="COG", creationOptions=[
        "BLOCKSIZE=512", "COMPRESS=DEFLATE", "PREDICTOR=2", f"RESAMPLING={resampling}",
        "OVERVIEWS=IGNORE_EXISTING", "OVERVIEW_COUNT=5"])


def area_lonlat() -> dict:
    ring = [list(p) for p in AREA_LONLAT]
    return {"type": "Polygon", "coordinates": [ring + [ring[0]]]}


def items(base_url: str, root: Path) -> list[dict]:
    """STAC 1.0 items as a real Sentinel-2 L2A catalog publishes them (eo, raster and projection fields)."""
    out = []
    for name in json.loads((root / "published.json").read_text()):
        tile, date = name[:5], name[6:]
        epsg, west, north = TILES[tile]
        tr = transformer(epsg, 4326)
        size = SIZE * PIXEL
        ring = [list(tr.TransformPoint(x, y)[:2]) for x, y in
                ((west, north - size), (west + size, north - size), (west + size, north), (west, north))]
        assets = {key: s2_asset(f"{base_url}/files/{name}/{key}.tif", key, [n, n], [pixel, 0, west, 0, -pixel, north])
                  for key, pixel in (("red", PIXEL), ("nir", PIXEL), ("scl", SCL_PIXEL))
                  for n in [int(round(size / pixel))]}
        out.append(s2_item(name, COLLECTION, date, epsg, ring, assets))
    return out


def area_utm32() -> list[tuple[float, float]]:
    tr = transformer(4326, EPSG)
    ring = []
    for lon, lat in AREA_LONLAT:  # edges densified: a lon/lat edge of 200 km is a curve in UTM
        ring.append((lon, lat))
    dense = []
    for (a, b), (c, d) in zip(ring, ring[1:] + ring[:1]):
        for t in np.linspace(0, 1, 50, endpoint=False):
            dense.append(tr.TransformPoint(a + (c - a) * t, b + (d - b) * t)[:2])
    return dense


def _tile_pixel(tile: str, pixel: float, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row, col, inside) of the tile's `pixel`-size pixel holding each ground point (32N metres)."""
    epsg, west, north = TILES[tile]
    if epsg != EPSG:
        tr = transformer(EPSG, epsg)
        points = np.asarray(tr.TransformPoints(np.column_stack([x.ravel(), y.ravel()])))
        x, y = points[:, 0].reshape(x.shape), points[:, 1].reshape(y.shape)
    n = int(round(SIZE * PIXEL / pixel))
    c, r = np.floor((x - west) / pixel).astype(np.int64), np.floor((north - y) / pixel).astype(np.int64)
    inside = (c >= 0) & (c < n) & (r >= 0) & (r < n)
    return np.clip(r, 0, n - 1), np.clip(c, 0, n - 1), inside


def truth(root: Path) -> dict[str, dict[str, float]]:
    """Per date, the sum and count of NDVI over the area at 60 m from the stored pixels, independently of every
    tool: a ground pixel (the 32N lattice) takes the first published tile that holds it with data (32N tiles
    first: their pixels are the lattice's own), and counts unless a tile with data there flags it (SCL)."""
    cached = root / "truth.json"
    if cached.exists():
        return json.loads(cached.read_text())
    from matplotlib.path import Path as MplPath
    from osgeo import gdal

    ring = area_utm32()
    xs, ys = zip(*ring)
    c0, c1 = int((min(xs) - GROUND_WEST) // PIXEL), int((max(xs) - GROUND_WEST) // PIXEL) + 1
    r0, r1 = int((GROUND_NORTH - max(ys)) // PIXEL), int((GROUND_NORTH - min(ys)) // PIXEL) + 1
    r, c = np.mgrid[r0:r1, c0:c1]
    x, y = GROUND_WEST + (c + 0.5) * PIXEL, GROUND_NORTH - (r + 0.5) * PIXEL
    inside = MplPath(ring).contains_points(np.column_stack([x.ravel(), y.ravel()])).reshape(x.shape)
    where = {(t, p): _tile_pixel(t, p, x, y) for t in TILES for p in (PIXEL, SCL_PIXEL)}
    published = set(json.loads((root / "published.json").read_text()))
    out: dict[str, dict[str, float]] = {}
    for date in DATES:
        red, nir = np.full(x.shape, np.nan), np.full(x.shape, np.nan)
        flagged = np.zeros(x.shape, bool)
        for tile in TILES:
            if f"{tile}-{date}" not in published:
                continue
            folder = root / "files" / f"{tile}-{date}"
            raw = {n: gdal.Open(str(folder / f"{n}.tif")).ReadAsArray() for n in ("red", "nir", "scl")}
            rr, cc, held = where[(tile, PIXEL)]
            tr_, tn = raw["red"][rr, cc], raw["nir"][rr, cc]
            has = held & (tr_ != NODATA) & (tn != NODATA)
            take = has & np.isnan(red)
            red[take], nir[take] = tr_[take] * SCALE + OFFSET, tn[take] * SCALE + OFFSET
            sr, sc, sheld = where[(tile, SCL_PIXEL)]
            flagged |= has & sheld & np.isin(raw["scl"][sr, sc], EXCLUDED)
        ndvi = (nir - red) / (nir + red)
        valid = inside & np.isfinite(ndvi) & ~flagged
        out[date] = {"sum": float(ndvi[valid].sum(dtype=np.float64)), "count": int(valid.sum()),
                     "area_pixels": int(inside.sum())}
    cached.write_text(json.dumps(out))
    return out


def months(dates) -> list[str]:
    return sorted({d[:7] for d in dates})


def monthly_truth(per_date: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    """Per month, the mean NDVI of every valid 60 m pixel of its dates, and how many there were."""
    out: dict[str, dict[str, float]] = {}
    for date, t in per_date.items():
        m = out.setdefault(date[:7], {"sum": 0.0, "count": 0})
        m["sum"] += t["sum"]
        m["count"] += t["count"]
    return {k: {"mean": v["sum"] / v["count"] if v["count"] else None, "count": v["count"]} for k, v in out.items()}


if __name__ == "__main__":  # python bench/year_world.py DIR: make the files and the truth, print the counts
    import time

    folder = Path(sys.argv[1])
    started = time.perf_counter()
    make_files(folder)
    print(f"{len(json.loads((folder / 'published.json').read_text()))} items in {time.perf_counter() - started:.0f} s")
    monthly = monthly_truth(truth(folder))
    for month, t in sorted(monthly.items()):
        print(month, t)
