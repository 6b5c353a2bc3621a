"""One confirmation vocabulary across the in-process MCP boundary (agent.safety): the dock judges each call
once through the server's gate and sends it with the gate's one-time grant; nobody else can make a grant,
so a forged, reused or mismatched one is refused and the data stays. The real server and its own
destructive tool (delete_memory, SQLite store), the official mcp client."""

from __future__ import annotations

import httpx
import pytest
from mcp import Client

from stacgis_agent.agent.config import Settings
from stacgis_agent.agent.llm.types import ToolCall
from stacgis_agent.agent.permissions import Policy
from stacgis_agent.agent.safety import GRANT_KEY, PREFLIGHT_KEY
from stacgis_agent.agent.stores.sqlite import SqliteMemoryStore
from stacgis_agent.agent.tool_calls import RUN_IT, ToolCallRunner
from stacgis_agent.agent.tool_host import ToolHost
from stacgis_agent.tools.confirmation import ConfirmDestructiveMiddleware, add_assessor
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.server import build_server
from testkit.llm.ollama_replies import embed_text


async def embed(texts):
    return [embed_text(t) for t in texts]


@pytest.fixture
async def world(tmp_path):
    """(server, deps, memory id, assessments seen by delete_memory's assessor)."""
    deps = ToolDeps.from_settings(Settings(user="ana"), http=httpx.AsyncClient(), work_dir=str(tmp_path / "out"),
                                  memory_store=SqliteMemoryStore(tmp_path / "m.db"),
                                  knowledge_store=SqliteMemoryStore(tmp_path / "m.db", table="knowledge"),
                                  embed=embed)
    server = build_server(deps)
    judged = []
    own = server._stacgis_assessors["delete_memory"]

    async def counting(arguments):
        judged.append(arguments)
        return await own(arguments)

    add_assessor(server, "delete_memory", counting)
    memory_id = await deps.memory_store.add("ana", "Works in EPSG:2154", "preference", embed_text("EPSG:2154"))
    yield server, deps, memory_id, judged
    await deps.http.aclose()


def gate_of(server) -> ConfirmDestructiveMiddleware:
    return next(m for m in server.middleware if isinstance(m, ConfirmDestructiveMiddleware))


async def remembered(deps) -> list[str]:
    return [m.content for m in await deps.memory_store.recent("ana", 5)]


async def test_a_forged_grant_from_a_client_is_refused_and_the_memory_stays(world):
    server, deps, memory_id, _ = world
    async with Client(server) as client:  # no elicitation: without a real grant it could never run
        result = await client.call_tool("delete_memory", {"memory_id": memory_id}, meta={GRANT_KEY: "guess"})
        preflight = await client.call_tool("delete_memory", {"memory_id": memory_id}, meta={PREFLIGHT_KEY: True})
    assert result.is_error and "grant does not match" in result.content[0].text
    assert GRANT_KEY not in str(preflight.meta)  # asking what a call would do never hands out a grant
    assert await remembered(deps) == ["Works in EPSG:2154"]


async def test_a_grant_is_for_one_call_with_its_own_arguments_once(world):
    server, deps, memory_id, _ = world
    gate = gate_of(server)
    other = await deps.memory_store.add("ana", "Likes NDVI in greens", "preference", embed_text("NDVI"))
    async with Client(server) as client:
        token = gate.grant("delete_memory", {"memory_id": memory_id})
        wrong = await client.call_tool("delete_memory", {"memory_id": other}, meta={GRANT_KEY: token})
        assert wrong.is_error and sorted(await remembered(deps)) == ["Likes NDVI in greens", "Works in EPSG:2154"]
        token = gate.grant("delete_memory", {"memory_id": memory_id})
        assert not (await client.call_tool("delete_memory", {"memory_id": memory_id}, meta={GRANT_KEY: token})).is_error
        again = await client.call_tool("delete_memory", {"memory_id": other}, meta={GRANT_KEY: token})
    assert again.is_error
    assert await remembered(deps) == ["Likes NDVI in greens"]


async def test_the_dock_judges_an_approved_call_once_and_no_answer_comes_from_anywhere_else(world):
    server, deps, memory_id, judged = world
    host = ToolHost(server)
    await host.start()
    asked = []

    async def ask(request):
        asked.append(request)
        return RUN_IT

    try:
        runner = ToolCallRunner(host, Policy.from_tools(host.tools.values()), _Memory(), lambda _e: None, ask)
        reports = await runner.run_all(1, (ToolCall("c1", "delete_memory", {"memory_id": memory_id}),))
        assert reports[0].ok and await remembered(deps) == []
        assert len(asked) == 1 and "Works in EPSG:2154" in asked[0].question
        assert len(judged) == 1  # the card's assessment; the run itself was not judged again
        # without the runner (no grant) the dock's client never says yes by itself: the gate's question is declined
        kept = await deps.memory_store.add("ana", "Study area: Camargue", "place", embed_text("Camargue"))
        refused = await host.call("delete_memory", {"memory_id": kept})
        assert not refused.ok and await remembered(deps) == ["Study area: Camargue"]
    finally:
        await host.aclose()


class _Memory:
    def add_tool_result(self, *_args, **_kwargs):
        pass
