"""What the GUI-thread stall benches share: the 5 ms probe that measures how late the GUI thread's timer
fires (with how a late beat's interval was spent, from Linux's schedstat), and the tiles of a small UTM 31N
world of true-colour and red-band COGs with their STAC items.

Used by bench_layer_stall.py, bench_layer_loading_stall.py and bench_outside_load.py."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

import numpy as np

PROBE_MS = 5
LONG_BEAT_MS = 20  # a beat later than this is accounted: GUI-thread CPU time vs. waiting for a CPU


def schedstat() -> tuple[int, int]:
    """The calling thread's nanoseconds on a CPU and waiting in the run queue (Linux; zeros elsewhere)."""
    try:
        ran, waited, _ = Path("/proc/thread-self/schedstat").read_text().split()
        return int(ran), int(waited)
    except (OSError, ValueError):
        return 0, 0


class Probe:
    """A 5 ms QTimer on the GUI thread: how late each beat fires is how long the thread was held.
    `long_beats` keeps, for each beat over LONG_BEAT_MS late, (lateness, ms on a CPU, ms waiting for one);
    `cpu_ms` the GUI thread's CPU time per measured piece of work."""

    def __init__(self) -> None:
        from qgis.PyQt.QtCore import QTimer

        self.timer = QTimer()
        self.timer.timeout.connect(self._tick)
        self.lateness: list[float] = []
        self.long_beats: list[tuple[float, float, float]] = []
        self.cpu_ms: list[float] = []
        self.last = 0.0
        self.ran = self.waited = 0
        self.wall_s = 0.0

    def _tick(self) -> None:
        now = time.perf_counter()
        late = max(0.0, (now - self.last) * 1000 - PROBE_MS)
        self.lateness.append(late)
        self.last = now
        ran, waited = schedstat()
        if late > LONG_BEAT_MS:
            self.long_beats.append((late, (ran - self.ran) / 1e6, (waited - self.waited) / 1e6))
        self.ran, self.waited = ran, waited

    async def measure(self, work: Callable[[], Awaitable[Any]]) -> tuple[list[float], Any]:
        """(each beat's lateness in ms, what `work()` returned) while `work()` runs on the loop; `wall_s` is
        set to the work's wall time."""
        self.ran, self.waited = schedstat()
        started_cpu = self.ran
        self.lateness.clear()
        self.last = time.perf_counter()
        self.timer.start(PROBE_MS)
        started = time.perf_counter()
        outcome = await work()
        self.wall_s = time.perf_counter() - started
        await asyncio.sleep(0.05)  # a last beat after the work
        self.timer.stop()
        self.cpu_ms.append((schedstat()[0] - started_cpu) / 1e6)
        return list(self.lateness), outcome


def make_tiles(folder: Path, origins: list[tuple[float, float]], size: int, pixel: float) -> None:
    """`visual-K.tif` (RGB, textured so that blocks are real) and `B04-K.tif` (uint16 red) per origin, in
    EPSG:32631, written once."""
    from testkit.worlds.analyst_world import write_geotiff

    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    y, x = np.mgrid[0:size, 0:size]
    for k, origin in enumerate(origins):
        if not (folder / f"visual-{k}.tif").exists():
            rgb = np.stack([(x // 4 + 30 * k) % 256, (y // 4) % 256, (x + y) // 16 % 256]).astype(np.int16)
            rgb = np.clip(rgb + rng.integers(-12, 12, rgb.shape), 0, 255).astype(np.uint8)
            write_geotiff(folder / f"visual-{k}.tif", rgb, origin, pixel, epsg=32631)
        if not (folder / f"B04-{k}.tif").exists():
            band = (1500 + 800 * np.sin(x / 300) + 500 * np.cos(y / 200) + rng.normal(0, 40, x.shape)).astype(np.uint16)
            write_geotiff(folder / f"B04-{k}.tif", band, origin, pixel, epsg=32631)


def tile_documents(base_url: str, origins: list[tuple[float, float]], size: int, pixel: float,
                   cloud_cover: bool = False) -> tuple[list[dict], list[dict]]:
    """([the collection 'bench'], one STAC 1.1 item 'tile-K' per origin with its 'visual' and 'B04' assets)."""
    from testkit.worlds.analyst_world import _utm_to_lonlat

    items = []
    for k, (west, north) in enumerate(origins):
        bbox = _utm_to_lonlat(32631, [west, west + size * pixel], [north - size * pixel, north])
        ring = [[bbox[0], bbox[1]], [bbox[2], bbox[1]], [bbox[2], bbox[3]], [bbox[0], bbox[3]], [bbox[0], bbox[1]]]
        properties = {"datetime": "2025-09-12T10:30:00Z", "proj:code": "EPSG:32631"}
        if cloud_cover:
            properties["eo:cloud_cover"] = 3 * k
        items.append({
            "type": "Feature", "stac_version": "1.1.0", "id": f"tile-{k}", "collection": "bench", "bbox": bbox,
            "geometry": {"type": "Polygon", "coordinates": [ring]}, "properties": properties,
            "assets": {"visual": {"href": f"{base_url}/visual-{k}.tif", "type": "image/tiff", "roles": ["visual"],
                                  "bands": [{"name": c, "eo:common_name": c} for c in ("red", "green", "blue")]},
                       "B04": {"href": f"{base_url}/B04-{k}.tif", "type": "image/tiff", "roles": ["data"],
                               "bands": [{"name": "B04", "eo:common_name": "red", "nodata": 0,
                                          "raster:scale": 0.0001, "raster:offset": -0.1}]}},
            "links": []})
    west = min(i["bbox"][0] for i in items)
    collection = {"type": "Collection", "stac_version": "1.1.0", "id": "bench", "description": "bench",
                  "license": "CC0-1.0", "links": [],
                  "extent": {"spatial": {"bbox": [[west, 40, 10, 50]]},
                             "temporal": {"interval": [["2025-01-01T00:00:00Z", None]]}}}
    return [collection], items
