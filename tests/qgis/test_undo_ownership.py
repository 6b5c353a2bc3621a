"""Ownership in the undo history (issue 40 item 9): a change belongs to whoever made it. An outside client's
undo_last_turn undoes only that client's own calls: never the analyst's chat turn, never a layout the analyst
made by hand meanwhile; the dock's own Undo keeps working for the analyst's turns after outside calls."""

from __future__ import annotations

import dataclasses

import httpx
import pytest
from qgis.core import QgsPrintLayout, QgsProject, QgsVectorLayer

from stacgis_agent.tools.canvas.project_access import add_to_project
from stacgis_agent.tools.canvas.undo.turns import ChatTurns
from stacgis_agent.tools.server import build_server
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient


def text(result) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


@pytest.fixture
async def project(qgis_iface, qgis_new_project, tmp_path):
    roads = QgsVectorLayer("LineString?crs=EPSG:4326&field=name:string", "roads", "memory")
    QgsProject.instance().addMapLayer(roads)
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, None, str(tmp_path / "out"), qgis_iface)
        dock = build_server(deps, canvas=True)  # the dock's server makes the one shared history
        outside = build_server(dataclasses.replace(deps, outside_client=True), canvas=True)  # as the plugin does
        yield deps, OneShotClient(outside), roads
    QgsProject.instance().removeAllMapLayers()
    del dock


def names() -> list[str]:
    return sorted(layer.name() for layer in QgsProject.instance().mapLayers().values())


def analyst_turn(deps, message_id: str, layer_name: str) -> QgsVectorLayer:
    """One chat turn of the analyst that adds a layer (what the dock's ChatTurns does around a message)."""
    layer = QgsVectorLayer("Point?crs=EPSG:4326", layer_name, "memory")
    deps.turn_history.begin_turn(message_id, f"add {layer_name}")
    add_to_project(deps, [layer])
    deps.turn_history.end_turn()
    return layer


async def test_an_outside_undo_never_reverts_the_analysts_chat_turn(project):
    deps, outside, roads = project
    analyst_turn(deps, "m1", "mine")
    styled = await outside.call_tool("set_layer_style", {"layer": "roads", "opacity": 0.3})
    assert not styled.is_error, text(styled)
    first = await outside.call_tool("undo_last_turn", {})
    assert not first.is_error and roads.opacity() == 1.0, text(first)  # its own call: undone
    second = await outside.call_tool("undo_last_turn", {})
    assert second.is_error and "no earlier change of yours" in text(second), text(second)
    assert names() == ["mine", "roads"]  # the analyst's turn stands


async def test_an_outside_undo_leaves_a_layout_the_analyst_made_meanwhile(project):
    deps, outside, roads = project
    assert not (await outside.call_tool("set_layer_style", {"layer": "roads", "opacity": 0.5})).is_error
    mine = QgsPrintLayout(QgsProject.instance())  # the analyst, by hand, in the Layout Manager
    mine.initializeDefaults()
    mine.setName("My map")
    QgsProject.instance().layoutManager().addLayout(mine)
    undone = await outside.call_tool("undo_last_turn", {})
    assert not undone.is_error, text(undone)
    assert QgsProject.instance().layoutManager().layoutByName("My map") is not None
    assert roads.opacity() == 1.0
    assert all("print layout" not in row for row in undone.structured_content["undone"])


async def test_an_outside_call_during_the_analysts_turn_is_the_clients_own(project):
    deps, outside, roads = project
    history = deps.turn_history
    history.begin_turn("m2", "add a layer")
    add_to_project(deps, [QgsVectorLayer("Point?crs=EPSG:4326", "mine", "memory")])
    assert not (await outside.call_tool("set_layer_style", {"layer": "roads", "opacity": 0.4})).is_error
    history.end_turn()
    turns = ChatTurns(history)
    outcome = await turns.undo("m2")  # the answer's Undo in the dock
    assert outcome.undone, outcome.message
    assert names() == ["roads"] and roads.opacity() == pytest.approx(0.4)  # the client's change is not the analyst's
    rows = [entry.title for entry in history.entries()]
    assert any("by an outside MCP client" in row for row in rows), rows


async def test_the_docks_undo_still_works_after_an_outside_call(project):
    deps, outside, _roads = project
    analyst_turn(deps, "m3", "mine")
    assert not (await outside.call_tool("set_layer_style", {"layer": "roads", "opacity": 0.7})).is_error
    outcome = await ChatTurns(deps.turn_history).undo("m3")
    assert outcome.undone, outcome.message
    assert names() == ["roads"]
