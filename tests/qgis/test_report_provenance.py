"""Issue 42.9: someone repeats the analysis from the report's provenance alone and gets the same numbers.

The season statistics of NDVI over the parcels the analyst selected, on partly cloudy Sentinel-2-like tiles whose
SCL asset masks the clouds, through the real tool; the session's report is written as the Sessions tab writes it.
The report must name every item read, the cloud-mask asset and the classes it left out, the layer and the
features the area came from, the dates, the resolution and the options; and the call it prints, run on a project
with nothing selected (the parcels gone), must read the same items and give the same table."""

from __future__ import annotations

import html
import json
import re
import subprocess

import httpx
import pytest
from qgis.core import QgsFeature, QgsGeometry, QgsPointXY, QgsProject, QgsVectorLayer

from stacgis_agent.agent import events as ev
from stacgis_agent.agent.stores.base import SessionInfo, SessionRecord
from stacgis_agent.tools.server import build_server
from stacgis_agent.ui.session_report import write_report
from testkit.servers.canvas_servers import canvas_deps, gdal_test_config
from testkit.servers.cog_server import CogServer
from testkit.servers.mcp_calls import OneShotClient
from testkit.worlds.analyst_world import write_static_catalog
from testkit.worlds.cloudy_world import COLLECTION, make_cloudy_world

DATES = "2024-06-01/2024-06-30"


@pytest.fixture(scope="module")
def cloudy(tmp_path_factory):
    root = tmp_path_factory.mktemp("cloudy")
    with gdal_test_config():
        server = CogServer(root).start()
        try:
            world = make_cloudy_world(root / "cogs", server.url + "/cogs")
            catalog = write_static_catalog(root / "catalog", [world.collection()], world.items)
            yield world, catalog
        finally:
            server.stop()


def _parcels(world) -> QgsVectorLayer:
    """Three parcels inside the area, the first and the third selected."""
    ring = world.area["coordinates"][0]
    west, east = min(p[0] for p in ring), max(p[0] for p in ring)
    south, north = min(p[1] for p in ring), max(p[1] for p in ring)
    layer = QgsVectorLayer("Polygon?crs=EPSG:4326&field=name:string", "client parcels", "memory")
    features = []
    for number, (fx, fy) in enumerate(((0.15, 0.2), (0.45, 0.55), (0.7, 0.3)), start=1):
        x, y = west + (east - west) * fx, south + (north - south) * fy
        w, h = (east - west) * 0.18, (north - south) * 0.3
        feature = QgsFeature(layer.fields())
        feature.setAttributes([f"Parcel {number}"])
        feature.setGeometry(QgsGeometry.fromPolygonXY([[QgsPointXY(x, y), QgsPointXY(x + w, y + h * 0.1),
                                                        QgsPointXY(x + w * 0.8, y + h), QgsPointXY(x, y + h * 0.9)]]))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    QgsProject.instance().addMapLayer(layer)
    ids = sorted(f.id() for f in layer.getFeatures())
    layer.selectByIds([ids[0], ids[2]])
    return layer


def _record(question: str, call: dict, result: dict) -> SessionRecord:
    events = [ev.UserMessage(question), ev.ToolStart(1, "c1", "collection_statistics", call),
              ev.ToolResult(1, "c1", "collection_statistics", result, 900.0),
              ev.Content("Mean NDVI over the two parcels, June 2024: see the table.", is_complete=True),
              ev.Done("s1", "m1", "", 1.0)]
    info = SessionInfo("s1", "default", "Season NDVI of the client's parcels", 0.0, 0.0, 2)
    return SessionRecord(info, {}, [ev.event_to_dict(e) for e in events])


async def test_the_analysis_is_repeated_from_the_reports_provenance_alone(qgis_iface, qgis_new_project, cloudy,
                                                                          tmp_path):
    world, catalog = cloudy
    parcels = _parcels(world)
    selected = sorted(parcels.selectedFeatureIds())
    call = {"collection": COLLECTION, "datetime": DATES, "index": "NDVI", "use_selected_features": True}
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, str(catalog), str(tmp_path / "out"), qgis_iface, kind="static")
        one = OneShotClient(build_server(deps, canvas=True))
        first = await one.call_tool("collection_statistics", call)
        assert not first.is_error, first.content[0].text
        report = write_report(_record("NDVI of my parcels this June?", call, first.structured_content),
                              deps.output_dir(), tmp_path / "report.html")
        page = report.read_text(encoding="utf-8")

        # what the client reads in the report
        read_items = sorted({t for t in re.findall(r"[AB]-2024-06-\d\d", page)})
        assert read_items == sorted(i["id"] for i in world.items), read_items  # every item, by its id
        assert "scl" in page and "0, 1, 3, 8, 9, 10" in page, page  # the mask asset and the classes it left out
        assert "client parcels" in page and ", ".join(str(i) for i in selected) in page
        assert "overviews at" in page or "full resolution" in page  # the resolution read
        assert "mask_clouds" in page and "2024-06-01" in page

        # the call printed in the report, run where nothing is selected and the parcels are gone
        [printed] = re.findall(r"<pre>(.*?)</pre>", page, re.S)
        repeat = json.loads(html.unescape(printed))
        assert repeat["tool"] == "collection_statistics"
        QgsProject.instance().removeMapLayer(parcels.id())
        again = await one.call_tool(repeat["tool"], repeat["arguments"])
        assert not again.is_error, again.content[0].text
    before, after = first.structured_content, again.structured_content
    assert after["item_ids"] == before["item_ids"]
    assert after["rows"] == before["rows"]  # the same numbers, every date, every column
    assert after["provenance"]["cloud_mask"] == before["provenance"]["cloud_mask"]

    pdf = write_report(_record("NDVI of my parcels this June?", call, before), deps.output_dir(), tmp_path / "r.pdf")
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert all(item in text for item in read_items) and "client parcels" in text
