"""collection_statistics at full resolution (exact=true): reading each file on its own pixel grid vs warping it
onto the same grid, side by side in one run on one loopback COG server. 3 dates × 2 overlapping tiles of
15 km (red/nir at 10 m, SCL at 20 m, Sentinel-2-like noise), NDVI over 20 km × 12 km (2.4 M pixels a date).
Prints wall time, bytes served and the largest difference between the two tables, then what sampling the
cloud mask 4 × 4 times per cell costs at overviews against once; the files are generated
once under $BENCH_DIR (default .build)/bench-full-res."""

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
from stacgis_agent.tools.engine import stats_worker  # noqa: E402
from testkit.servers.cog_server import CogServer  # noqa: E402
from testkit.worlds.cogs import write_cog  # noqa: E402
from testkit.worlds.collection_world import transformer  # noqa: E402

ROOT = Path(os.environ.get("BENCH_DIR", HERE.parent / ".build")) / "bench-full-res"
EPSG, PIXEL, SIZE = 32631, 10.0, 1500
NORTH, WESTS = 5080000.0, (600000.0, 608000.0)
DATES = ("2023-06-01", "2023-06-11", "2023-06-21")
AREA_UTM = (601000.0, 5066000.0, 621000.0, 5078000.0)


def make_files() -> None:
    if (ROOT / "files.done").exists():
        return
    rng = np.random.default_rng(3)
    y, x = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    for t, west in enumerate(WESTS):
        for d, _date in enumerate(DATES):
            red = 0.05 + 0.02 * np.sin((x + t * 800) / 300) + rng.normal(0, 0.004, (SIZE, SIZE))
            nir = 0.30 + 0.08 * np.cos(y / 400 + d) + rng.normal(0, 0.008, (SIZE, SIZE))
            scl = np.full((SIZE // 2, SIZE // 2), 4, np.uint8)
            scl[100 + 50 * d:260 + 50 * d, 200:420] = 9
            stem = ROOT / f"t{t}-d{d}"
            write_cog(stem / "red.tif", np.round((red + 0.1) / 1e-4).astype(np.uint16), origin=(west, NORTH),
                      pixel_size=PIXEL, epsg=EPSG, nodata=0, blocksize=256)
            write_cog(stem / "nir.tif", np.round((nir + 0.1) / 1e-4).astype(np.uint16), origin=(west, NORTH),
                      pixel_size=PIXEL, epsg=EPSG, nodata=0, blocksize=256)
            write_cog(stem / "scl.tif", scl, origin=(west, NORTH), pixel_size=2 * PIXEL, epsg=EPSG, blocksize=256,
                      overview_resampling="NEAREST")
    (ROOT / "files.done").write_text("ok")


def items(base_url: str) -> list[dict]:
    out = []
    tr = transformer(EPSG, 4326)
    for t, west in enumerate(WESTS):
        for d, date in enumerate(DATES):
            assets = {}
            for name in ("red", "nir", "scl"):
                asset = {"href": f"{base_url}/t{t}-d{d}/{name}.tif", "type": "image/tiff; application=geotiff"}
                if name != "scl":
                    asset["eo:bands"] = [{"name": name, "common_name": name}]
                    asset["raster:bands"] = [{"nodata": 0, "scale": 0.0001, "offset": -0.1}]
                assets[name] = asset
            e, s = west + SIZE * PIXEL, NORTH - SIZE * PIXEL
            ring = [list(tr.TransformPoint(px, py)[:2]) for px, py in ((west, s), (e, s), (e, NORTH), (west, NORTH))]
            xs, ys = [p[0] for p in ring], [p[1] for p in ring]
            out.append({"type": "Feature", "stac_version": "1.0.0", "id": f"t{t}-{date}", "collection": "bench",
                        "geometry": {"type": "Polygon", "coordinates": [ring + [ring[0]]]},
                        "bbox": [min(xs), min(ys), max(xs), max(ys)], "links": [], "assets": assets,
                        "properties": {"datetime": f"{date}T10:30:00Z", "proj:epsg": EPSG, "eo:cloud_cover": 5 + t}})
    return out


def area_lonlat() -> dict:
    tr = transformer(EPSG, 4326)
    w, s, e, n = AREA_UTM
    ring = [list(tr.TransformPoint(x, y)[:2]) for x, y in ((w, s), (e, s), (e, n), (w, n))]
    return {"type": "Polygon", "coordinates": [ring + [ring[0]]]}


async def main() -> None:
    make_files()
    cogs = CogServer(ROOT).start()
    runs, overview = {}, {}
    samples_default = stats_worker.MASK_SAMPLES
    try:
        found = items(cogs.url)
        async with httpx.AsyncClient(timeout=30) as http:
            deps = ToolDeps.from_settings(Settings(catalogs=[CatalogConfig("bench", "http://127.0.0.1:9")]),
                                          http=http, work_dir=str(ROOT / "out"))
            for _repeat in range(2):
                for name, aligned in (("warp onto the grid", False), ("own pixel grid", True)):
                    stats_worker.ALIGNED_READS = aligned
                    gdal.VSICurlClearCache()
                    cogs.reset_counts()
                    t0 = time.perf_counter()
                    result = await compute(deps, found, {}, area_lonlat(), index="NDVI", asset=None,
                                           group_by="date", exact=True, mask_clouds=True)
                    elapsed = time.perf_counter() - t0
                    best = runs.get(name, (float("inf"),))[0]
                    runs[name] = (min(best, elapsed), sum(cogs.bytes_sent.values()), result["rows"])
            for samples in (1, stats_worker.MASK_SAMPLES):  # what sampling the cloud mask finer costs at overviews
                stats_worker.MASK_SAMPLES = samples
                gdal.VSICurlClearCache()
                cogs.reset_counts()
                t0 = time.perf_counter()
                result = await compute(deps, found, {}, area_lonlat(), index="NDVI", asset=None,
                                       group_by="date", exact=False, mask_clouds=True)
                overview[samples] = (time.perf_counter() - t0, sum(cogs.bytes_sent.values()), result)
    finally:
        stats_worker.ALIGNED_READS = True
        stats_worker.MASK_SAMPLES = samples_default
        cogs.stop()
    (warp_s, warp_b, warp_rows), (own_s, own_b, own_rows) = runs["warp onto the grid"], runs["own pixel grid"]
    diff = max(abs(a["mean"] - b["mean"]) for a, b in zip(warp_rows, own_rows))
    print(f"{len(found)} items, NDVI at full resolution ({os.cpu_count()} CPU cores), best of 2 runs each")
    print(f"{'':22}{'warp onto the grid':>20}{'own pixel grid':>18}{'ratio':>9}")
    print(f"{'time':22}{warp_s:>18.2f} s{own_s:>16.2f} s{warp_s / own_s:>8.2f}×")
    print(f"{'bytes served':22}{warp_b / 1e6:>17.2f} MB{own_b / 1e6:>15.2f} MB{warp_b / max(1, own_b):>8.2f}×")
    print(f"largest difference of a date's mean between the two: {diff:.2e}; "
          f"valid pixels {[r['valid_pixels'] for r in own_rows]}")
    (one_s, one_b, one), (k_s, k_b, k_result) = overview[1], overview[samples_default]
    print(f"overviews ({k_result['resolution'].split(' (')[0]}): cloud mask sampled once vs "
          f"{samples_default} × {samples_default} per cell: {one_s:.2f} s vs {k_s:.2f} s, "
          f"{one_b / 1e6:.2f} MB vs {k_b / 1e6:.2f} MB served ({k_b / max(1, one_b):.2f}×); cells removed by clouds "
          f"{one['cloud_excluded_pixels']} vs {k_result['cloud_excluded_pixels']}")


if __name__ == "__main__":
    asyncio.run(main())
