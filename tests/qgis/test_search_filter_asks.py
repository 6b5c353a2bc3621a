"""search_vector_features (issue 40 item 2): a filter that reads only its layer runs at once; one that reads
the environment, files, other layers or writes an SQLite file is code, and runs only once the user said yes."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest
from qgis.core import QgsProject, QgsVectorLayer

from stacgis_agent.agent.config import Settings
from stacgis_agent.agent.llm.types import ToolCall
from stacgis_agent.agent.permissions import Policy
from stacgis_agent.agent.tool_calls import DONT, RUN_IT, ToolCallRunner
from stacgis_agent.agent.tool_host import ToolHost
from stacgis_agent.agent.trust import READ_ONLY, ChatTrust
from stacgis_agent.tools.confirmation import ConfirmDestructiveMiddleware
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.server import build_server
from testkit.servers.mcp_calls import OneShotClient


def text(result) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


@pytest.fixture
def server(qgis_new_project, tmp_path, monkeypatch):
    monkeypatch.setenv("STACGIS_FILTER_SECRET", "yes")
    layer = QgsVectorLayer("Point?crs=EPSG:4326&field=name:string&field=population:integer", "parcels", "memory")
    from qgis.core import QgsFeature

    for name, population in (("Vignes", 120), ("Port", 5400)):
        feature = QgsFeature(layer.fields())
        feature.setAttributes([name, population])
        layer.dataProvider().addFeatures([feature])
    QgsProject.instance().addMapLayer(layer)
    deps = ToolDeps.from_settings(Settings(), project=QgsProject.instance, work_dir=str(tmp_path))
    yield build_server(deps)
    QgsProject.instance().removeAllMapLayers()


def counter_file(path):
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER)")
        db.execute("INSERT INTO counters VALUES ('k', 1)")
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def test_a_filter_on_the_layers_own_fields_runs_without_a_question(server):
    result = await OneShotClient(server).call_tool("search_vector_features", {
        "layer": "parcels", "expression": "\"population\" > 1000 AND upper(\"name\") LIKE 'P%'"})
    assert not result.is_error, text(result)
    assert [f["attributes"]["name"] for f in result.structured_content["features"]] == ["Port"]


async def test_an_environment_oracle_is_not_answered_without_an_ok(server):
    expression = "env('STACGIS_FILTER_SECRET') = 'yes'"
    result = await OneShotClient(server).call_tool("search_vector_features", {"layer": "parcels",
                                                                              "expression": expression})
    assert result.is_error and "cannot ask its user" in text(result), text(result)
    assert "env() reads this computer's environment variables" in text(result)
    assert "Vignes" not in text(result)


async def test_a_filter_that_writes_an_sqlite_file_waits_for_the_ok(server, tmp_path):
    database = tmp_path / "counter.sqlite"
    before = counter_file(database)
    expression = f"sqlite_fetch_and_increment('{database}', 'counters', 'value', 'name', 'k', 1) > 0"
    refused = await OneShotClient(server).call_tool("search_vector_features", {"layer": "parcels",
                                                                               "expression": expression})
    assert refused.is_error and "writes to an SQLite database file" in text(refused), text(refused)
    assert hashlib.sha256(database.read_bytes()).hexdigest() == before
    approved = await OneShotClient(server, user_approves=True).call_tool(
        "search_vector_features", {"layer": "parcels", "expression": expression})
    assert not approved.is_error, text(approved)  # the analyst's yes runs it, as code
    assert hashlib.sha256(database.read_bytes()).hexdigest() != before


async def test_the_card_names_what_the_filter_reaches(server):
    gate = next(m for m in server.middleware if isinstance(m, ConfirmDestructiveMiddleware))
    assessment = await gate.assess("search_vector_features", {
        "layer": "parcels", "expression": "file_exists('/etc/passwd') AND @user_account_name IS NOT NULL"})
    assert assessment.destructive and not assessment.undoable
    assert "file_exists() reads files and folders on this computer" in assessment.effects[0]
    assert "@user_account_name" in assessment.effects[0]
    plain = await gate.assess("search_vector_features", {"layer": "parcels", "expression": "\"population\" > 1"})
    assert not plain.destructive


async def test_a_read_only_chat_runs_a_plain_filter_and_asks_before_a_code_filter(server):
    """The dock's path, in a "Read only" chat: the search is offered (it reads); in one step a filter on the layer's
    fields runs without a card, and one that reads the environment waits for the analyst's answer on the card."""
    host = ToolHost(server)
    await host.start()
    trust = ChatTrust()
    trust.set_level(READ_ONLY)
    try:
        policy = Policy.from_tools(host.tools.values())
        policy.set_state({"qgis", "layer", "vector_layer"})
        assert trust.offers(policy.is_read_only("search_vector_features"))
        step = (ToolCall("plain", "search_vector_features", {"layer": "parcels", "expression": "\"population\" > 1000"}),
                ToolCall("code", "search_vector_features", {"layer": "parcels",
                                                            "expression": "env('STACGIS_FILTER_SECRET') = 'yes'"}))
        for answer, code_ran in ((DONT, False), (RUN_IT, True)):
            asked = []

            async def ask(request, answer=answer, asked=asked):
                asked.append(request)
                return answer

            runner = ToolCallRunner(host, policy, _Memory(), lambda _e: None, ask, trust=trust)
            plain, code = await runner.run_all(1, step)
            assert plain.ok and "Port" in plain.text and "Vignes" not in plain.text, plain.text
            assert len(asked) == 1 and asked[0].request_id == "confirm-code"  # one card, for the code filter only
            assert "env() reads this computer's environment variables" in " ".join(asked[0].details)
            assert code.ok is code_ran and ("Vignes" in code.text) is code_ran, code.text
    finally:
        await host.aclose()


class _Memory:
    def add_tool_result(self, *_args, **_kwargs):
        pass
