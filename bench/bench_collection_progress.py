"""How good the "~N s left" of collection_statistics is early in a job: 72 items (24 links to each of the partly cloudy
test world's 3 items' files, under distinct paths, so GDAL caches nothing across items) on a COG server that answers
each request 50 ms late, 8 reads at a time. For each of the first progress lines with a time left, prints the
product's estimate, what "time so far ÷ items done × items left" would say, and the time that was really
left, as ratios to it (1.00 = exact); and how long the analyst waits for the first line under the call and for
the first item counted."""

from __future__ import annotations

import asyncio
import copy
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import httpx  # noqa: E402

import conftest  # noqa: E402,F401 - makes `stacgis_agent` and `testkit` importable
from stacgis_agent.agent.config import CatalogConfig, Settings  # noqa: E402
from stacgis_agent.tools.analysis.collection_stats import compute  # noqa: E402
from stacgis_agent.tools.deps import ToolDeps  # noqa: E402
from testkit.servers.cog_server import CogServer  # noqa: E402
from testkit.worlds.cloudy_world import make_cloudy_world  # noqa: E402

ROOT = Path(os.environ.get("BENCH_DIR", HERE.parent / ".build")) / "bench-progress"
COPIES = 24  # × 4 items of the world


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple[float, float, float | None, str]] = []

    async def report_progress(self, done: float, total: float | None = None, message: str | None = None) -> None:
        self.events.append((time.perf_counter(), done, total, message or ""))


async def main() -> None:
    ROOT.mkdir(parents=True, exist_ok=True)
    cogs = CogServer(ROOT, latency_s=0.05).start()
    try:
        world = make_cloudy_world(ROOT / "world", cogs.url + "/world")
        items = []
        for k in range(COPIES):
            for item in world.items:
                copy_ = copy.deepcopy(item)
                copy_["id"] = f"{item['id']}-{k}"
                for asset in copy_["assets"].values():
                    rel = asset["href"][len(cogs.url) + 1:]
                    link = ROOT / f"copy{k}" / rel
                    if not link.exists():
                        link.parent.mkdir(parents=True, exist_ok=True)
                        link.symlink_to(ROOT / rel)
                    asset["href"] = f"{cogs.url}/copy{k}/{rel}"
                items.append(copy_)
        recorder = Recorder()
        async with httpx.AsyncClient(timeout=30) as http:
            deps = ToolDeps.from_settings(Settings(catalogs=[CatalogConfig("bench", "http://127.0.0.1:9")]),
                                          http=http, work_dir=str(ROOT / "out"))
            called = time.perf_counter()
            await compute(deps, items, {}, world.area, index="NDVI", asset=None, group_by="date", exact=True,
                          mask_clouds=True, ctx=recorder)
        end = time.perf_counter()
    finally:
        cogs.stop()
    start = next(t for t, done, total, _m in recorder.events if total)
    first_note, first_count = recorder.events[0], next(e for e in recorder.events if e[1] > 0)
    print(f"first line under the call after {first_note[0] - called:.2f} s ({first_note[3]!r}); first item counted "
          f"after {first_count[0] - called:.2f} s ({first_count[3]!r})")
    print(f"{len(items)} items, 8 reads at a time, 50 ms per request; the job took {end - start:.1f} s of reads")
    print(f"{'items done':>11}{'really left':>13}{'product':>10}{'ratio':>8}{'time ÷ done':>13}{'ratio':>8}")
    shown = 0
    for t, done, total, message in recorder.events:
        if "s left" not in message or shown >= 8:
            continue
        shown += 1
        left = end - t
        product = float(message.rsplit("~", 1)[1].split()[0])
        naive = (t - start) / done * (total - done)
        print(f"{done:>11.0f}{left:>11.1f} s{product:>8.0f} s{product / left:>8.2f}{naive:>11.0f} s{naive / left:>8.2f}")


if __name__ == "__main__":
    asyncio.run(main())
