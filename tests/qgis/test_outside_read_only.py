"""Issue 46.2, outside clients: with "Read only" in Settings ▸ Outside access (ToolDeps.read_only on the outside
endpoint's server) a client is listed only the tools that change nothing, and a call to another is refused with a
sentence before anyone is asked; the layer stays. The dock's own server (not read only) lists them all."""

from __future__ import annotations

import dataclasses

import httpx
from mcp import Client
from qgis.core import QgsProject

from stacgis_agent.tools.server import build_server
from testkit.qgis_drivers.canvas_layers import city_layer
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient


async def _names(server) -> set[str]:
    async with Client(server) as client:
        return {tool.name for tool in (await client.list_tools()).tools}


async def test_a_read_only_outside_client_is_offered_and_runs_only_what_changes_nothing(qgis_iface, qgis_new_project,
                                                                                        tmp_path):
    QgsProject.instance().addMapLayer(city_layer())
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, None, str(tmp_path / "out"), qgis_iface)
        everything = await _names(build_server(deps, canvas=True))
        reading = dataclasses.replace(deps, outside_client=True, read_only=True)
        server = build_server(reading, canvas=True)
        offered = await _names(server)
        assert {"remove_layer", "zoom_to_location", "add_memory"} <= everything
        assert {"get_map_view", "get_layout_view", "search_items"} <= offered
        assert offered & {"remove_layer", "zoom_to_location", "add_memory", "run_processing_algorithm"} == set()
        refused = await OneShotClient(server, user_approves=True).call_tool("remove_layer", {"layer": "cities"})
        assert refused.is_error and "lets outside clients read only" in refused.content[0].text
        assert [layer.name() for layer in QgsProject.instance().mapLayers().values()] == ["cities"]
        looked = await OneShotClient(server).call_tool("get_map_view", {"width": 200})
        assert not looked.is_error, looked.content[0].text
    QgsProject.instance().removeAllMapLayers()


async def test_a_read_only_outside_client_searches_features_and_a_code_filter_is_asked(qgis_iface, qgis_new_project,
                                                                                       tmp_path, monkeypatch):
    """The vector search reads: a read-only client is offered it and a filter on the layer's fields runs; a filter
    that is code still goes through the gate: refused for a client that cannot ask, run only after its user's yes."""
    monkeypatch.setenv("STACGIS_OUTSIDE_SECRET", "yes")
    QgsProject.instance().addMapLayer(city_layer())
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, None, str(tmp_path / "out"), qgis_iface)
        server = build_server(dataclasses.replace(deps, outside_client=True, read_only=True), canvas=True)
        assert "search_vector_features" in await _names(server)
        plain = await OneShotClient(server).call_tool("search_vector_features", {
            "layer": "cities", "expression": "\"population\" > 500000"})
        assert not plain.is_error, plain.content[0].text
        assert sorted(f["attributes"]["name"] for f in plain.structured_content["features"]) == ["Lyon", "Turin"]
        code = {"layer": "cities", "expression": "env('STACGIS_OUTSIDE_SECRET') = 'yes'"}
        refused = await OneShotClient(server).call_tool("search_vector_features", code)
        assert refused.is_error and "cannot ask its user" in refused.content[0].text, refused.content[0].text
        assert "features" not in (refused.structured_content or {})
        approved = await OneShotClient(server, user_approves=True).call_tool("search_vector_features", code)
        assert not approved.is_error, approved.content[0].text
        assert len(approved.structured_content["features"]) == 5  # the analyst's yes runs it, as code
    QgsProject.instance().removeAllMapLayers()
