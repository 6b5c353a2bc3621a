"""What GDAL's network settings cost collection statistics, counted at the server: the same reads (the July
items of `odc_world.py`, at overviews and at full resolution, and one block of one file) under each set of
options, GDAL's cache of remote files cleared before each. Prints bytes served, requests, wall time and the
plugin's own estimate of the bytes it read, per setting, on this GDAL. Run it in each matrix root too:

    python bench/bench_gdal_reads.py
    CI=true MATRIX_COMMAND="python bench/bench_gdal_reads.py" scripts/test_matrix.sh trixie sid
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))

import httpx  # noqa: E402
import odc_world  # noqa: E402
from osgeo import gdal  # noqa: E402

import conftest  # noqa: E402,F401 - makes `stacgis_agent` and `testkit` importable
from stacgis_agent.agent.config import Settings  # noqa: E402
from stacgis_agent.tools.deps import ToolDeps  # noqa: E402
from stacgis_agent.tools.engine import collection_plan as plan  # noqa: E402
from stacgis_agent.tools.engine import gdal_env, stats_worker  # noqa: E402
from testkit.servers.cog_server import CogServer  # noqa: E402

ROOT = Path(os.environ.get("BENCH_DIR", HERE.parent / ".build")) / "bench-vs-odc"
SETTINGS = {
    "the plugin's options": {},
    "VSI_CACHE=TRUE": {"VSI_CACHE": "TRUE"},
    "VSI_CACHE=FALSE": {"VSI_CACHE": "FALSE"},
    "FALSE + INGESTED_BYTES_AT_OPEN=32768": {"VSI_CACHE": "FALSE", "GDAL_INGESTED_BYTES_AT_OPEN": "32768"},
    "FALSE + MULTIRANGE=YES": {"VSI_CACHE": "FALSE", "GDAL_HTTP_MULTIRANGE": "YES"},
    "FALSE + MERGE_CONSECUTIVE_RANGES=YES": {"VSI_CACHE": "FALSE", "GDAL_HTTP_MERGE_CONSECUTIVE_RANGES": "YES"},
    "FALSE + MULTIPLEX=NO": {"VSI_CACHE": "FALSE", "GDAL_HTTP_MULTIPLEX": "NO"},
}


async def tasks_for(base_url: str, exact: bool) -> list:
    items = [i for i in odc_world.items(base_url) if i["properties"]["datetime"][:10] in odc_world.JULY]
    async with httpx.AsyncClient() as http:
        deps = ToolDeps.from_settings(Settings(), http=http, work_dir=str(ROOT / "out"))
        job = await plan.plan_job(deps, items, {}, odc_world.area_lonlat(), index="NDVI", asset=None, exact=exact,
                                  mask_clouds=True, max_pixels=gdal_env.OVERVIEW_PIXELS, catalog=None)
    return job.tasks


def measure(tasks: list, options: dict, cogs: CogServer) -> tuple[int, int, float, int]:
    gdal.VSICurlClearCache()
    cogs.reset_counts()
    started = time.perf_counter()
    estimate = 0
    for task in tasks:
        estimate += stats_worker.read_item(dataclasses.replace(task, options={**task.options, **options})).bytes_read
    return sum(cogs.bytes_sent.values()), sum(cogs.requests.values()), time.perf_counter() - started, estimate


def one_block(cogs: CogServer, options: dict) -> tuple[int, int]:
    """A 512 × 512 window (one block) of one red file at full resolution, after opening it."""
    gdal.VSICurlClearCache()
    cogs.reset_counts()
    path = f"/vsicurl/{cogs.url}/files/T00-{odc_world.DATES[0]}/red.tif"
    with gdal_env.read_options(options):
        ds = gdal_env.open_dataset(path)
        ds.GetRasterBand(1).ReadAsArray(512, 512, 512, 512)
        size = int(ds.GetRasterBand(1).GetMetadataItem("BLOCK_SIZE_1_1", "TIFF"))
        ds = None
    return sum(cogs.bytes_sent.values()), size


def main() -> None:
    odc_world.make_files(ROOT)
    cogs = CogServer(ROOT).start()
    try:
        print(f"GDAL {gdal.__version__}; the plugin's options: "
              + ", ".join(f"{k}={v}" for k, v in gdal_env.READ_OPTIONS.items()))
        for exact in (False, True):
            tasks = asyncio.run(tasks_for(cogs.url, exact))
            print(f"\n{'full resolution' if exact else 'overviews'}: {len(tasks)} items of July, "
                  f"{tasks[0].grid.width} × {tasks[0].grid.height} cells")
            print(f"{'setting':40}{'MB served':>11}{'requests':>10}{'wall s':>8}{'estimate / served':>19}")
            for name, options in SETTINGS.items():
                served, requests, seconds, estimate = measure(tasks, options, cogs)
                print(f"{name:40}{served / 1e6:>11.2f}{requests:>10}{seconds:>8.2f}{estimate / served:>18.0%}")
        print("\none 512 × 512 block of one file, opened and read:")
        for name in ("VSI_CACHE=TRUE", "VSI_CACHE=FALSE", "FALSE + INGESTED_BYTES_AT_OPEN=32768"):
            served, size = one_block(cogs, SETTINGS[name])
            print(f"  {name:40}{served:>9,} bytes served for a block of {size:,} bytes")
    finally:
        cogs.stop()


if __name__ == "__main__":
    main()
