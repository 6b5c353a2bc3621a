"""A project for the Processing tests: a GeoPackage of roads and a city layer in a fresh project, the
plugin's server over them, and an outside MCP client that declines or accepts every question."""

from __future__ import annotations

import hashlib
from pathlib import Path

import httpx
import pytest
from mcp import Client
from mcp_types import ElicitResult
from osgeo import ogr
from qgis.core import QgsProject, QgsVectorLayer

from stacgis_agent.tools.canvas import family
from stacgis_agent.tools.server import build_server
from testkit.qgis_drivers.canvas_layers import city_layer
from testkit.servers.canvas_servers import canvas_deps


def write_gpkg(path: Path, table: str = "roads", rows: int = 3) -> Path:
    ogr.UseExceptions()  # in this test process only
    source = ogr.GetDriverByName("GPKG").CreateDataSource(str(path))
    layer = source.CreateLayer(table, geom_type=ogr.wkbPoint)
    layer.CreateField(ogr.FieldDefn("name", ogr.OFTString))
    for i in range(rows):
        feature = ogr.Feature(layer.GetLayerDefn())
        feature.SetField("name", f"road {i}")
        feature.SetGeometry(ogr.CreateGeometryFromWkt(f"POINT ({5 + i} 45)"))
        layer.CreateFeature(feature)
    source = None
    return path


def rows_on_disk(path: Path, table: str = "roads") -> int:
    source = ogr.Open(str(path))  # a fresh read of the file, not QGIS's cached layer
    count = source.GetLayerByName(table).GetFeatureCount()
    source = None
    return count


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


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
    roads = QgsVectorLayer(f"{write_gpkg(data / 'roads.gpkg')}|layername=roads", "roads", "ogr")
    assert roads.isValid()
    QgsProject.instance().addMapLayer(roads)
    QgsProject.instance().addMapLayer(city_layer())
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, None, str(tmp_path / "outputs"), qgis_iface)
        yield build_server(deps, extra_families=[family]), data, deps.output_dir()
    QgsProject.instance().removeAllMapLayers()
