"""Security, end to end through the loaded plugin: the outside MCP endpoint (loopback only, token,
Host/Origin, the same confirmation policy), a prompt injection in catalog data, and files written only
where they belong."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from pathlib import Path

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import ElicitResult
from qgis.core import QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest

from stacgis_agent.tools.outside.http_endpoint import load_or_create_token
from stacgis_agent.ui.ask_user_widget import AskUserWidget
from testkit.llm.ollama_emulator import Turn
from testkit.llm.reactive_emulator import tool_messages, tool_results
from testkit.qgis_drivers.analyst_view import chat
from testkit.qgis_drivers.plugin_driver import process_until, send, wait_turn
from testkit.servers.loopback import free_port
from testkit.worlds.e2e_world import INJECTION

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
MCP_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def in_thread(fn):
    """Runs a blocking client call off the main thread while Qt (and the plugin's loop) keeps running."""
    box: dict = {}

    def run():
        try:
            box["value"] = fn()
        except BaseException as exc:  # handed back to the test
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert process_until(lambda: not thread.is_alive(), 30), "the outside client did not finish"
    if "error" in box:
        raise box["error"]
    return box["value"]


@pytest.fixture
def endpoint_plugin(make_plugin, tmp_path):
    port = free_port()
    plugin = make_plugin(mcp_http_enabled="true", mcp_http_port=port)
    assert process_until(lambda: plugin.runtime.endpoint is not None, 10), plugin.dock.status.text()
    token = load_or_create_token(plugin.runtime.profile_dir)
    QgsProject.instance().addMapLayer(QgsVectorLayer("Point?crs=EPSG:4326", "parcels", "memory"))
    return plugin, port, token


def _listening_addresses(port: int) -> set[str]:
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.split(":")
            if int(hex_port, 16) == port and state == "0A":  # LISTEN
                found.add(address)
    return found


def _outside_ip() -> str | None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))  # no packet is sent; this only picks the outward interface
            ip = s.getsockname()[0]
        except OSError:
            return None
    return None if ip.startswith("127.") else ip


def test_the_endpoint_listens_on_loopback_only_and_checks_token_host_and_origin(endpoint_plugin):
    plugin, port, token = endpoint_plugin
    assert _listening_addresses(port) == {"0100007F"}  # 127.0.0.1, and nothing else
    ip = _outside_ip()
    if ip:
        with pytest.raises(OSError):
            socket.create_connection((ip, port), timeout=1).close()

    url = f"http://127.0.0.1:{port}/mcp"
    auth = {"authorization": f"Bearer {token}"}

    def probe():
        with httpx.Client(timeout=10) as http:
            return [http.post(url, json=INIT, headers={**MCP_HEADERS, **h}).status_code for h in (
                {}, {"authorization": "Bearer wrong"}, {**auth, "host": "evil.example"},
                {**auth, "origin": "http://evil.example"}, auth)]

    assert in_thread(probe) == [401, 401, 403, 403, 200]


def _outside_call(url: str, token: str, name: str, arguments: dict, elicitation=None):
    async def go():
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=20)
        kwargs = {"elicitation_callback": elicitation} if elicitation else {}
        async with Client(streamable_http_client(url, http_client=http), **kwargs) as client:
            return await client.call_tool(name, arguments)

    return in_thread(lambda: asyncio.run(go()))


def test_outside_clients_meet_the_same_confirmation_policy(endpoint_plugin):
    plugin, port, token = endpoint_plugin
    url = f"http://127.0.0.1:{port}/mcp"
    layers = lambda: sorted(lyr.name() for lyr in QgsProject.instance().mapLayers().values())  # noqa: E731

    refused = _outside_call(url, token, "remove_layer", {"layer": "parcels"})
    assert refused.is_error and "confirmation" in refused.content[0].text
    assert layers() == ["parcels"]

    async def decline(context, params):
        return ElicitResult(action="decline")

    declined = _outside_call(url, token, "remove_layer", {"layer": "parcels"}, decline)
    assert declined.is_error and "declined" in declined.content[0].text
    assert layers() == ["parcels"]

    asked = []

    async def accept(context, params):
        asked.append(params.message)
        return ElicitResult(action="accept", content={"confirm": True})

    done = _outside_call(url, token, "remove_layer", {"layer": "parcels"}, accept)
    assert not done.is_error and layers() == []
    # the question said what is true for this action, and it is
    assert "The undo_last_turn tool brings it back." in asked[0] and "cannot be undone" not in asked[0]
    undone = _outside_call(url, token, "undo_last_turn", {})
    assert not undone.is_error and layers() == ["parcels"]


def test_a_prompt_injection_in_catalog_data_cannot_remove_layers_without_the_ok(lyon_plugin, emu):
    QgsProject.instance().addMapLayer(QgsVectorLayer("Point?crs=EPSG:4326", "parcels", "memory"))
    # A model that obeys whatever text it reads: it follows the item's description.
    emu.script(Turn(tool_calls=[("get_item", {"collection": "lyon-notes", "item_id": "note-1"})]),
               lambda body: Turn(tool_calls=[("remove_layer", {"layer": "parcels"})])
               if "ignore previous instructions" in tool_messages(body, "get_item")[-1]["content"]
               else Turn(content="no injection seen"),
               Turn(content="I did not remove anything."))
    send(lyon_plugin, "What do the field notes say?")
    conversation = lyon_plugin.runtime.panel.conversation
    assert process_until(lambda: any(isinstance(w, AskUserWidget) for w in conversation.items()), 15), \
        chat(lyon_plugin)
    question = next(w for w in conversation.items() if isinstance(w, AskUserWidget))
    assert question.question.text().startswith("Remove layer 'parcels' (0 features) from the project?")
    assert [lyr.name() for lyr in QgsProject.instance().mapLayers().values()] == ["parcels"]  # nothing yet
    QTest.mouseClick(next(b for b in question.buttons if b.text() == "No"), Qt.MouseButton.LeftButton)
    wait_turn(lyon_plugin)
    assert [lyr.name() for lyr in QgsProject.instance().mapLayers().values()] == ["parcels"]
    item = tool_results(emu.chat_requests()[1], "get_item")[-1]
    assert item["catalog_text"]["properties"]["description"] == INJECTION  # it reached the model, marked as data


def test_an_output_outside_the_plugin_folder_waits_for_the_ok_in_the_dock(qgis_processing, lyon_plugin, emu, tmp_path):
    QgsProject.instance().addMapLayer(QgsVectorLayer("Point?crs=EPSG:4326", "parcels", "memory"))
    outside = tmp_path.parent / "not-the-plugins" / "pwned.gpkg"
    outside = Path("/root/stacgis-e2e-pwned.gpkg") if Path("/root").is_dir() else outside
    emu.script(Turn(tool_calls=[("search_items", {"collections": ["lyon-rgb"]})]),
               Turn(tool_calls=[("run_processing_algorithm", {"algorithm_id": "native:buffer", "parameters": {
                   "INPUT": "parcels", "DISTANCE": 1, "OUTPUT": str(outside)}})]),
               Turn(content="Done."))
    send(lyon_plugin, "Search the scenes and buffer the parcels into a file")
    conversation = lyon_plugin.runtime.panel.conversation
    assert process_until(lambda: any(isinstance(w, AskUserWidget) for w in conversation.items()), 20), \
        chat(lyon_plugin)
    card = next(w for w in conversation.items() if isinstance(w, AskUserWidget))
    assert f"writes output OUTPUT to {outside}, outside the plugin's output folder" in card.details.text()
    assert card.question.text() == "Buffer 'parcels' (0 features) by 1 deg? It cannot be undone."  # issue 27.1
    QTest.mouseClick(next(b for b in card.buttons if b.text() == "No"), Qt.MouseButton.LeftButton)
    wait_turn(lyon_plugin, 30)
    last = emu.chat_requests()[-1]
    saved = Path(tool_results(last, "search_items")[-1]["item_collection_file"])
    assert saved.is_relative_to(lyon_plugin.runtime.profile_dir) and saved.exists()
    refusal = json.loads(tool_messages(last, "run_processing_algorithm")[-1]["content"])["error"]
    assert "did not approve" in refusal
    assert not outside.exists()


def test_truncating_a_real_table_from_the_dock_waits_for_the_ok_and_no_keeps_the_rows(qgis_processing, plugin, emu,
                                                                                     tmp_path):
    from testkit.worlds.gpkg_files import rows_on_disk, write_gpkg

    gpkg = write_gpkg(tmp_path / "roads.gpkg", "roads")
    QgsProject.instance().addMapLayer(QgsVectorLayer(f"{gpkg}|layername=roads", "roads", "ogr"))
    # the tool is only marked "write": the call itself (an in-place algorithm) is what makes it ask
    emu.script(Turn(tool_calls=[("run_processing_algorithm", {"algorithm_id": "native:truncatetable",
                                                              "parameters": {"INPUT": "roads"}})]),
               Turn(content="Left the table alone."))
    send(plugin, "Empty the roads table")
    conversation = plugin.runtime.panel.conversation
    assert process_until(lambda: any(isinstance(w, AskUserWidget) for w in conversation.items()), 20), chat(plugin)
    card = next(w for w in conversation.items() if isinstance(w, AskUserWidget))
    assert f"empties table 'roads' in file {gpkg}" in card.details.text()
    assert rows_on_disk(gpkg, "roads") == 3
    QTest.mouseClick(next(b for b in card.buttons if b.text() == "No"), Qt.MouseButton.LeftButton)
    wait_turn(plugin, 30)
    assert rows_on_disk(gpkg, "roads") == 3

    emu.script(Turn(tool_calls=[("run_processing_algorithm", {"algorithm_id": "native:truncatetable",
                                                              "parameters": {"INPUT": "roads"}})]),
               Turn(content="Emptied."))
    send(plugin, "Yes, empty it")
    assert process_until(lambda: sum(isinstance(w, AskUserWidget) for w in conversation.items()) == 2, 20)
    card = [w for w in conversation.items() if isinstance(w, AskUserWidget)][-1]
    QTest.mouseClick(next(b for b in card.buttons if b.text() == "Yes, run it"), Qt.MouseButton.LeftButton)
    wait_turn(plugin, 30)
    assert rows_on_disk(gpkg, "roads") == 0
