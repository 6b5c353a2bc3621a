"""GUI-thread stalls while outside MCP clients run heavy analyses through the plugin's HTTP endpoint.

QGIS offscreen, the endpoint on the qasync loop as in the plugin, a QTimer probe at 5 ms on that loop
recording how late it fires. The outside client runs in a thread of its own (its own asyncio loop), so
only the plugin's work lands on the GUI thread. The data: a static catalog of 1,500 Sentinel-2-like items
(375 dates × 4 tiles of 10 km, red/nir COGs at 40 m, each item's hrefs distinct URLs so GDAL caches
nothing across items), served by testkit's CogServer on loopback.

Two scenarios, each printed with the longest stall, stalls over 50 ms and over 500 ms, and the summed
lateness:
- six concurrent collection_statistics calls (NDVI, two months each) from one client;
- one call over the whole year (1,500 items matched; the search keeps MAX_ITEMS of them).
The first is run with the per-client limit off (as before issue 23) and on. For the beats over 20 ms late,
the GUI thread's time on a CPU and waiting for one (Linux /proc schedstat) says whether a stall was work
on the GUI thread or the machine's other threads holding the CPUs.
Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_outside_load.py
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import numpy as np  # noqa: E402
from stall_world import Probe  # noqa: E402

import conftest  # noqa: E402,F401 - makes `stacgis_agent` and `testkit` importable

ROOT = HERE.parent / ".build" / "bench-cache" / "outside-load"
EPSG, PIXEL, SIZE = 32631, 40.0, 256
ORIGIN = (600_000.0, 5_100_000.0)
TILES = [(ORIGIN[0] + i * SIZE * PIXEL, ORIGIN[1] - j * SIZE * PIXEL) for j in (0, 1) for i in (0, 1)]
DATES = 375
CONCURRENT = 6


def make_world(base_url: str) -> Path:
    """COGs (once), 1,500 items with distinct hrefs (symbolic links), and the static catalog on disk."""
    from testkit.worlds.analyst_world import write_static_catalog
    from testkit.worlds.cogs import write_cog
    from testkit.worlds.collection_world import transformer

    files = ROOT / "files"
    if not (files / "done").exists():
        rng = np.random.default_rng(3)
        y, x = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
        for t, origin in enumerate(TILES):
            red = 0.05 + 0.03 * np.sin(x / 40 + t) + rng.normal(0, 0.002, x.shape)
            nir = 0.30 + 0.10 * np.cos(y / 50 + t) + rng.normal(0, 0.002, x.shape)
            for name, values in (("red", red), ("nir", nir)):
                write_cog(files / f"t{t}-{name}.tif", np.round((values + 0.1) / 0.0001).astype(np.uint16),
                          origin=origin, pixel_size=PIXEL, epsg=EPSG, nodata=0, blocksize=128)
        (files / "done").write_text("ok")
    tr = transformer(EPSG, 4326)
    items = []
    for d in range(DATES):
        date = str(np.datetime64("2023-01-01") + int(d * 365 / DATES))
        for t, (w, n) in enumerate(TILES):
            item_id = f"s2-{date}-{d}-t{t}"
            assets = {}
            for name in ("red", "nir"):
                link = ROOT / "items" / item_id / f"{name}.tif"
                if not link.exists():
                    link.parent.mkdir(parents=True, exist_ok=True)
                    link.symlink_to(files / f"t{t}-{name}.tif")
                assets[name] = {"href": f"{base_url}/items/{item_id}/{name}.tif", "type": "image/tiff; application=geotiff",
                                "roles": ["data"], "eo:bands": [{"name": name, "common_name": name}],
                                "raster:bands": [{"nodata": 0, "scale": 0.0001, "offset": -0.1}]}
            ring = [list(tr.TransformPoint(px, py)[:2]) for px, py in
                    ((w, n - SIZE * PIXEL), (w + SIZE * PIXEL, n - SIZE * PIXEL), (w + SIZE * PIXEL, n), (w, n))]
            xs, ys = [p[0] for p in ring], [p[1] for p in ring]
            items.append({"type": "Feature", "stac_version": "1.0.0", "id": item_id, "collection": "load",
                          "geometry": {"type": "Polygon", "coordinates": [ring + [ring[0]]]},
                          "bbox": [min(xs), min(ys), max(xs), max(ys)], "links": [], "assets": assets,
                          "properties": {"datetime": f"{date}T10:30:00Z", "proj:epsg": EPSG}})
    collection = {"type": "Collection", "stac_version": "1.0.0", "id": "load", "description": "load", "links": [],
                  "license": "CC0-1.0", "extent": {"spatial": {"bbox": [[0, 40, 10, 50]]},
                                                   "temporal": {"interval": [["2023-01-01T00:00:00Z", None]]}}}
    return write_static_catalog(ROOT / "catalog", [collection], items)


def area_lonlat() -> dict:
    from testkit.worlds.collection_world import transformer

    tr = transformer(EPSG, 4326)
    w, n = ORIGIN[0] + 1000, ORIGIN[1] - 1000
    e, s = ORIGIN[0] + 2 * SIZE * PIXEL - 1000, ORIGIN[1] - 2 * SIZE * PIXEL + 1000
    ring = [list(tr.TransformPoint(x, y)[:2]) for x, y in ((w, s), (e, s), (e, n), (w, n))]
    return {"type": "Polygon", "coordinates": [ring + [ring[0]]]}


async def measure(probe: Probe, work) -> dict:
    """The longest stall, beats over 50 and 500 ms, the summed lateness and, for beats over 20 ms late, the GUI
    thread's time on a CPU and waiting for one, while `work()` runs."""
    probe.long_beats.clear()
    late, outcome = await probe.measure(work)
    return {"longest_ms": max(late, default=0.0), "over_50": sum(v > 50 for v in late),
            "over_500": sum(v > 500 for v in late), "stalled_s": sum(v for v in late if v > 5) / 1000,
            "wall_s": probe.wall_s, "ran_ms": sum(b[1] for b in probe.long_beats),
            "waited_ms": sum(b[2] for b in probe.long_beats), **outcome}


class StallWatch:
    """With BENCH_STACKS=1: a thread that, when the probe has not beaten for 40 ms, records where the GUI
    thread is (the innermost frames of the plugin's code), to find what a stall is made of."""

    def __init__(self, probe: Probe) -> None:
        import collections
        import os

        self.probe = probe
        self.enabled = os.environ.get("BENCH_STACKS") == "1"
        self.seen: collections.Counter = collections.Counter()
        self.main = threading.get_ident()

    def start(self) -> None:
        if self.enabled:
            threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        import traceback

        while True:
            time.sleep(0.01)
            if self.probe.timer.isActive() and time.perf_counter() - self.probe.last > 0.04:
                frame = sys._current_frames().get(self.main)
                stack = traceback.extract_stack(frame)[-12:] if frame else []
                mine = [f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in stack]
                self.seen[" < ".join(reversed(mine[-5:]))] += 1

    def report(self) -> None:
        for where, count in self.seen.most_common(12):
            print(f"  {count:4d} × {where}")


def client_calls(url: str, token: str, calls: list[dict]) -> dict:
    """Runs the calls concurrently from one outside client, in this thread's own event loop."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async def run() -> dict:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=600)
        async with Client(streamable_http_client(url, http_client=http)) as client:
            results = await asyncio.gather(*[client.call_tool("collection_statistics", c) for c in calls])
        refused = sum(r.is_error and "one at a time" in r.content[0].text for r in results)
        failed = [r.content[0].text[:200] for r in results if r.is_error and "one at a time" not in r.content[0].text]
        return {"accepted": len(results) - refused, "refused": refused, "failed": failed}

    return asyncio.run(run())


async def in_thread(fn, *args) -> dict:
    """Runs `fn` in a plain thread and waits for it without blocking the GUI loop."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future = loop.create_future()

    def target() -> None:
        try:
            value = fn(*args)
            loop.call_soon_threadsafe(done.set_result, value)
        except BaseException as exc:  # reported by the bench run
            loop.call_soon_threadsafe(done.set_exception, exc)

    threading.Thread(target=target, daemon=True).start()
    return await done


def _set_limit(endpoint, on: bool) -> str:
    try:
        from stacgis_agent.tools.heavy_calls import HeavyCallLimit
    except ImportError:
        return "none in this version"
    for middleware in endpoint.server.middleware:
        if isinstance(middleware, HeavyCallLimit):
            middleware.max_waiting = 2 if on else 10_000
            middleware.running = asyncio.Semaphore(2 if on else 10_000)
    return "on" if on else "off"


async def main(catalog: Path, base_url: str, work: Path) -> list[tuple[str, dict]]:
    from osgeo import gdal

    from stacgis_agent.agent.config import CatalogConfig, Settings
    from stacgis_agent.tools.deps import ToolDeps
    from stacgis_agent.tools.outside.http_endpoint import McpHttpEndpoint, load_or_create_token
    from testkit.servers.loopback import free_port

    settings = Settings(catalogs=[CatalogConfig("load", str(catalog), kind="static")])
    deps = ToolDeps.from_settings(settings, work_dir=str(work / "out"))
    token = load_or_create_token(work / "profile")
    endpoint = McpHttpEndpoint(deps, token, free_port())
    await endpoint.start()
    probe = Probe()
    watch = StallWatch(probe)
    watch.start()
    area = area_lonlat()
    months = [f"2023-{m:02d}-01/2023-{m + 1:02d}-28" for m in range(1, 12, 2)]
    six = [{"collection": "load", "datetime": months[k], "index": "NDVI", "polygon": area} for k in range(CONCURRENT)]
    year = [{"collection": "load", "datetime": "2023-01-01/2023-12-31", "index": "NDVI", "polygon": area}]
    out = []
    try:
        await deps.catalogs.get().collections()  # the static catalog is walked once, before measuring
        for label, calls, limit in ((f"{CONCURRENT} concurrent calls, limit off", six, False),
                                    (f"{CONCURRENT} concurrent calls, limit on", six, True),
                                    ("one call over the year", year, True)):
            state = _set_limit(endpoint, limit)
            gdal.VSICurlClearCache()
            result = await measure(probe, lambda c=calls: in_thread(client_calls, endpoint.url, token, c))
            out.append((f"{label} ({state})" if state.startswith("none") else label, result))
    finally:
        await endpoint.stop()
    watch.report()
    return out


def run() -> int:
    import tempfile

    import qasync
    from osgeo import gdal
    from qgis.core import QgsApplication

    from testkit.servers.cog_server import CogServer

    app = QgsApplication([], False)
    app.initQgis()
    gdal.SetConfigOption("GDAL_DISABLE_READDIR_ON_OPEN", "EMPTY_DIR")
    ROOT.mkdir(parents=True, exist_ok=True)
    server = CogServer(ROOT).start()
    catalog = make_world(server.url)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    try:
        results = loop.run_until_complete(main(catalog, server.url, Path(tempfile.mkdtemp(prefix="bench-load-"))))
    finally:
        server.stop()
    print(f"GUI-thread stalls (5 ms probe) while one outside MCP client runs collection_statistics; "
          f"{DATES * len(TILES)} items in a static catalog, COGs on loopback")
    print(f"{'':42}{'longest ms':>11}{'>50 ms':>8}{'>500 ms':>8}{'stalled s':>10}{'wall s':>8}{'accepted':>9}"
          f"{'refused':>8}")
    for label, r in results:
        print(f"{label:42}{r['longest_ms']:11.0f}{r['over_50']:8d}{r['over_500']:8d}{r['stalled_s']:10.2f}"
              f"{r['wall_s']:8.1f}{r['accepted']:9d}{r['refused']:8d}")
        print(f"    beats over 20 ms late: the GUI thread ran {r['ran_ms']:.0f} ms on a CPU and waited "
              f"{r['waited_ms']:.0f} ms for one")
        for failure in r["failed"]:
            print(f"    failed: {failure}")
    loop.close()
    app.exitQgis()
    return 0


if __name__ == "__main__":
    sys.exit(run())
