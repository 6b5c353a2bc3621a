"""Long analyses as MCP tasks (the tasks extension of the 2026-07-28 protocol) on the outside endpoint, over real
HTTP with the official mcp client: a client that declares the extension gets a task handle for
collection_statistics at once, polls tasks/get to the same rows as a plain call, cancels a task and its reads
stop; no other client sees or cancels its tasks; and tasks count in the per-client limit on long analyses."""

from __future__ import annotations

import asyncio
import secrets
import time

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.extension import advertise
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.engine.stats_runner import MAX_CONCURRENCY
from stacgis_agent.tools.outside.http_endpoint import McpHttpEndpoint, TokenFile, regenerate_token
from testkit.servers.mcp_tasks_client import (
    TASKS,
    TaskHandle,
    TasksClient,
    poll_until_done,
    tasks_cancel,
    tasks_get,
    tasks_update,
)
from testkit.servers.slow_cogs import SlowCogServer
from testkit.servers.stac_api import free_port
from testkit.worlds.tiny_catalog import tiny_bbox, write_dated_collection, write_tiny_cog

# one a day from June 1st, each its own file on a server that answers DELAY_S late; small reads go MAX_CONCURRENCY
# at once: three times as many items leave a queue for a cancel to stop
ITEMS = 3 * MAX_CONCURRENCY
DELAY_S = 0.3
OPEN_REQUESTS = 2  # GDAL opens one of these small files with a HEAD, then one GET that holds the whole file
CALL = {"collection": "june", "asset": "data", "datetime": "2024-06-01/2024-12-31", "bbox": tiny_bbox(),
        "exact": True}


@pytest.fixture
async def world(tmp_path):
    root = tmp_path / "cogs"
    for k in range(ITEMS):
        write_tiny_cog(root / f"{k}.tif", seed=k)
    slow = SlowCogServer(root, delay_s=DELAY_S).start()
    catalog = write_dated_collection(tmp_path / "catalog", "june", "data", [f"{slow.url}/{k}.tif" for k in range(ITEMS)])
    name = f"dated-{tmp_path.name}"  # collection_plan caches searches by catalog name: none from another test
    deps = ToolDeps.from_settings(Settings(catalogs=[CatalogConfig(name, str(catalog), kind="static")]),
                                  work_dir=str(tmp_path / "out"))
    tokens = TokenFile(tmp_path / "profile")
    endpoint = McpHttpEndpoint(deps, tokens, free_port())
    await endpoint.start()
    try:
        yield endpoint, tokens, slow, tmp_path / "profile", deps
    finally:
        await endpoint.stop()
        slow.stop()


def connect(endpoint, token: str, **kwargs) -> Client:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=30)
    return Client(streamable_http_client(endpoint.url, http_client=http), **kwargs)


def rows_of(result: dict) -> list[dict]:
    return result["structuredContent"]["rows"]


async def _start(client: Client) -> TaskHandle:
    handle = await client.session.call_tool("collection_statistics", CALL, allow_claimed=True)
    # the handle comes back at once, while the job runs (a whole run takes >= 1.8 s: two ranges of every file)
    assert isinstance(handle, TaskHandle) and handle.status == "working", handle
    return handle


async def _until_reading(slow: SlowCogServer, at_least: int = 1) -> None:
    for _ in range(500):
        if slow.requests >= at_least:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the job never started reading")


async def test_a_task_runs_collection_statistics_to_the_rows_of_a_plain_call(world):
    endpoint, tokens, _slow, _profile, _deps = world
    progress: list[str] = []

    async def on_progress(_done, _total, message):
        progress.append(message or "")

    async with connect(endpoint, tokens()) as plain:
        direct = await plain.call_tool("collection_statistics", CALL, progress_callback=on_progress)
    assert not direct.is_error, direct.content[0].text
    assert any(f"/ {ITEMS} items" in m for m in progress)  # the plain call still streams its progress

    async with connect(endpoint, tokens(), extensions=[TasksClient()]) as client:
        assert client.protocol_version == "2026-07-28"
        assert TASKS in (client.server_capabilities.extensions or {})
        handle = await _start(client)
        assert isinstance(handle, TaskHandle) and handle.status == "working" and handle.ttl_ms is None
        seen = []
        done = await poll_until_done(client.session, handle.task_id, seen)
    assert done.status == "completed", done.status_message
    assert not done.result["isError"]
    assert rows_of(done.result) == direct.structured_content["rows"]
    assert len(rows_of(done.result)) == ITEMS
    assert any(s.status == "working" and f"/ {ITEMS} items" in (s.status_message or "") for s in seen)
    assert done.status_message == "collection_statistics finished"
    assert 3_500_000 <= done.ttl_ms <= 3_700_000  # kept an hour after it finished (from its creation)


async def test_the_official_client_can_wait_for_a_task_as_for_a_plain_call(world):
    endpoint, tokens, slow, _profile, deps = world
    started = time.perf_counter()
    async with connect(endpoint, tokens(), extensions=[TasksClient()]) as client:
        result = await client.call_tool("collection_statistics", CALL)  # the claim polls the task to its end
    took = time.perf_counter() - started
    assert not result.is_error, result.content[0].text
    assert len(result.structured_content["rows"]) == ITEMS
    assert slow.requests >= 2 * ITEMS  # a whole run reads two ranges of every file
    counted = deps.stats.summary()["by_tool"]["collection_statistics"]
    assert counted["calls"] == 1 and counted["errors"] == 0
    assert counted["seconds"] > 0.8 * took  # the session's statistics count the task's job, not its handle


async def test_cancelling_a_task_stops_its_reads(world):
    endpoint, tokens, slow, _profile, _deps = world
    async with connect(endpoint, tokens(), extensions=[TasksClient()]) as client:
        handle = await _start(client)
        await _until_reading(slow, 6)
        await tasks_cancel(client.session, handle.task_id)
        asked, in_flight = slow.requests, slow.in_flight
        state = await tasks_get(client.session, handle.task_id)
        assert state.status == "cancelled" and state.status_message == "cancelled by the client"
        assert state.result is None
        await asyncio.sleep(3 * DELAY_S)
        settled = slow.requests
        await asyncio.sleep(3 * DELAY_S)
        assert slow.requests == settled and slow.in_flight == 0  # nothing more is read
        # No queued item starts after the cancel: only the reads already running (side by side) finish their
        # file's open, which asks twice (GDAL's HEAD, then the first bytes); those with no request in flight may
        # have been about to ask for a file of their own. (Before, a Stop landing outside the reads' generator
        # left the queue running after the job had ended: tests/unit/test_collection_stats_stop.py.)
        started_after = set(slow.paths[asked:settled]) - set(slow.paths[:asked])
        assert len(started_after) <= MAX_CONCURRENCY - in_flight, (asked, in_flight, started_after)
        assert settled - asked <= OPEN_REQUESTS * MAX_CONCURRENCY - in_flight, (asked, in_flight, settled)
        assert settled < ITEMS  # a whole run asks for two ranges of every file
        await tasks_cancel(client.session, handle.task_id)  # cancelling a finished task changes nothing
        again = await client.call_tool("collection_statistics", CALL)  # its place in the limit is free
    assert not again.is_error, again.content[0].text


async def test_another_client_can_neither_read_nor_cancel_a_task(world):
    endpoint, tokens, _slow, profile, _deps = world
    async with connect(endpoint, tokens(), extensions=[TasksClient()]) as owner:
        handle = await _start(owner)
        # the same token over an MCP session of its own is another client
        async with connect(endpoint, tokens(), mode="legacy", extensions=[advertise(TASKS)]) as other:
            for call in (tasks_get, tasks_cancel):
                with pytest.raises(MCPError) as refused:
                    await call(other.session, handle.task_id)
                assert refused.value.error.code == -32602 and "no task" in refused.value.error.message
            legacy = await other.call_tool("collection_statistics", CALL)  # no task handle on a handshake-era wire
            assert not legacy.is_error and len(legacy.structured_content["rows"]) == ITEMS
        async with connect(endpoint, tokens()) as undeclared:  # a client without the extension may not ask
            with pytest.raises(MCPError) as refused:
                await tasks_get(undeclared.session, handle.task_id)
            assert refused.value.error.code == -32021
        done = await poll_until_done(owner.session, handle.task_id)
        assert done.status == "completed"  # nobody else's cancel reached it
    old = tokens()
    regenerate_token(profile)
    async with connect(endpoint, tokens(), extensions=[TasksClient()]) as new_holder:
        with pytest.raises(MCPError) as refused:
            await tasks_get(new_holder.session, handle.task_id)
        assert "no task" in refused.value.error.message
    async with httpx.AsyncClient() as http:  # the old token is refused before any MCP method runs
        body = {"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"taskId": handle.task_id}}
        answer = await http.post(endpoint.url, json=body, headers={"authorization": f"Bearer {old}"})
    assert answer.status_code == 401


async def test_a_finished_task_is_kept_for_a_while_then_forgotten(world):
    endpoint, tokens, _slow, _profile, _deps = world
    endpoint.tasks.keep_s = 1.0  # an hour in use
    async with connect(endpoint, tokens(), extensions=[TasksClient()]) as client:
        handle = await _start(client)
        ack = await tasks_update(client.session, handle.task_id, {"unknown": {"action": "accept"}})
        assert ack.result_type == "complete"  # acknowledged; the job never asks, so the answer is ignored
        done = await poll_until_done(client.session, handle.task_id)
        assert done.status == "completed" and done.ttl_ms is not None
        assert (await tasks_get(client.session, handle.task_id)).status == "completed"  # read again
        await asyncio.sleep(1.2)
        with pytest.raises(MCPError) as gone:
            await tasks_get(client.session, handle.task_id)
        assert gone.value.error.code == -32602 and "kept" in gone.value.error.message


async def test_tasks_count_in_the_limit_on_long_analyses(world):
    endpoint, tokens, slow, _profile, _deps = world
    async with connect(endpoint, tokens(), extensions=[TasksClient()]) as client:
        handles = [await _start(client) for _ in range(3)]  # one runs, two wait their turn
        assert all(isinstance(h, TaskHandle) for h in handles)
        surplus = await client.session.call_tool("collection_statistics", CALL, allow_claimed=True)
        assert not isinstance(surplus, TaskHandle) and surplus.is_error
        text = surplus.content[0].text
        assert "3 long analyses under way" in text and "tasks/cancel" in text and "Wait for one to finish" in text
        async with connect(endpoint, tokens()) as plain_caller:  # the same client without tasks: refused too
            plain = await plain_caller.call_tool("collection_statistics", CALL)
        assert plain.is_error and "3 long analyses under way" in plain.content[0].text
        await _until_reading(slow)
        waiting = await tasks_get(client.session, handles[2].task_id)
        assert waiting.status == "working"
        assert waiting.status_message.startswith("waiting: 2 earlier long analysis call(s) of this client")
        for handle in handles:
            await tasks_cancel(client.session, handle.task_id)
        states = [await tasks_get(client.session, h.task_id) for h in handles]
        assert [s.status for s in states] == ["cancelled"] * 3
        freed = await _start(client)  # cancelled tasks gave their places back
        assert isinstance(freed, TaskHandle)
        await tasks_cancel(client.session, freed.task_id)


async def test_a_destructive_call_of_a_tasks_client_still_waits_for_the_users_ok(tmp_path):
    from mcp_types import ElicitResult

    from stacgis_agent.agent.stores.sqlite import SqliteMemoryStore
    from testkit.llm.ollama_replies import embed_text

    async def embed(texts):
        return [embed_text(t) for t in texts]

    store = SqliteMemoryStore(tmp_path / "memory.db")
    deps = ToolDeps.from_settings(Settings(user="ana"), memory_store=store, embed=embed, work_dir=str(tmp_path))
    tokens = TokenFile(tmp_path / "profile")
    endpoint = McpHttpEndpoint(deps, tokens, free_port())
    await endpoint.start()
    asked = []

    async def user_says_no(_context, params):
        asked.append(params.message)
        return ElicitResult(action="decline")

    try:
        memory_id = await store.add("ana", "Old fact", "fact", embed_text("Old fact"))
        async with connect(endpoint, tokens(), extensions=[TasksClient()], elicitation_callback=user_says_no) as client:
            result = await client.call_tool("delete_memory", {"memory_id": memory_id})
    finally:
        await endpoint.stop()
    assert result.is_error and "declined" in result.content[0].text
    assert asked and "Old fact" in asked[0]
    assert [h.id for h in await store.recent("ana")] == [memory_id]


async def test_a_task_over_a_stac_api_world_gives_the_rows_of_the_docks_own_call(tmp_path, stac_api, make_deps):
    """Against the STAC API (stac-fastapi-pgstac) and COGs in two UTM zones: the NDVI rows an outside client
    gets from a task are those the dock's in-process server computes."""
    from mcp import Client as InProcess

    from stacgis_agent.tools.server import build_server
    from testkit.servers.cog_server import CogServer
    from testkit.worlds.collection_world import make_collection_world

    (tmp_path / "world").mkdir()
    cogs = CogServer(tmp_path / "world").start()
    world = make_collection_world(tmp_path / "world", cogs.url, collection="s2-lyon-tasks")
    stac_api.load([world.collection()], world.items)
    deps = make_deps(httpx.AsyncClient(timeout=30), {"local": stac_api.url})
    tokens = TokenFile(tmp_path / "profile")
    endpoint = McpHttpEndpoint(deps, tokens, free_port())
    await endpoint.start()
    call = {"collection": world.collection_id, "datetime": "2024-03-01/2024-05-31", "index": "NDVI",
            "polygon": world.area, "exact": True}
    try:
        async with InProcess(build_server(deps)) as dock:
            mine = await dock.call_tool("collection_statistics", call)
        async with connect(endpoint, tokens(), extensions=[TasksClient()]) as client:
            handle = await client.session.call_tool("collection_statistics", call, allow_claimed=True)
            assert isinstance(handle, TaskHandle)
            done = await poll_until_done(client.session, handle.task_id)
    finally:
        await endpoint.stop()
        cogs.stop()
    assert not mine.is_error, mine.content[0].text
    assert done.status == "completed" and not done.result["isError"]
    assert rows_of(done.result) == mine.structured_content["rows"] and len(rows_of(done.result)) == 3


async def test_a_session_id_the_client_chooses_does_not_make_it_another_client(world):
    """The attack of issue 40.10: a fresh self-chosen `mcp-session-id` on every request got 9 of 9 tasks
    accepted (the limit is 3: one running, two waiting). The server issued the token, not the header."""
    endpoint, tokens, slow, _profile, _deps = world

    async def own_session_id(request):
        request.headers["mcp-session-id"] = secrets.token_hex(16)

    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {tokens()}"}, timeout=30,
                              event_hooks={"request": [own_session_id]})
    async with Client(streamable_http_client(endpoint.url, http_client=http), extensions=[TasksClient()]) as client:
        answers = [await client.session.call_tool("collection_statistics", CALL, allow_claimed=True)
                   for _ in range(9)]
        handles = [a for a in answers if isinstance(a, TaskHandle)]
        refused = [a for a in answers if not isinstance(a, TaskHandle)]
        assert len(handles) == 3 and len(refused) == 6, [type(a).__name__ for a in answers]
        assert all(r.is_error and "3 long analyses under way" in r.content[0].text for r in refused)
        await _until_reading(slow)
        for handle in handles:  # still its own tasks, whatever session id each request names
            await tasks_cancel(client.session, handle.task_id)
        assert [(await tasks_get(client.session, h.task_id)).status for h in handles] == ["cancelled"] * 3
