"""GUI-thread stalls during layer-loading turns, idle and on a busy machine, with what the GUI thread ran.

QGIS offscreen, the tools on the qasync loop as in the plugin (in-process MCP client, as the agent calls
them), the real STAC API (stac-fastapi-pgstac, testkit) and testkit's CogServer with LATENCY_MS per
request. One turn: load_stac_items (a two-tile true-colour mosaic), load_stac_asset (one band) and
visualize_collection (footprints + mosaic of four tiles). GDAL's /vsicurl/ cache is cleared before each.

A 5 ms QTimer probe on the loop records how late it fires (longest, p99). "Busy" runs BUSY spinning
processes alongside, as an analyst's laptop running GDAL workers or rendering. With BENCH_STACKS=1 a
sampling thread reads the GUI thread's Python stack every 2 ms while a beat is over 20 ms late and prints
where the long slices were spent (the innermost frames of the plugin's code, and the innermost frame).
Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_layer_loading_stall.py
"""

from __future__ import annotations

import asyncio
import collections
import faulthandler
import json
import os
import signal
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402
from stall_world import Probe, make_tiles, tile_documents  # noqa: E402

import conftest  # noqa: E402,F401 - makes `stacgis_agent` and `testkit` importable

CACHE = HERE.parent / ".build" / "bench-cache" / "layer-loading-stall"
SIZE, PIXEL = 2048, 10.0
ORIGINS = [(600_000.0 + k * SIZE * PIXEL, 5_100_000.0) for k in range(4)]  # four tiles side by side, UTM 31N
LATENCY_MS = int(os.environ.get("BENCH_LATENCY_MS", "20"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
BUSY = int(os.environ.get("BENCH_BUSY", "2"))
GDAL_CONFIG = {"GDAL_DISABLE_READDIR_ON_OPEN": "EMPTY_DIR", "CPL_VSIL_CURL_ALLOWED_EXTENSIONS": ".tif,.vrt",
               "GDAL_HTTP_TIMEOUT": "30"}


def make_files() -> None:
    make_tiles(CACHE, ORIGINS, SIZE, PIXEL)


class SlowCalls:
    """With BENCH_PROFILE=1: sys.setprofile on the GUI thread only; every call (Python or C) that ran over
    15 ms with no child over 15 ms is recorded with its callers: the innermost long slices."""

    def __init__(self) -> None:
        self.enabled = os.environ.get("BENCH_PROFILE") == "1"
        self.stack: list[list] = []
        self.seen: collections.Counter = collections.Counter()
        self.worst: dict[str, float] = {}
        self.imports: collections.Counter = collections.Counter()

    def start(self) -> None:
        if self.enabled:
            sys.setprofile(self._event)

    def stop(self) -> None:
        if self.enabled:
            sys.setprofile(None)

    def _event(self, frame, event, arg) -> None:
        if event == "call" and frame.f_code.co_name == "_find_and_load":
            self.imports[str(frame.f_locals.get("name"))] += 1
        if event in ("call", "c_call"):
            self.stack.append([time.perf_counter(), False, frame, arg if event == "c_call" else None])
        elif event in ("return", "c_return", "c_exception") and self.stack:
            started, child_long, where, cfunc = self.stack.pop()
            took = time.perf_counter() - started
            if took > 0.015:
                if self.stack:
                    self.stack[-1][1] = True
                if not child_long:
                    name = getattr(cfunc, "__qualname__", None) or where.f_code.co_name
                    chain, f = [], where if cfunc is not None else where.f_back
                    while f is not None and len(chain) < 4:
                        chain.append(f"{Path(f.f_code.co_filename).name}:{f.f_lineno} {f.f_code.co_name}")
                        f = f.f_back
                    key = f"{name} ({'C' if cfunc is not None else Path(where.f_code.co_filename).name}) < " + " < ".join(chain)
                    self.seen[key] += 1
                    self.worst[key] = max(self.worst.get(key, 0.0), took * 1000)

    def report(self) -> None:
        if not self.enabled:
            return
        print("innermost calls over 15 ms on the GUI thread (count, worst ms):")
        for where, count in self.seen.most_common(20):
            print(f"  {count:4d} × {self.worst[where]:6.1f} ms  {where}")
        print("modules looked up on the GUI thread during the turns (not found in sys.modules):",
              dict(self.imports.most_common(15)))


class StackSampler:
    """While a beat is over 20 ms late, samples the GUI thread's Python stack every 2 ms. A stall's
    samples are attributed to the plugin's innermost frames (and the innermost frame of all)."""

    def __init__(self, probe: Probe) -> None:
        self.probe = probe
        self.enabled = os.environ.get("BENCH_STACKS") == "1"
        self.seen: collections.Counter = collections.Counter()
        self.main = threading.get_ident()
        self.native = threading.get_native_id()
        self.states: collections.Counter = collections.Counter()

    def _state(self) -> str:
        """R: on a CPU or waiting for one; S with futex_wait: waiting for the interpreter lock; S with poll: idle."""
        try:
            stat = Path(f"/proc/self/task/{self.native}/stat").read_text()
            wchan = Path(f"/proc/self/task/{self.native}/wchan").read_text()
        except OSError:
            return "?"
        return f"{stat.rsplit(')', 1)[1].split()[0]} {wchan or '-'}"

    def start(self) -> None:
        if self.enabled:
            threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        while True:
            time.sleep(0.002)
            if self.probe.timer.isActive() and time.perf_counter() - self.probe.last > 0.02:
                self.states[self._state()] += 1
                frame = sys._current_frames().get(self.main)
                if frame is None:
                    continue
                stack = traceback.extract_stack(frame)
                mine = [f for f in stack if "stacgis" in f.filename or "/wt/" in f.filename or "/main/" in f.filename]
                where = " < ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(mine[-4:]))
                last = stack[-1]
                self.seen[f"{where}  [innermost {Path(last.filename).name}:{last.lineno} {last.name}]"] += 1

    def report(self) -> None:
        if not self.enabled:
            return
        print("where the GUI thread was during beats over 20 ms late (2 ms samples):")
        for where, count in self.seen.most_common(15):
            print(f"  {count:4d} × {where}")
        print("the GUI thread's state in those samples:", dict(self.states.most_common(8)))


def busy_processes(count: int) -> list:
    """Spinning interpreters started fresh (not forked: a fork would keep the servers' sockets open)."""
    import subprocess

    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


class CanvasOnly:
    """What the tools ask of QGIS's interface here: the map canvas."""

    def __init__(self, canvas) -> None:
        self.canvas = canvas

    def mapCanvas(self):
        return self.canvas


def map_window():
    """A map canvas and a layer tree view bound to the project, shown, as in QGIS: adding a layer draws it
    and builds its legend on the GUI thread, as for the analyst."""
    from qgis.core import QgsLayerTreeModel, QgsProject
    from qgis.gui import QgsLayerTreeMapCanvasBridge, QgsLayerTreeView, QgsMapCanvas

    project = QgsProject.instance()
    canvas = QgsMapCanvas()
    canvas.resize(1000, 700)
    canvas.show()
    bridge = QgsLayerTreeMapCanvasBridge(project.layerTreeRoot(), canvas)
    view = QgsLayerTreeView()
    model = QgsLayerTreeModel(project.layerTreeRoot())
    view.setModel(model)
    view.show()
    canvas._keep = (bridge, model)
    return canvas, view


async def one_turn(client) -> None:
    from qgis.core import QgsProject

    calls = [("load_stac_items", {"collection": "bench", "item_ids": ["tile-0", "tile-1"], "asset": "visual"}),
             ("load_stac_asset", {"collection": "bench", "item_id": "tile-2", "asset": "B04"}),
             ("visualize_collection", {"collection": "bench", "asset": "visual", "limit": 4,
                                       "datetime": "2025-09-01/2025-09-30"})]
    for name, args in calls:
        result = await client.call_tool(name, args)
        assert not result.is_error, result.content[0].text
    assert len(QgsProject.instance().mapLayers()) >= 4


async def main(catalog_url: str, work: Path) -> dict[str, list[float]]:
    import httpx
    from mcp import Client
    from osgeo import gdal
    from qgis.core import QgsProject

    from stacgis_agent.agent.config import CatalogConfig, Settings
    from stacgis_agent.tools.deps import ToolDeps
    from stacgis_agent.tools.server import build_server

    canvas, view = map_window()
    probe = Probe()
    sampler = StackSampler(probe)
    sampler.start()
    slow = SlowCalls()
    out: dict[str, list[float]] = {}
    async with httpx.AsyncClient(timeout=30) as http:
        deps = ToolDeps.from_settings(Settings(catalogs=[CatalogConfig(name="bench", url=catalog_url)]),
                                      http=http, work_dir=str(work), project=QgsProject.instance,
                                      iface=lambda: CanvasOnly(canvas))
        async with Client(build_server(deps, canvas=True)) as client:
            await client.call_tool("list_catalogs", {})  # warm the MCP session, not measured
            await one_turn(client)  # warm imports and QGIS's CRS database once, not measured
            for label, busy in (("idle", 0), (f"busy ({BUSY} spinning processes)", BUSY)):
                procs = busy_processes(busy)
                try:
                    lateness: list[float] = []
                    probe.long_beats.clear()
                    probe.cpu_ms.clear()
                    for _ in range(RUNS):
                        QgsProject.instance().removeAllMapLayers()
                        gdal.VSICurlClearCache()
                        slow.start()
                        lateness += (await probe.measure(lambda: one_turn(client)))[0]
                        slow.stop()
                    out[label] = lateness
                    beats = probe.long_beats
                    print(f"{label}: the GUI thread's CPU time per turn (median of {RUNS}): "
                          f"{sorted(probe.cpu_ms)[len(probe.cpu_ms) // 2]:.0f} ms")
                    if beats:
                        print(f"{label}: {len(beats)} beats over 20 ms late, {sum(b[0] for b in beats):.0f} ms late in "
                              f"all; of that interval the GUI thread ran {sum(b[1] for b in beats):.0f} ms on a CPU and "
                              f"waited {sum(b[2] for b in beats):.0f} ms for one")
                finally:
                    for p in procs:
                        p.terminate()
                        p.wait()
    QgsProject.instance().removeAllMapLayers()
    sampler.report()
    slow.report()
    del view
    return out


class CogServerProcess:
    """testkit's CogServer in a process of its own: in this one, its Python would compete with the GUI thread
    for the interpreter, which a COG server across the internet does not."""

    def __init__(self, root: Path, latency_s: float) -> None:
        import subprocess

        code = ("import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); import conftest; "
                "from testkit.servers.cog_server import CogServer; "
                "s = CogServer(Path(sys.argv[2]), latency_s=float(sys.argv[3])).start(); print(s.url, flush=True); "
                "sys.stdin.read(); s.stop()")
        self.proc = subprocess.Popen([sys.executable, "-c", code, str(HERE.parent / "tests"), str(root), str(latency_s)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.url = self.proc.stdout.readline().strip()

    def stop(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(10)


def run() -> int:
    import qasync
    from osgeo import gdal
    from qgis.core import QgsApplication

    from testkit.servers.stac_api import StacApi

    faulthandler.register(signal.SIGUSR1, all_threads=True)  # `kill -USR1 <pid>`: where a hung run waits
    app = QgsApplication([], True)
    app.initQgis()
    for key, value in GDAL_CONFIG.items():
        gdal.SetConfigOption(key, value)
    make_files()
    cogs = CogServerProcess(CACHE, LATENCY_MS / 1000)
    api = StacApi().start()
    collections_, items = tile_documents(cogs.url, ORIGINS, SIZE, PIXEL, cloud_cover=True)
    api.load(collections_, items)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    try:
        results = loop.run_until_complete(main(api.url, Path(tempfile.mkdtemp(prefix="bench-loading-"))))
    finally:
        api.stop()
        cogs.stop()
    print(f"GUI-thread stalls (5 ms probe) during a layer-loading turn (2-tile mosaic, one band, visualize_collection "
          f"of 4 tiles); real STAC API, {SIZE}² px COGs, {LATENCY_MS} ms per HTTP request, {RUNS} turns each")
    print(f"{'':34}{'longest ms':>11}{'p99 ms':>8}{'>50 ms':>8}{'beats':>7}")
    summary = {}
    for label, late in results.items():
        p99 = float(np.percentile(late, 99)) if late else 0.0
        print(f"{label:34}{max(late, default=0):11.1f}{p99:8.1f}{sum(v > 50 for v in late):8d}{len(late):7d}")
        summary[label] = {"longest_ms": round(max(late, default=0), 1), "p99_ms": round(p99, 1)}
    print(json.dumps({"goal_longest_ms": 50, **summary}))
    sys.stdout.flush()
    os._exit(0)  # QGIS's teardown with a canvas and layer tree in a script crashes after the figures; skip it


if __name__ == "__main__":
    sys.exit(run())
