"""The project's measurement ellipsoid: set by a tool, used by QGIS's own measures, put back by Undo."""

from __future__ import annotations

import httpx
import pytest
from qgis.core import QgsCoordinateReferenceSystem, QgsProject

from stacgis_agent.tools.server import build_server
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient


@pytest.fixture
async def tools(qgis_iface, qgis_new_project, tmp_path):
    QgsProject.instance().setCrs(QgsCoordinateReferenceSystem("EPSG:3857"))
    QgsProject.instance().setEllipsoid("NONE")
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, None, str(tmp_path), qgis_iface)
        yield OneShotClient(build_server(deps, canvas=True)), deps
    QgsProject.instance().removeAllMapLayers()


async def test_the_ellipsoid_is_set_by_name_and_undone_with_the_turn(tools):
    client, deps = tools
    deps.turn_history.begin_turn("turn-1")
    result = await client.call_tool("set_measurement_ellipsoid", {"ellipsoid": "GRS 1980"})
    deps.turn_history.end_turn()
    assert not result.is_error, result.content[0].text
    assert QgsProject.instance().ellipsoid() == "EPSG:7019"
    assert "GRS 1980" in result.content[0].text and "was none (planar)" in result.content[0].text
    deps.turn_history.undo_last_turn()
    assert QgsProject.instance().ellipsoid() == "NONE"


async def test_an_unknown_ellipsoid_is_refused_with_what_to_give(tools):
    client, _deps = tools
    result = await client.call_tool("set_measurement_ellipsoid", {"ellipsoid": "Flat Earth 2000"})
    assert result.is_error and "WGS 84" in result.content[0].text
    assert QgsProject.instance().ellipsoid() == "NONE"
