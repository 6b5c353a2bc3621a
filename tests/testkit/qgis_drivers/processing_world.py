"""A project for the Processing tests: a GeoPackage of roads and a city layer in a fresh project, the
plugin's server over them, and an outside MCP client that declines or accepts every question."""

from __future__ import annotations

import httpx
import pytest
from mcp import Client
from mcp_types import ElicitResult
from qgis.core import QgsProject, QgsVectorLayer

from stacgis_agent.tools.server import build_server
from testkit.qgis_drivers.canvas_layers import city_layer
from testkit.servers.canvas_servers import canvas_deps
from testkit.worlds.gpkg_files import write_gpkg


class Outside:
    """An outside MCP client on the in-process server: with no elicitation, or answering every question."""

    def __init__(self, server, answer: str | None = None):
        self.server, self.answer, self.asked = server, answer, []

    async def _elicit(self, _context, params):
        self.asked.append(params.message)
        if self.answer == "accept":
            return ElicitResult(action="accept", content={"confirm": True})
        return ElicitResult(action="decline")

    async def call(self, algorithm_id: str, parameters: dict, tool: str = "run_processing_algorithm"):
        kwargs = {"elicitation_callback": self._elicit} if self.answer else {}
        async with Client(self.server, **kwargs) as client:
            return await client.call_tool(tool, {"algorithm_id": algorithm_id, "parameters": parameters})


@pytest.fixture
async def world(qgis_iface, qgis_new_project, qgis_processing, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    # in EPSG:4326: QGIS 3.40 gives a table written without a CRS none (3.22 read GDAL's "Undefined geographic SRS")
    roads = QgsVectorLayer(f"{write_gpkg(data / 'roads.gpkg', spacing=1.0, epsg=4326)}|layername=roads", "roads", "ogr")
    assert roads.isValid()
    QgsProject.instance().addMapLayer(roads)
    QgsProject.instance().addMapLayer(city_layer())
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, None, str(tmp_path / "outputs"), qgis_iface)
        yield build_server(deps, canvas=True), data, deps.output_dir()
    QgsProject.instance().removeAllMapLayers()
