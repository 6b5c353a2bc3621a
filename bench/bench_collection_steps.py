"""Where a full-resolution month of collection_statistics spends its CPU, step by step.

The year world of bench_vs_odc_stac (`year_world.py`: Sentinel-2-L2A-like tiles in two UTM zones, SCL mask) is
served on loopback by the counting COG server; the plugin's own computation of one month at full resolution runs
in this process, with a timer around each step of an item's read (wall and CPU of the thread that runs it). On 2
cores the reads are CPU bound, so the CPU column says what a change can win; a sampling profiler on a loaded
machine attributes time to whatever thread happens to be runnable, the timers do not. The first run pays for
the modules' first imports and builds the other zone's nearest maps; later runs reuse both, as the dock's next
question does.

    python bench/bench_collection_steps.py [--runs N]       (BENCH_DIR as bench_vs_odc_stac: the world's files)
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import functools
import resource
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))

import bench_vs_odc_stac as versus  # noqa: E402
import year_world  # noqa: E402

import conftest  # noqa: E402,F401  (makes the checkout importable as stacgis_agent)
from stacgis_agent.tools.engine import date_stats, stats_worker, warp_average, warp_maps  # noqa: E402

STEPS = (  # (module, function, what it is)
    (stats_worker, "_read_aligned", "same-zone band reads (decode, predictor, placing)"),
    (stats_worker, "_warped", "GDAL warps (the other zone's maps, the first time)"),
    (warp_average, "average", "other-zone average (kept maps)"),
    (warp_average, "_build", "other-zone average maps (the first time)"),
    (warp_maps, "nearest", "other-zone nearest maps (cloud mask)"),
    (stats_worker, "_mask_cells", "cloud-mask cells (all of the mask's read)"),
    (stats_worker, "memory_copy", "other-zone windows copied for GDAL"),
    (date_stats.PeriodAccumulator, "add_date", "a date's mosaic added to its month"),
    (date_stats.PeriodAccumulator, "row", "the month's statistics row"),
)


def timed(owner: object, name: str, totals: dict) -> None:
    original = getattr(owner, name)

    @functools.wraps(original)
    def wrapper(*args, **kwargs):
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent = totals[name]
            spent[0] += 1
            spent[1] += time.perf_counter() - wall
            spent[2] += time.thread_time() - cpu

    setattr(owner, name, wrapper)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    from testkit.servers.cog_server import CogServer

    year_world.make_files(versus.WORLD)
    totals: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0, 0.0])
    for owner, name, _what in STEPS:
        timed(owner, name, totals)
    cogs = CogServer(versus.WORLD).start()
    try:
        items = [i for i in year_world.items(cogs.url, versus.WORLD)
                 if i["properties"]["datetime"][:7] == year_world.MONTH]
        job = {"area": year_world.area_lonlat(), "items": items, "exact": True, "out": str(versus.WORLD / "out")}
        for run in range(args.runs):
            totals.clear()
            cpu_before = resource.getrusage(resource.RUSAGE_SELF)
            out = asyncio.run(versus.product(job))
            cpu_after = resource.getrusage(resource.RUSAGE_SELF)
            cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
            print(f"\nrun {run + 1}: {year_world.MONTH} at full resolution ({len(items)} items): "
                  f"{out['seconds']:.2f} s, process CPU {cpu:.2f} s")
            print(f"  {'step':52}{'calls':>7}{'wall s':>9}{'CPU s':>8}{'CPU share':>11}")
            for _owner, name, what in STEPS:
                calls, wall, step_cpu = totals.get(name, (0, 0.0, 0.0))
                print(f"  {what:52}{calls:>7}{wall:>9.2f}{step_cpu:>8.2f}{100 * step_cpu / cpu:>10.0f}%")
            print("  (steps nest: the mask cells include their nearest maps; wall adds up over parallel threads)")
    finally:
        cogs.stop()


if __name__ == "__main__":
    main()
