"""Print layouts: what the analyst waits for, on a real (offscreen) QGIS with the shipped demo catalog.
Times make_print_layout, a one-page PDF export and a 10-page atlas (one page per parcel) through the
real MCP tools, next to QGIS's own exporter on the same layout (QgsLayoutExporter, no tool around it),
as a ratio: the tool's overhead over what QGIS itself spends rendering. A 5 ms probe on the event loop
(the GUI thread's loop in QGIS) records the longest stall of each: the tool writes an atlas page by page
and hands the loop back between pages, QGIS's exporter writes it in one call.
Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_layouts.py
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
from mcp import Client  # noqa: E402
from qgis.core import (  # noqa: E402
    QgsApplication,
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsGeometry,
    QgsLayoutExporter,
    QgsProject,
    QgsRectangle,
    QgsVectorLayer,
)

import conftest  # noqa: E402,F401 - makes `stacgis_agent` and `testkit` importable

BBOX = [4.79, 45.73, 4.88, 45.79]
PROBE_S = 0.005


class StallProbe:
    """The longest time the event loop could not run a 5 ms timer, while `with probe:` runs."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._task = None

    async def _tick(self) -> None:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(PROBE_S)
            self.longest = max(self.longest, time.perf_counter() - started - PROBE_S)

    async def __aenter__(self):
        self.longest = 0.0
        self._task = asyncio.ensure_future(self._tick())
        await asyncio.sleep(0)
        return self

    async def __aexit__(self, *exc):
        await asyncio.sleep(PROBE_S * 2)  # the stall of the last step is measured when the loop runs again
        self._task.cancel()


class _Iface:
    def __init__(self, canvas):
        self._canvas = canvas

    def mapCanvas(self):  # noqa: N802 - QGIS's name
        return self._canvas


def _parcels(n: int) -> QgsVectorLayer:
    layer = QgsVectorLayer("Polygon?crs=EPSG:4326&field=name:string&field=ndvi_mean:double", "parcels", "memory")
    features = []
    for i in range(n):
        feature = QgsFeature(layer.fields())
        feature.setAttributes([f"parcel {i + 1}", 0.3 + i / 50])
        x = 4.80 + (i % 5) * 0.014
        y = 45.74 + (i // 5) * 0.02
        feature.setGeometry(QgsGeometry.fromRect(QgsRectangle(x, y, x + 0.01, y + 0.012)))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    return layer


async def main() -> None:
    from qgis.gui import QgsMapCanvas

    from stacgis_agent.agent.config import DEMO_CATALOG
    from stacgis_agent.tools.server import build_server
    from testkit.servers.canvas_servers import canvas_deps

    project = QgsProject.instance()
    project.setCrs(QgsCoordinateReferenceSystem("EPSG:3857"))
    canvas = QgsMapCanvas()
    out = Path(tempfile.mkdtemp(prefix="bench-layouts-"))
    async with httpx.AsyncClient() as http:
        server = build_server(canvas_deps(http, str(DEMO_CATALOG), str(out), _Iface(canvas)), canvas=True)

        probe = StallProbe()

        async def call(name: str, args: dict) -> tuple[float, dict]:
            async with Client(server) as session:
                started = time.perf_counter()
                async with probe:
                    result = await session.call_tool(name, args)
            if result.is_error:
                raise SystemExit(f"{name} failed: {result.content[0].text}")
            return time.perf_counter() - started, result.structured_content

        await call("load_stac_asset", {"collection": "demo-ndvi", "item_id": "demo-ndvi-2025-06-15"})
        project.addMapLayer(_parcels(10))
        made_s, made = await call("make_print_layout", {"title": "NDVI over Lyon", "bbox": BBOX})
        pdf_s, _ = await call("export_print_layout", {"name": made["layout"], "format": "pdf", "dpi": 150})
        layout = project.layoutManager().layoutByName(made["layout"])
        started = time.perf_counter()
        QgsLayoutExporter(layout).exportToPdf(str(out / "bare.pdf"), QgsLayoutExporter.PdfExportSettings())
        bare_pdf_s = time.perf_counter() - started
        atlas_make_s, atlas = await call("make_atlas", {"layer": "parcels", "title": "NDVI per parcel"})
        atlas_s, _ = await call("export_print_layout", {"name": atlas["layout"], "format": "pdf", "dpi": 150})
        atlas_stall = probe.longest
        atlas_layout = project.layoutManager().layoutByName(atlas["layout"])
        settings = QgsLayoutExporter.PdfExportSettings()
        settings.dpi = 150
        async with probe:
            started = time.perf_counter()
            QgsLayoutExporter.exportToPdf(atlas_layout.atlas(), str(out / "bare-atlas.pdf"), settings)
            bare_atlas_s = time.perf_counter() - started
        bare_stall = probe.longest
    print(f"make_print_layout (one A4 page, legend fitted)      {made_s:6.2f} s")
    print(f"export one page to PDF at 150 dpi: tool {pdf_s:6.2f} s | QGIS's exporter {bare_pdf_s:6.2f} s | "
          f"ratio {pdf_s / max(bare_pdf_s, 1e-6):.2f}x")
    print(f"make_atlas (10 parcels)                              {atlas_make_s:6.2f} s")
    print(f"export the 10-page atlas at 150 dpi: tool {atlas_s:6.2f} s ({atlas_s / 10:.2f} s a page) | "
          f"QGIS's exporter {bare_atlas_s:6.2f} s | ratio {atlas_s / max(bare_atlas_s, 1e-6):.2f}x")
    print(f"longest event-loop stall in the atlas export: tool {atlas_stall * 1000:6.0f} ms | QGIS's exporter "
          f"{bare_stall * 1000:6.0f} ms | ratio {atlas_stall / max(bare_stall, 1e-6):.2f}x")


if __name__ == "__main__":
    app = QgsApplication([], False)
    app.initQgis()
    asyncio.run(main())
