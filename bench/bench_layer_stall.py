"""Longest main-thread stall while STAC layers load from a remote COG server, side by side:

- "GUI thread": what loading looked like before issue 16 — a QgsRasterLayer opened on `/vsicurl/` on the
  GUI thread and a 2–98 % stretch by the provider's cumulativeCut there (as set_layer_style did);
- "worker": the plugin's tools now — load_stac_items (a two-item true-colour mosaic) and load_stac_asset
  (one band), then set_layer_style with a new ramp: GDAL opens, reads band metadata and samples the stretch
  in a worker thread; QGIS gets a ready source whose reads are already in GDAL's cache.

A QTimer heartbeat at 5 ms on the qasync loop (QGIS offscreen) records how late it fires. The COGs
(2048² px, with overviews, generated once into .build/bench-cache/layer-stall) are served by testkit's
CogServer on loopback with LATENCY_MS per request, like a server across the internet; GDAL's /vsicurl/
cache is cleared before every run. Goal: longest stall under 50 ms on the worker path.
Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_layer_stall.py
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from stall_world import Probe, make_tiles, tile_documents  # noqa: E402

import conftest  # noqa: E402,F401 - makes `stacgis_agent` and `testkit` importable

CACHE = HERE.parent / ".build" / "bench-cache" / "layer-stall"
SIZE, PIXEL = 2048, 10.0
ORIGINS = [(600_000.0, 5_100_000.0), (600_000.0 + SIZE * PIXEL, 5_100_000.0)]  # two tiles side by side, UTM 31N
LATENCY_MS = 40
RUNS = 5
GDAL_CONFIG = {"GDAL_DISABLE_READDIR_ON_OPEN": "EMPTY_DIR", "CPL_VSIL_CURL_ALLOWED_EXTENSIONS": ".tif,.vrt"}


def make_files() -> None:
    make_tiles(CACHE, ORIGINS, SIZE, PIXEL)


def write_catalog(folder: Path, base_url: str) -> Path:
    from testkit.worlds.analyst_world import write_static_catalog

    collections, items = tile_documents(base_url, ORIGINS, SIZE, PIXEL)
    return write_static_catalog(folder, collections, items)


async def gui_thread_path(server) -> None:
    """Before: a bare /vsicurl/ layer per asset, opened and stretched on the GUI thread."""
    from qgis.core import QgsProject, QgsRasterLayer

    layers = []
    for name, bands in [("visual-0.tif", 3), ("visual-1.tif", 3), ("B04-0.tif", 1)]:
        layer = QgsRasterLayer("/vsicurl/" + server.href(name), name, "gdal")
        for band in range(1, bands + 1):
            layer.dataProvider().cumulativeCut(band, 0.02, 0.98, layer.extent(), 250_000)
        layers.append(layer)
        await asyncio.sleep(0)  # one step of the turn, as a tool call would yield
    QgsProject.instance().addMapLayers(layers)


async def worker_path(client) -> None:
    from qgis.core import QgsProject

    for name, args in [("load_stac_items", {"collection": "bench", "item_ids": ["tile-0", "tile-1"], "asset": "visual"}),
                       ("load_stac_asset", {"collection": "bench", "item_id": "tile-0", "asset": "B04"})]:
        result = await client.call_tool(name, args)
        assert not result.is_error, result.content[0].text
    band_layer = next(lyr for lyr in QgsProject.instance().mapLayers().values() if "tile-0" in lyr.name())
    result = await client.call_tool("set_layer_style", {"layer": band_layer.name(), "ramp": "Greys", "band": 1})
    assert not result.is_error, result.content[0].text


async def main(server, catalog: Path, work: Path) -> dict[str, dict[str, float]]:
    import httpx
    from mcp import Client
    from osgeo import gdal
    from qgis.core import QgsProject

    from stacgis_agent.agent.config import CatalogConfig, Settings
    from stacgis_agent.tools.deps import ToolDeps
    from stacgis_agent.tools.server import build_server

    probe = Probe()
    out: dict[str, dict[str, float]] = {}
    async with httpx.AsyncClient() as http:
        deps = ToolDeps.from_settings(Settings(catalogs=[CatalogConfig(name="bench", url=str(catalog), kind="static")]),
                                      http=http, work_dir=str(work), project=QgsProject.instance, iface=lambda: None)
        async with Client(build_server(deps, canvas=True)) as client:
            await client.call_tool("list_catalogs", {})  # warm the MCP session, not measured
            for label, work_fn in (("GUI thread", lambda: gui_thread_path(server)),
                                   ("worker", lambda: worker_path(client))):
                stalls, walls, requests = [], [], []
                for _ in range(RUNS):
                    QgsProject.instance().removeAllMapLayers()
                    gdal.VSICurlClearCache()
                    server.reset_counts()
                    lateness, _ = await probe.measure(work_fn)
                    stalls.append(max(lateness, default=0.0))
                    walls.append(probe.wall_s)
                    requests.append(sum(server.requests.values()))
                out[label] = {"max_stall_ms": statistics.median(stalls), "worst_run_ms": max(stalls),
                              "wall_s": statistics.median(walls), "http_requests": statistics.median(requests)}
    QgsProject.instance().removeAllMapLayers()
    return out


def run() -> int:
    import qasync
    from osgeo import gdal
    from qgis.core import QgsApplication

    from testkit.servers.cog_server import CogServer

    app = QgsApplication([], False)
    app.initQgis()
    for key, value in GDAL_CONFIG.items():
        gdal.SetConfigOption(key, value)
    make_files()
    server = CogServer(CACHE, latency_s=LATENCY_MS / 1000).start()
    work = Path(tempfile.mkdtemp(prefix="bench-layer-stall-"))
    catalog = write_catalog(work / "catalog", server.url)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    try:
        results = loop.run_until_complete(main(server, catalog, work / "out"))
    finally:
        server.stop()
    before, after = results["GUI thread"], results["worker"]
    print(f"loading a 2-item true-colour mosaic + one band + a new stretch; {SIZE}² px COGs, "
          f"{LATENCY_MS} ms per HTTP request, GDAL cache cleared, median of {RUNS} runs")
    print(f"{'':>14} {'GUI thread':>12} {'worker':>12} {'ratio':>8}")
    for key in ("max_stall_ms", "worst_run_ms", "wall_s", "http_requests"):
        a, b = before[key], after[key]
        print(f"{key:>14} {a:12.1f} {b:12.1f} {(a / b if b else float('inf')):8.2f}")
    print(json.dumps({"goal_max_stall_ms": 50, "met": after["max_stall_ms"] < 50}))
    loop.close()
    app.exitQgis()
    return 0


if __name__ == "__main__":
    sys.exit(run())
