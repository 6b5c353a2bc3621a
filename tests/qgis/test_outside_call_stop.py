"""Issue 40.12: the analyst sees what an outside MCP client is running and stops it from the dock. A real client
over the loopback HTTP endpoint (on the plugin's qasync loop) exports a 40-page atlas; the dock's bar names the
call with a Stop; pressing it ends the export between two pages, the client is told the analyst stopped it, no
half-written PDF stays, and the bar goes away."""

from __future__ import annotations

import asyncio
import dataclasses

import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsGeometry,
    QgsProject,
    QgsRectangle,
    QgsVectorLayer,
)
from qgis.PyQt.QtWidgets import QLabel

from stacgis_agent.tools.outside.http_endpoint import McpHttpEndpoint, load_or_create_token
from stacgis_agent.tools.outside.running_calls import OutsideCalls
from stacgis_agent.tools.server import build_server
from stacgis_agent.ui.outside_calls_bar import OutsideCallsBar
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient
from testkit.servers.stac_api import free_port


def _plots(count: int) -> None:
    layer = QgsVectorLayer("Polygon?crs=EPSG:4326&field=name:string", "plots", "memory")
    features = []
    for i in range(count):
        feature = QgsFeature(layer.fields())
        feature.setAttributes([f"Plot {i + 1}"])
        x, y = 4.80 + (i % 10) * 0.004, 45.74 + (i // 10) * 0.004
        feature.setGeometry(QgsGeometry.fromRect(QgsRectangle(x, y, x + 0.002, y + 0.002)))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    QgsProject.instance().addMapLayer(layer)


def test_the_dock_stops_an_outside_clients_atlas_export(qloop, qgis_iface, qgis_new_project, tmp_path):
    QgsProject.instance().setCrs(QgsCoordinateReferenceSystem("EPSG:3857"))
    _plots(40)
    calls = OutsideCalls()
    bar = OutsideCallsBar(calls)
    seen: list[str] = []

    async def scenario():
        async with httpx.AsyncClient() as http:
            deps = canvas_deps(http, None, str(tmp_path / "out"), qgis_iface)
            made = await OneShotClient(build_server(deps, canvas=True)).call_tool(
                "make_atlas", {"layer": "plots", "title": "Plots"})  # the analyst's own atlas, made in the dock
            assert not made.is_error, made.content[0].text
            token = load_or_create_token(tmp_path)
            endpoint = McpHttpEndpoint(dataclasses.replace(deps, outside_client=True), token, free_port(),
                                       canvas=True, calls=calls)
            await endpoint.start()
            try:
                client_http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120)
                async with Client(streamable_http_client(endpoint.url, http_client=client_http)) as client:
                    export = asyncio.ensure_future(client.call_tool("export_print_layout",
                                                                    {"name": "Plots", "dpi": 150}))
                    pdf = deps.output_dir() / "Plots.pdf"
                    for _ in range(3000):  # until the export is writing its pages
                        if pdf.exists() and pdf.stat().st_size > 0 and calls.running():
                            break
                        await asyncio.sleep(0.005)
                    assert not bar.isHidden()
                    seen.extend(label.text() for label in bar.findChildren(QLabel))
                    [stop] = bar.stop_buttons()
                    stop.click()  # the analyst's Stop
                    result = await asyncio.wait_for(export, 30)
                    return result, pdf
            finally:
                await endpoint.stop()

    result, pdf = qloop.run_until_complete(scenario())
    assert result.is_error and "stopped by the analyst" in result.content[0].text, result.content[0].text
    assert not pdf.exists()  # no half-written atlas
    assert any("export_print_layout" in words for words in seen), seen  # the dock named the running call
    assert calls.running() == [] and bar.isHidden()
    QgsProject.instance().layoutManager().clear()
