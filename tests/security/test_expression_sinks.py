"""Issue 40, items 2, 9 and 11, against a real QGIS with the plugin's outside endpoint: the official `mcp` client
over HTTP answering "decline" to every question, and a desktop client through the stdio bridge (which cannot ask).

- A filter is code when it reads outside its layer: an SQLite file it would write keeps its sha256, an environment
  variable or a path is not answered yes/no, on both paths; a filter on the layer's own fields just runs.
- An outside client's undo_last_turn undoes only its own calls: the analyst's chat turn and a layout the analyst
  made by hand meanwhile stay, on both paths.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys

import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_types import ElicitResult

from testkit.servers.mcp_calls import package_root


def text(result) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


class Declining:
    """The official SDK over streamable HTTP, answering "decline" to every elicitation."""

    def __init__(self, qgis):
        self.qgis, self.asked = qgis, []

    async def _decline(self, _context, params):
        self.asked.append(params.message)
        return ElicitResult(action="decline")

    async def call(self, tool: str, arguments: dict):
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {self.qgis.token}"}, timeout=60)
        async with Client(streamable_http_client(self.qgis.url, http_client=http),
                          elicitation_callback=self._decline) as client:
            return await client.call_tool(tool, arguments)


class Bridge:
    """A desktop client launching the stdio bridge (no elicitation support)."""

    def __init__(self, qgis):
        self.qgis = qgis

    async def call(self, tool: str, arguments: dict):
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "stacgis_agent.tools.outside.stdio_bridge", "--port", str(self.qgis.port),
                  "--token-file", str(self.qgis.world.profile / "stacgis_mcp_token")],
            env={**os.environ, "PYTHONPATH": package_root()})
        async with Client(params) as client:
            return await client.call_tool(tool, arguments)


def counter(path):
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER)")
        db.execute("INSERT INTO counters VALUES ('k', 1)")
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def test_filters_that_read_or_write_outside_the_layer_never_run_for_a_declining_client(qgis, tmp_path):
    database = tmp_path / "counter.sqlite"
    before = counter(database)
    marker = tmp_path / "exists-marker"
    marker.write_text("x")
    attacks = [f"sqlite_fetch_and_increment('{database}', 'counters', 'value', 'name', 'k', 1) > 0",
               "env('HOME') IS NOT NULL", f"file_exists('{marker}')", "@user_account_name IS NOT NULL"]
    declining, bridge = Declining(qgis), Bridge(qgis)
    for expression in attacks:
        arguments = {"layer": "roads", "expression": expression}
        declined = await declining.call("search_vector_features", arguments)
        assert declined.is_error and "declined" in text(declined), (expression, text(declined))
        assert "roads 0" not in text(declined)  # no yes/no answer: no feature came back
        refused = await bridge.call("search_vector_features", arguments)
        assert refused.is_error and "cannot ask its user" in text(refused), (expression, text(refused))
        assert "roads 0" not in text(refused)
    assert len(declining.asked) == len(attacks)
    assert "as code" in declining.asked[0] and "writes to an SQLite database file" in declining.asked[0]
    assert hashlib.sha256(database.read_bytes()).hexdigest() == before


async def test_a_filter_on_the_layers_own_fields_runs_without_a_question(qgis):
    declining, bridge = Declining(qgis), Bridge(qgis)
    for client in (declining, bridge):
        result = await client.call("search_vector_features", {"layer": "roads",
                                                              "expression": "\"name\" = 'roads 1'"})
        assert not result.is_error, text(result)
        assert [f["attributes"]["name"] for f in result.structured_content["features"]] == ["roads 1"]
    assert declining.asked == []


async def test_an_outside_undo_leaves_the_analysts_turn_and_hand_made_layout(qgis):
    chat = qgis.host.ask("CHAT " + json.dumps([["make_print_layout", {"title": "Analyst page"}]]), timeout=90)
    assert "Analyst page" in qgis.host.layouts(), chat
    for client in (Declining(qgis), Bridge(qgis)):
        styled = await client.call("set_layer_style", {"layer": "roads", "opacity": 0.5})
        assert not styled.is_error, text(styled)
        qgis.host.ask(f"HANDLAYOUT Hand made {type(client).__name__}")
        undone = await client.call("undo_last_turn", {})
        assert not undone.is_error and undone.structured_content["undone"] == ["restyled 'roads'"], text(undone)
        again = await client.call("undo_last_turn", {})
        assert again.is_error and "no earlier change of yours" in text(again), text(again)
    assert {"Analyst page", "Hand made Declining", "Hand made Bridge"} <= set(qgis.host.layouts())
