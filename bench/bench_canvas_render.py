"""Canvas tools, end to end on a real (offscreen) QGIS: time from the tool call to a rendered map image
for one COG and for a 9-item mosaic over loopback HTTP, and footprints of 1,000 items as one layer in a
group. Each is printed next to what a naive plugin does (a bare QgsRasterLayer per item, one vector layer
per footprint), as a ratio. COGs are generated once into .build/bench-cache/canvas.
Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_canvas_render.py
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import httpx  # noqa: E402
import numpy as np  # noqa: E402
from mcp import Client  # noqa: E402
from osgeo import gdal  # noqa: E402
from qgis.core import (  # noqa: E402
    QgsApplication,
    QgsFeature,
    QgsGeometry,
    QgsProject,
    QgsRasterLayer,
    QgsRectangle,
    QgsVectorLayer,
)
from qgis.gui import QgsMapCanvas  # noqa: E402
from qgis.PyQt.QtCore import QEvent, QSize, QThreadPool  # noqa: E402
from qgis.PyQt.QtWidgets import QMainWindow  # noqa: E402

import conftest  # noqa: E402,F401 - makes `stacgis_agent` and `testkit` importable
from testkit.servers.cog_server import CogServer  # noqa: E402
from testkit.worlds.cogs import write_cog  # noqa: E402

CACHE = HERE.parent / ".build" / "bench-cache" / "canvas"
WEST, NORTH = 6.0, 45.5
BIG, BIG_PIXEL = 4096, 0.0001  # one 4096² float COG
TILE, TILE_PIXEL = 1024, 0.0001  # nine 1024² tiles in a 3×3 grid
FOOTPRINTS = 1000
NAIVE_FOOTPRINTS = 200  # one layer per item grows worse than linearly; 1,000 would take over a minute


class Iface:
    def __init__(self) -> None:
        self.window = QMainWindow()
        self.canvas = QgsMapCanvas(self.window)
        self.canvas.resize(QSize(800, 600))
        QgsProject.instance().layerTreeRoot().layerOrderChanged.connect(self._sync)
        QgsProject.instance().layersAdded.connect(self._sync)

    def _sync(self, *_args) -> None:
        self.canvas.setLayers([n.layer() for n in QgsProject.instance().layerTreeRoot().findLayers() if n.layer()])

    def mapCanvas(self):  # noqa: N802 - QGIS's iface API
        return self.canvas

    def mainWindow(self):  # noqa: N802
        return self.window


def surface(rows: int, cols: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:rows, 0:cols].astype(np.float32)
    return (300 + 200 * np.sin(x / cols * 3) + 150 * np.cos(y / rows * 2) + rng.normal(0, 3, (rows, cols))).astype(np.float32)


def make_data(base_url: str) -> list[dict]:
    items = []

    def item(item_id: str, name: str, west: float, north: float, size: int, pixel: float) -> dict:
        path = CACHE / name
        if not path.exists():
            write_cog(path, surface(size, size, len(items)), origin=(west, north), pixel_size=pixel, nodata=-9999.0,
                      blocksize=512)
        b = [west, north - size * pixel, west + size * pixel, north]
        return {"type": "Feature", "stac_version": "1.0.0", "id": item_id, "collection": "bench",
                "geometry": {"type": "Polygon", "coordinates": [[[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]], [b[0], b[1]]]]},
                "bbox": b, "properties": {"datetime": "2024-06-01T00:00:00Z", "proj:epsg": 4326},
                "assets": {"elevation": {"href": f"{base_url}/{name}", "type": "image/tiff; application=geotiff",
                                         "roles": ["data"], "raster:bands": [{"nodata": -9999.0}]}}, "links": []}

    items.append(item("big", "big.tif", WEST, NORTH, BIG, BIG_PIXEL))
    for r in range(3):
        for c in range(3):
            items.append(item(f"tile-{r}{c}", f"tile-{r}{c}.tif", WEST + c * TILE * TILE_PIXEL,
                              NORTH - r * TILE * TILE_PIXEL, TILE, TILE_PIXEL))
    return items


def write_catalog(folder: Path, items: list[dict]) -> Path:
    (folder / "bench").mkdir(parents=True, exist_ok=True)
    for it in items:
        (folder / "bench" / f"{it['id']}.json").write_text(json.dumps(it))
    collection = {"type": "Collection", "stac_version": "1.0.0", "id": "bench", "description": "bench", "license": "CC0-1.0",
                  "extent": {"spatial": {"bbox": [[5, 44, 8, 46]]}, "temporal": {"interval": [["2024-01-01T00:00:00Z", None]]}},
                  "links": [{"rel": "item", "href": f"./{it['id']}.json"} for it in items]}
    (folder / "bench" / "collection.json").write_text(json.dumps(collection))
    catalog = {"type": "Catalog", "stac_version": "1.0.0", "id": "c", "description": "bench",
               "links": [{"rel": "child", "href": "./bench/collection.json"}]}
    (folder / "catalog.json").write_text(json.dumps(catalog))
    return folder / "catalog.json"


async def render(canvas, layers) -> float:
    from stacgis_agent.tools.canvas.map_view import render_canvas

    extent = QgsRectangle()
    for layer in layers:
        extent.combineExtentWith(layer.extent())
    canvas.setLayers(layers)
    canvas.setExtent(extent)
    start = time.perf_counter()
    image = await render_canvas(canvas, 800)
    assert not image.isNull()
    return time.perf_counter() - start


async def via_tool(client, iface, name: str, args: dict) -> tuple[float, int]:
    QgsProject.instance().removeAllMapLayers()
    gdal.VSICurlClearCache()
    start = time.perf_counter()
    result = await client.call_tool(name, args)
    assert not result.is_error, result.content[0].text
    rasters = [lyr for lyr in QgsProject.instance().mapLayers().values() if isinstance(lyr, QgsRasterLayer)]
    await render(iface.canvas, rasters)
    return time.perf_counter() - start, len(rasters)


async def naive(iface, server: CogServer, names: list[str]) -> tuple[float, int]:
    QgsProject.instance().removeAllMapLayers()
    gdal.VSICurlClearCache()
    start = time.perf_counter()
    layers = [QgsRasterLayer("/vsicurl/" + server.href(n), n, "gdal") for n in names]
    QgsProject.instance().addMapLayers(layers)
    await render(iface.canvas, layers)
    return time.perf_counter() - start, len(layers)


def footprint_items(n: int) -> list[dict]:
    out = []
    for i in range(n):
        x, y = 5 + (i % 40) * 0.05, 44 + (i // 40) * 0.05
        out.append({"type": "Feature", "id": f"fp-{i:04d}", "collection": "bench",
                    "geometry": {"type": "Polygon", "coordinates": [[[x, y], [x + .04, y], [x + .04, y + .04], [x, y + .04], [x, y]]]},
                    "properties": {"datetime": "2024-06-01T00:00:00Z", "eo:cloud_cover": i % 100}, "assets": {}, "links": []})
    return out


def footprints_per_item(items: list[dict]) -> float:
    QgsProject.instance().removeAllMapLayers()
    start = time.perf_counter()
    group = QgsProject.instance().layerTreeRoot().insertGroup(0, "naive")
    for it in items:
        layer = QgsVectorLayer("Polygon?crs=EPSG:4326&field=item_id:string", it["id"], "memory")
        f = QgsFeature(layer.fields())
        f.setAttributes([it["id"]])
        f.setGeometry(QgsGeometry.fromJson(json.dumps(it["geometry"])) if hasattr(QgsGeometry, "fromJson") else
                      QgsGeometry.fromWkt(_wkt(it["geometry"])))
        layer.dataProvider().addFeatures([f])
        QgsProject.instance().addMapLayer(layer, False)
        group.addLayer(layer)
    return time.perf_counter() - start


def _wkt(geometry: dict) -> str:
    ring = ", ".join(f"{x} {y}" for x, y in geometry["coordinates"][0])
    return f"POLYGON(({ring}))"


async def main() -> None:
    from stacgis_agent.agent.config import CatalogConfig, Settings
    from stacgis_agent.tools.canvas.layers.footprints import footprints_layer
    from stacgis_agent.tools.canvas.project_access import add_to_project
    from stacgis_agent.tools.deps import ToolDeps
    from stacgis_agent.tools.server import build_server

    CACHE.mkdir(parents=True, exist_ok=True)
    for key, value in {"GDAL_DISABLE_READDIR_ON_OPEN": "EMPTY_DIR", "CPL_VSIL_CURL_ALLOWED_EXTENSIONS": ".tif"}.items():
        gdal.SetConfigOption(key, value)
    server = CogServer(CACHE).start()
    iface = Iface()
    work = Path(tempfile.mkdtemp(prefix="bench-canvas-"))
    try:
        items = make_data(server.url)
        catalog = write_catalog(work / "catalog", items)
        async with httpx.AsyncClient() as http:
            deps = ToolDeps.from_settings(Settings(catalogs=[CatalogConfig(name="b", url=str(catalog), kind="static")]),
                                          http=http, work_dir=str(work / "out"), project=QgsProject.instance,
                                          iface=lambda: iface)
            async with Client(build_server(deps, canvas=True)) as client:
                one_tool = await via_tool(client, iface, "load_stac_asset", {"collection": "bench", "item_id": "big"})
                tiles = [it["id"] for it in items[1:]]
                mosaic_tool = await via_tool(client, iface, "load_stac_items", {"collection": "bench", "item_ids": tiles})
            one_naive = await naive(iface, server, ["big.tif"])
            mosaic_naive = await naive(iface, server, [f"{t}.tif" for t in tiles])
            fps = footprint_items(FOOTPRINTS)
            QgsProject.instance().removeAllMapLayers()
            start = time.perf_counter()
            add_to_project(deps, [footprints_layer(fps, work, "footprints")], "bench footprints")
            one_layer = time.perf_counter() - start
            per_item = footprints_per_item(fps[:NAIVE_FOOTPRINTS])
    finally:
        QgsProject.instance().removeAllMapLayers()
        server.stop()
        _dispose(iface)
    print("tool call → rendered 800 px canvas image, loopback HTTP, GDAL cache cleared before each run")
    print(f"{'case':<34} {'layers':>6} {'seconds':>8} {'ratio':>6}")
    for label, (seconds, count), base in (
            (f"one COG {BIG}² via load_stac_asset", one_tool, one_naive[0]),
            ("one COG as bare QgsRasterLayer", one_naive, one_naive[0]),
            ("9 tiles via load_stac_items (VRT)", mosaic_tool, mosaic_naive[0]),
            ("9 tiles as 9 bare layers", mosaic_naive, mosaic_naive[0])):
        print(f"{label:<34} {count:>6} {seconds:>8.2f} {seconds / base:>6.2f}")
    print(f"{FOOTPRINTS} footprints as one layer in a group: {one_layer:.3f} s "
          f"({1000 * one_layer / FOOTPRINTS:.2f} ms per footprint)")
    print(f"{NAIVE_FOOTPRINTS} footprints as one layer each: {per_item:.2f} s ({1000 * per_item / NAIVE_FOOTPRINTS:.1f} ms per "
          f"footprint; ratio per footprint {(per_item / NAIVE_FOOTPRINTS) / (one_layer / FOOTPRINTS):.0f}×)")


def _dispose(iface: Iface) -> None:
    """Render jobs still alive at exitQgis crash QGIS: stop them and delete the canvas first."""
    QgsProject.instance().layerTreeRoot().layerOrderChanged.disconnect(iface._sync)
    QgsProject.instance().layersAdded.disconnect(iface._sync)
    iface.canvas.stopRendering()
    iface.window.deleteLater()
    for _ in range(3):
        QgsApplication.processEvents()
        QgsApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    QThreadPool.globalInstance().waitForDone()
    QgsApplication.processEvents()


if __name__ == "__main__":
    app = QgsApplication([], True)
    app.initQgis()
    asyncio.run(main())
    app.exitQgis()
