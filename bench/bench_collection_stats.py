"""collection_statistics over a year: 1,000 Sentinel-2-like items (250 dates × 4 tiles of 51 km, red/nir/SCL COGs
at 25 m) from a real STAC API (stac-fastapi-pgstac), COGs over HTTP with Range, NDVI over 100 km × 100 km.

Side by side in one run: the tool (overviews, concurrent range reads) vs a naive sequential full-resolution
read of the same items (timed on a sample of NAIVE_SAMPLE items and projected to all, because reading
every file whole takes long). Bytes are counted at the HTTP server.

Disk: 12 distinct COGs (4 tiles × red/nir/SCL, ~60 MB) generated once under .build/bench-collection; the 1,000
items' hrefs are distinct URLs (symbolic links to those files), so GDAL caches nothing across items.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import httpx  # noqa: E402
import numpy as np  # noqa: E402
from osgeo import gdal  # noqa: E402

import conftest  # noqa: E402,F401 - makes `stacgis_agent` and `testkit` importable
from stacgis_agent.agent.config import CatalogConfig, Settings  # noqa: E402
from stacgis_agent.tools.analysis.collection_stats import compute  # noqa: E402
from stacgis_agent.tools.deps import ToolDeps  # noqa: E402
from stacgis_agent.tools.stac.search import ItemSearch  # noqa: E402
from stacgis_agent.tools.stac.timeutil import normalise_interval  # noqa: E402
from testkit.servers.cog_server import CogServer  # noqa: E402
from testkit.servers.stac_api import StacApi, collection_doc  # noqa: E402
from testkit.worlds.cogs import write_cog  # noqa: E402
from testkit.worlds.collection_world import transformer  # noqa: E402

ROOT = HERE.parent / ".build" / "bench-collection"
EPSG = 32631
PIXEL, SIZE = 25.0, 2048  # 51.2 km tiles
ORIGIN = (600000.0, 5100000.0)
TILES = [(ORIGIN[0] + i * SIZE * PIXEL, ORIGIN[1] - j * SIZE * PIXEL) for j in (0, 1) for i in (0, 1)]
DATES = 250
AREA_UTM = (ORIGIN[0] + 2000, ORIGIN[1] - 102000, ORIGIN[0] + 102000, ORIGIN[1] - 2000)  # 100 km × 100 km
NAIVE_SAMPLE = 12
COLLECTION = "bench-s2"


def make_files() -> None:
    marker = ROOT / "files.done"
    if marker.exists():
        return
    rng = np.random.default_rng(7)
    y, x = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    for t, origin in enumerate(TILES):
        red = 0.05 + 0.03 * np.sin(x / 300 + t) + rng.normal(0, 0.002, (SIZE, SIZE))
        nir = 0.30 + 0.10 * np.cos(y / 400 + t) + rng.normal(0, 0.002, (SIZE, SIZE))
        scl = np.full((SIZE, SIZE), 4, np.uint8)
        scl[300 + 100 * t:700 + 100 * t, 500:1100] = 9
        for name, values, kwargs in (
                ("red", np.round((red + 0.1) / 0.0001).astype(np.uint16), {"nodata": 0}),
                ("nir", np.round((nir + 0.1) / 0.0001).astype(np.uint16), {"nodata": 0}),
                ("scl", scl, {"overview_resampling": "NEAREST"})):
            write_cog(ROOT / "files" / f"t{t}-{name}.tif", values, origin=origin, pixel_size=PIXEL, epsg=EPSG,
                      blocksize=128, **kwargs)
    marker.write_text("ok")


def make_items(base_url: str) -> tuple[list[dict], int]:
    items, total = [], 0
    sizes = {p.name: p.stat().st_size for p in (ROOT / "files").glob("*.tif")}
    links = ROOT / "items"
    for d in range(DATES):
        date = np.datetime64("2023-01-01") + int(d * 365 / DATES)
        for t, origin in enumerate(TILES):
            item_id = f"s2-{date}-t{t}"
            assets = {}
            for name in ("red", "nir", "scl"):
                link = links / item_id / f"{name}.tif"
                if not link.exists():
                    link.parent.mkdir(parents=True, exist_ok=True)
                    link.symlink_to(ROOT / "files" / f"t{t}-{name}.tif")
                total += sizes[f"t{t}-{name}.tif"]
                asset = {"href": f"{base_url}/items/{item_id}/{name}.tif", "type": "image/tiff; application=geotiff"}
                if name != "scl":
                    asset["eo:bands"] = [{"name": name, "common_name": name}]
                    asset["raster:bands"] = [{"nodata": 0, "scale": 0.0001, "offset": -0.1}]
                assets[name] = asset
            w, n = origin
            tr = transformer(EPSG, 4326)
            ring = [list(tr.TransformPoint(px, py)[:2]) for px, py in
                    ((w, n - SIZE * PIXEL), (w + SIZE * PIXEL, n - SIZE * PIXEL), (w + SIZE * PIXEL, n), (w, n))]
            xs, ys = [p[0] for p in ring], [p[1] for p in ring]
            items.append({"type": "Feature", "stac_version": "1.0.0", "id": item_id, "collection": COLLECTION,
                          "geometry": {"type": "Polygon", "coordinates": [ring + [ring[0]]]},
                          "bbox": [min(xs), min(ys), max(xs), max(ys)], "links": [], "assets": assets,
                          "properties": {"datetime": f"{date}T10:30:00Z", "proj:epsg": EPSG, "eo:cloud_cover": 10}})
    return items, total


def area_lonlat() -> dict:
    tr = transformer(EPSG, 4326)
    w, s, e, n = AREA_UTM
    ring = [list(tr.TransformPoint(x, y)[:2]) for x, y in ((w, s), (e, s), (e, n), (w, n))]
    return {"type": "Polygon", "coordinates": [ring + [ring[0]]]}


def naive_read(items: list[dict]) -> None:
    """What a script without overviews does: each file opened in turn, the area read at full resolution."""
    gdal.SetThreadLocalConfigOption("GDAL_DISABLE_READDIR_ON_OPEN", "EMPTY_DIR")
    for item in items:
        arrays = {}
        for name in ("red", "nir", "scl"):
            ds = gdal.Open("/vsicurl/" + item["assets"][name]["href"])
            gt = ds.GetGeoTransform()
            c0 = max(0, int((AREA_UTM[0] - gt[0]) / gt[1]))
            c1 = min(ds.RasterXSize, int((AREA_UTM[2] - gt[0]) / gt[1]) + 1)
            r0 = max(0, int((AREA_UTM[3] - gt[3]) / gt[5]))
            r1 = min(ds.RasterYSize, int((AREA_UTM[1] - gt[3]) / gt[5]) + 1)
            arrays[name] = ds.GetRasterBand(1).ReadAsArray(c0, r0, c1 - c0, r1 - r0).astype(np.float32)
        red, nir = arrays["red"] * 1e-4 - 0.1, arrays["nir"] * 1e-4 - 0.1
        ndvi = (nir - red) / (nir + red)
        float(np.nanmean(np.where(np.isin(arrays["scl"], (3, 8, 9, 10)), np.nan, ndvi)))


async def main() -> None:
    make_files()
    cogs = CogServer(ROOT).start()
    api = StacApi().start()
    try:
        items, total_bytes = make_items(cogs.url)
        api.load([collection_doc(COLLECTION, [-180, -90, 180, 90], ["2023-01-01T00:00:00Z", None])], items)
        settings = Settings(catalogs=[CatalogConfig("bench", api.url)])
        async with httpx.AsyncClient(timeout=30) as http:
            deps = ToolDeps.from_settings(settings, http=http, work_dir=str(ROOT / "out"))
            area = area_lonlat()
            started = time.perf_counter()
            cat = deps.catalogs.get()
            outcome = await cat.search(ItemSearch(collections=[COLLECTION], intersects=area,
                                                  datetime=normalise_interval("2023-01-01/2023-12-31"),
                                                  limit=1000))
            search_s = time.perf_counter() - started
            found = outcome.items
            cogs.reset_counts()
            t0 = time.perf_counter()
            result = await compute(deps, found, {}, area, index="NDVI", asset=None, group_by="date",
                                   exact=False, mask_clouds=True)
            fast_s = time.perf_counter() - t0
            fast_bytes = sum(cogs.bytes_sent.values())
            fast_requests = sum(cogs.requests.values())
            fast_connections = len(cogs.connections)
        cogs.reset_counts()
        sample = found[:NAIVE_SAMPLE]
        t0 = time.perf_counter()
        await asyncio.to_thread(naive_read, sample)
        naive_sample_s = time.perf_counter() - t0
        naive_bytes = sum(cogs.bytes_sent.values()) * len(found) / len(sample)
        naive_s = naive_sample_s * len(found) / len(sample)
    finally:
        api.stop()
        cogs.stop()
    n = len(found)
    print(f"{n} items ({result['dates']} dates × {len(TILES)} tiles), NDVI with SCL mask over 100 km × 100 km; "
          f"files {total_bytes / 1e9:.2f} GB in all (as served; {os.cpu_count()} CPU cores)")
    print(f"search: {n} items in {search_s:.1f} s (pgstac, {outcome.pages_fetched} pages)")
    print(f"resolution: {result['resolution']}")
    print(f"{'':24}{'tool (overviews, 8 threads)':>30}{'naive (sequential, full res)':>32}{'ratio':>9}")
    print(f"{'time':24}{fast_s:>28.1f} s{naive_s:>30.1f} s{naive_s / fast_s:>8.0f}×"
          f"   (naive: {NAIVE_SAMPLE} items in {naive_sample_s:.1f} s, projected)")
    print(f"{'items/s':24}{n / fast_s:>30.1f}{n / naive_s:>32.2f}")
    print(f"{'bytes read':24}{fast_bytes / 1e6:>27.1f} MB{naive_bytes / 1e6:>29.0f} MB{naive_bytes / fast_bytes:>8.0f}×")
    print(f"{'% of the files':24}{100 * fast_bytes / total_bytes:>29.2f} %{100 * naive_bytes / total_bytes:>31.1f} %")
    print(f"HTTP requests (tool): {fast_requests} over {fast_connections} TCP connections; tool's own estimate of bytes read: {result['bytes_read'] / 1e6:.1f} MB")
    goal = fast_s < 60 and fast_bytes / total_bytes < 0.02
    print(f"goal (< 60 s and < 2 % of the bytes): {'met' if goal else 'NOT met'}")


if __name__ == "__main__":
    asyncio.run(main())
