"""An atlas is written page by page with the event loop handed back between pages: the chat, the canvas and
the Stop button keep running while a long atlas exports (QGIS renders a layout only on its main thread, so
the wait is one page, never the whole atlas)."""

from __future__ import annotations

import asyncio
import subprocess

import httpx
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsGeometry,
    QgsProject,
    QgsRectangle,
    QgsVectorLayer,
)

from stacgis_agent.agent.config import DEMO_CATALOG
from stacgis_agent.tools.server import build_server
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient


def _parcels(n: int) -> QgsVectorLayer:
    layer = QgsVectorLayer("Polygon?crs=EPSG:4326&field=name:string&field=ndvi_mean:double", "parcels", "memory")
    features = []
    for i in range(n):
        feature = QgsFeature(layer.fields())
        feature.setAttributes([f"Parcel {i + 1}", 0.3 + i / 10])
        feature.setGeometry(QgsGeometry.fromRect(QgsRectangle(4.80 + i * 0.02, 45.74, 4.81 + i * 0.02, 45.75)))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    QgsProject.instance().addMapLayer(layer)
    return layer


async def test_the_event_loop_runs_between_the_pages_of_an_atlas_export(qgis_iface, qgis_new_project, tmp_path):
    QgsProject.instance().setCrs(QgsCoordinateReferenceSystem("EPSG:3857"))
    _parcels(4)
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, str(DEMO_CATALOG), str(tmp_path / "out"), qgis_iface)
        one = OneShotClient(build_server(deps, canvas=True))
        made = await one.call_tool("make_atlas", {"layer": "parcels", "title": "NDVI per parcel"})
        assert not made.is_error, made.content[0].text
        layout = QgsProject.instance().layoutManager().layoutByName("NDVI per parcel")
        ticks, seen_at_page = 0, []
        layout.atlas().featureChanged.connect(lambda _feature: seen_at_page.append(ticks))

        async def other_work() -> None:  # what the chat and the canvas do meanwhile
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.001)

        ticker = asyncio.ensure_future(other_work())
        try:
            exported = await one.call_tool("export_print_layout", {"name": "NDVI per parcel", "format": "pdf",
                                                                   "dpi": 72})
        finally:
            ticker.cancel()
        assert not exported.is_error, exported.content[0].text
    pages = [p for p in subprocess.run(["pdftotext", "-layout", exported.structured_content["path"], "-"],
                                       capture_output=True, text=True, check=True).stdout.split("\f") if p.strip()]
    assert [next(n for n in ("Parcel 1", "Parcel 2", "Parcel 3", "Parcel 4") if n in p) for p in pages] == \
        ["Parcel 1", "Parcel 2", "Parcel 3", "Parcel 4"]  # one page each, in order
    export_pages = seen_at_page[:4]  # the export's own four pages (the chat's thumbnail comes after)
    assert all(later > earlier for earlier, later in zip(export_pages, export_pages[1:])), seen_at_page
    QgsProject.instance().layoutManager().clear()
