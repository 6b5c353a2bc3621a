"""Every destructive tool's confirmation card says, in words read from the real state, what will happen
(issue 27 item 1): the layer by name with its feature count and where its data lives, the remembered text
that would be forgotten, and whether the chat's Undo really brings it back."""

from __future__ import annotations

import httpx
import pytest
from mcp import Client
from mcp_types import ElicitResult
from qgis.core import QgsProject, QgsVectorLayer

from stacgis_agent.agent.llm.types import ToolCall
from stacgis_agent.agent.permissions import Policy
from stacgis_agent.agent.safety import Safety, tool_safety
from stacgis_agent.agent.stores.sqlite import SqliteMemoryStore
from stacgis_agent.agent.tool_calls import ToolCallRunner, confirmation_request
from stacgis_agent.agent.tool_host import ToolHost
from stacgis_agent.tools.canvas.housekeeping import assess_removal, layer_words
from stacgis_agent.tools.server import TOOL_FAMILIES, build_server
from testkit.llm.ollama_replies import embed_text
from testkit.qgis_drivers.canvas_layers import city_layer, dem_layer
from testkit.servers.canvas_servers import canvas_deps
from testkit.worlds.gpkg_files import write_gpkg


async def embed(texts):
    return [embed_text(t) for t in texts]


@pytest.fixture
async def dock(qgis_iface, qgis_new_project, tmp_path):
    """The dock's own path: the server with every tool family, reached through ToolHost as the chat does."""
    store = SqliteMemoryStore(tmp_path / "memory.db")
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, None, str(tmp_path / "out"), qgis_iface)
        deps.memory_store, deps.embed = store, embed
        server = build_server(deps, canvas=True)
        host = ToolHost(server)
        await host.start()
        try:
            yield deps, server, host
        finally:
            await host.aclose()
            QgsProject.instance().removeAllMapLayers()
            await store.aclose()


async def card(host: ToolHost, *calls: tuple[str, dict]):
    """The card the dock shows for these calls of one step, judged by the server as in a real turn."""
    runner = ToolCallRunner(host, Policy.from_tools(host.tools.values()), None, lambda _e: None, None)
    tool_calls = [ToolCall(f"c{i}", name, args) for i, (name, args) in enumerate(calls)]
    judged = [(call, (await runner._effects(call))[0]) for call in tool_calls]
    assert all(effects.destructive for _, effects in judged)
    return confirmation_request("c0", judged)


async def test_every_destructive_tool_of_every_family_has_an_assessor(dock):
    _, server, _ = dock
    assert len(TOOL_FAMILIES) >= 10  # the server above was built from all of them and the canvas family
    tools = await server.list_tools()
    judged_by_annotation_only = {t.name for t in tools
                                 if (t.annotations is None or tool_safety(t) is Safety.DESTRUCTIVE)
                                 and t.name not in server._stacgis_assessors}
    assert judged_by_annotation_only == set(), "a destructive tool without an assessor shows a card without words"
    assert {"remove_layer", "delete_memory", "run_processing_algorithm_to_files"} <= set(server._stacgis_assessors)


async def test_every_read_with_an_assessor_is_judged_per_call_so_the_dock_asks_for_it(dock):
    """A reading tool whose call may be code (its assessor can say "destructive") must be marked judged: the dock
    judges only those calls before running them, and an unjudged one would be refused by the gate with no card."""
    _, server, host = dock
    policy = Policy.from_tools(host.tools.values())
    assessed_reads = {t.name for t in await server.list_tools()
                      if tool_safety(t) is Safety.READ and t.name in server._stacgis_assessors}
    assert "search_vector_features" in assessed_reads  # offered to read-only chats and clients
    assert {name for name in assessed_reads if not policy.is_judged(name)} == set()
    assert {name for name, rule in policy.rules.items() if rule.safety is Safety.READ and rule.judged} == assessed_reads


async def test_removing_a_memory_layer_names_it_with_its_features_and_undo_really_brings_it_back(dock):
    deps, _, host = dock
    QgsProject.instance().addMapLayer(city_layer())
    ask = await card(host, ("remove_layer", {"layer": "cities"}))
    assert ask.question == "Remove layer 'cities' (5 features) from the project? Undo in the chat brings it back."
    assert ask.details == ("takes layer 'cities' (5 features) off the map and out of the Layers panel",
                           "'cities' is a memory layer: its features are in no file, so only the chat's Undo can "
                           "bring them back")
    assert [lyr.name() for lyr in QgsProject.instance().mapLayers().values()] == ["cities"]  # judging ran nothing

    deps.turn_history.begin_turn("turn-1")
    assert (await host.call("remove_layer", {"layer": "cities"}, cleared=True)).ok
    deps.turn_history.end_turn()
    assert QgsProject.instance().mapLayersByName("cities") == []
    assert (await host.call("undo_last_turn", {})).ok  # what the card promised
    assert [lyr.featureCount() for lyr in QgsProject.instance().mapLayersByName("cities")] == [5]


async def test_removing_a_file_layer_or_a_raster_says_where_its_data_stays(dock, tmp_path):
    _, _, host = dock
    gpkg = write_gpkg(tmp_path / "roads.gpkg", "roads")
    QgsProject.instance().addMapLayers([QgsVectorLayer(f"{gpkg}|layername=roads", "roads", "ogr"),
                                        dem_layer(tmp_path)])
    roads = await card(host, ("remove_layer", {"layer": "ROADS"}))  # matched as the tool matches it
    assert roads.question == "Remove layer 'roads' (3 features) from the project? Undo in the chat brings it back."
    assert roads.details[1] == f"its data ({gpkg}|layername=roads) is not changed or deleted"
    dem = await card(host, ("remove_layer", {"layer": "dem"}))
    assert dem.question == "Remove layer 'dem' (raster) from the project? Undo in the chat brings it back."
    assert dem.details[1] == f"its data ({tmp_path / 'dem.tif'}) is not changed or deleted"


def test_a_layer_whose_count_would_be_a_server_query_is_named_by_its_provider(qgis_app):
    virtual = QgsVectorLayer("?query=SELECT 1 AS one", "sums", "virtual")
    assert virtual.isValid()
    assert layer_words(virtual) == "'sums' (virtual layer)"  # no query runs on the GUI thread for the card


async def test_a_layer_that_is_gone_is_said_to_be_gone_and_a_broken_project_does_not_stop_the_card(dock):
    _, _, host = dock
    QgsProject.instance().addMapLayer(city_layer())
    ask = await card(host, ("remove_layer", {"layer": "parcels"}))
    assert ask.question.startswith("Remove 'parcels', a layer that is no longer in the project?")
    assert ask.details == ("no layer named 'parcels' is in the project now (it holds 'cities'), so nothing would "
                           "be removed",)

    class Broken:
        def mapLayers(self):  # noqa: N802 - QgsProject's name
            raise RuntimeError("project is closing")

    broken = assess_removal(Broken(), "cities")
    assert broken.destructive and broken.action == "Remove layer 'cities' from the project"
    assert broken.effects == ("removes layer 'cities' from the project; its current state could not be read "
                              "(project is closing)",)


async def test_forgetting_a_memory_quotes_it_and_says_it_cannot_be_undone(dock):
    deps, _, host = dock
    memory_id = await deps.memory_store.add(deps.settings.user, "Study area: Camargue", "place",
                                            embed_text("Study area: Camargue"))
    ask = await card(host, ("delete_memory", {"memory_id": memory_id}))
    assert ask.question == "Forget the remembered place 'Study area: Camargue'? It cannot be undone."
    assert len(ask.details) == 1 and ask.details[0].startswith("deletes for good the place 'Study area: Camargue', saved ")
    assert f"(memory '{memory_id}'); later chats no longer recall it" in ask.details[0]
    gone = await card(host, ("delete_memory", {"memory_id": "no-such-id"}))
    assert gone.question == "Forget a memory that is not in the store? It cannot be undone."
    assert gone.details == (f"no memory with id 'no-such-id' is stored for user '{deps.settings.user}', so nothing "
                            "would be deleted",)
    assert [h.id for h in await deps.memory_store.recent(deps.settings.user)] == [memory_id]


async def test_one_step_with_a_layer_and_a_memory_lists_both_and_says_which_undo_covers(dock):
    deps, _, host = dock
    QgsProject.instance().addMapLayer(city_layer())
    memory_id = await deps.memory_store.add(deps.settings.user, "Prefers green ramps", "preference",
                                            embed_text("Prefers green ramps"))
    ask = await card(host, ("remove_layer", {"layer": "cities"}), ("delete_memory", {"memory_id": memory_id}))
    assert ask.question == ("Run these 2 actions? Map changes can be undone in the chat; changes to files and "
                            "stores cannot.")
    assert "Remove layer 'cities' (5 features) from the project:" in ask.details
    assert "Forget the remembered preference 'Prefers green ramps':" in ask.details


async def test_an_outside_client_is_asked_the_same_words(dock):
    _, server, _ = dock
    QgsProject.instance().addMapLayer(city_layer())
    asked = []

    async def decline(_context, params):
        asked.append(params.message)
        return ElicitResult(action="decline")

    async with Client(server, elicitation_callback=decline) as client:
        result = await client.call_tool("remove_layer", {"layer": "cities"})
    assert result.is_error and "declined" in result.content[0].text
    assert asked[0].splitlines() == [
        "The assistant wants to run an action that changes data:",
        "Remove layer 'cities' (5 features) from the project:",
        "• takes layer 'cities' (5 features) off the map and out of the Layers panel",
        "• 'cities' is a memory layer: its features are in no file, so only the chat's Undo can bring them back",
        "The undo_last_turn tool brings it back."]
    assert QgsProject.instance().mapLayersByName("cities") != []
