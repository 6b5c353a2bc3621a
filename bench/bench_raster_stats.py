"""Statistics on a 10,000 × 10,000 COG served over HTTP: overview mode vs exact mode vs downloading
the file first. Prints time and bytes fetched (counted at the HTTP server) side by side, as ratios.

Exact mode reads at full resolution over a 4,000 × 4,000 window (16 M pixels, the plugin's limit for
exact reads, gdal_env.MAX_EXACT_PIXELS); the overview and download runs use the same window.
The COG is generated once and kept in .build/bench-cache.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import httpx  # noqa: E402
import numpy as np  # noqa: E402
from mcp import Client  # noqa: E402
from osgeo import gdal, osr  # noqa: E402

import conftest  # noqa: E402,F401 - makes `stacgis_agent` and `testkit` importable
from stacgis_agent.agent.config import Settings  # noqa: E402
from stacgis_agent.tools.deps import ToolDeps  # noqa: E402
from stacgis_agent.tools.engine import raster_reads  # noqa: E402
from stacgis_agent.tools.server import build_server  # noqa: E402
from testkit.servers.cog_server import CogServer  # noqa: E402

gdal.UseExceptions()
SIZE = 10_000
PIXEL = 0.0001
ORIGIN = (5.0, 46.0)
WINDOW = 4_000
CACHE = HERE.parent / ".build" / "bench-cache"
NAME = "big-10000.tif"


def make_cog(path: Path) -> None:
    mem = gdal.GetDriverByName("MEM").Create("", SIZE, SIZE, 1, gdal.GDT_UInt16)
    mem.SetGeoTransform((ORIGIN[0], PIXEL, 0, ORIGIN[1], 0, -PIXEL))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    mem.SetProjection(srs.ExportToWkt())
    band = mem.GetRasterBand(1)
    band.SetNoDataValue(0)
    rng = np.random.default_rng(1)
    x = np.arange(SIZE, dtype=np.float32)
    for row in range(0, SIZE, 1000):
        y = np.arange(row, row + 1000, dtype=np.float32)[:, None]
        strip = 2000 + 800 * np.sin(x / SIZE * 6.0) + 600 * np.cos(y / SIZE * 4.0) + rng.normal(0, 30, (1000, SIZE))
        band.WriteArray(strip.astype(np.uint16), 0, row)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.tif")
    gdal.Translate(str(tmp), mem, format="COG", creationOptions=["BLOCKSIZE=512", "COMPRESS=DEFLATE",
                                                                 "RESAMPLING=AVERAGE", "NUM_THREADS=2"])
    tmp.rename(path)


async def tool_run(client: Client, server: CogServer, args: dict) -> tuple[dict, float, int]:
    gdal.VSICurlClearCache()
    server.reset_counts()
    start = time.perf_counter()
    result = await client.call_tool("get_raster_statistics", args)
    seconds = time.perf_counter() - start
    assert not result.is_error, result.content[0].text
    return result.structured_content, seconds, server.bytes_sent["/" + NAME]


def download_run(server: CogServer, bbox: list[float]) -> tuple[dict, float, int]:
    server.reset_counts()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        local = Path(tmp) / NAME
        with httpx.stream("GET", server.href(NAME), timeout=600) as response, open(local, "wb") as f:
            for chunk in response.iter_bytes(1 << 20):
                f.write(chunk)
        stats = raster_reads.statistics(str(local), 1, bbox, None, "EPSG:4326", True, 0, [2, 50, 98])
    return stats, time.perf_counter() - start, server.bytes_sent["/" + NAME]


async def main() -> None:
    cog = CACHE / NAME
    if not cog.exists():
        started = time.perf_counter()
        make_cog(cog)
        print(f"generated {NAME} ({cog.stat().st_size / 1e6:.0f} MB) in {time.perf_counter() - started:.0f} s")
    for key, value in {"GDAL_DISABLE_READDIR_ON_OPEN": "EMPTY_DIR", "CPL_VSIL_CURL_ALLOWED_EXTENSIONS": ".tif"}.items():
        gdal.SetConfigOption(key, value)
    server = CogServer(CACHE).start()
    bbox = [ORIGIN[0] + 1000 * PIXEL, ORIGIN[1] - (1000 + WINDOW) * PIXEL,
            ORIGIN[0] + (1000 + WINDOW) * PIXEL, ORIGIN[1] - 1000 * PIXEL]
    try:
        deps = ToolDeps.from_settings(Settings(), work_dir=tempfile.mkdtemp())
        async with Client(build_server(deps)) as client:
            href = server.href(NAME)
            overview = await tool_run(client, server, {"source": href, "bbox": bbox})
            exact = await tool_run(client, server, {"source": href, "bbox": bbox, "exact": True})
        download = await asyncio.to_thread(download_run, server, bbox)
    finally:
        server.stop()
    size = cog.stat().st_size
    print(f"mean over a {WINDOW}×{WINDOW} window of a {SIZE}×{SIZE} uint16 COG ({size / 1e6:.0f} MB) over HTTP")
    print(f"{'mode':<10} {'seconds':>8} {'MB fetched':>11} {'% of file':>10} {'time ratio':>11} {'bytes ratio':>12} "
          f"{'mean':>10} {'resolution':>11}")
    for label, (stats, seconds, fetched) in (("overview", overview), ("exact", exact), ("download", download)):
        print(f"{label:<10} {seconds:>8.2f} {fetched / 1e6:>11.2f} {100 * fetched / size:>9.1f}% "
              f"{seconds / overview[1]:>11.1f} {fetched / max(overview[2], 1):>12.1f} {stats['mean']:>10.2f} "
              f"{stats['resolution'][0]:>11.5f}")
    error = abs(overview[0]["mean"] - exact[0]["mean"]) / exact[0]["mean"]
    print(f"overview mean differs from exact by {100 * error:.3f}% (stated: within about 1% on smooth data)")


if __name__ == "__main__":
    asyncio.run(main())
