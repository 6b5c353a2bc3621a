"""The opt-in streamable-HTTP endpoint, over real HTTP with the mcp client: token, Host/Origin,
and destructive tools confirmed through elicitation (or refused)."""

from __future__ import annotations

import os
import stat

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import ElicitResult

from stacgis_agent.agent.config import Settings
from stacgis_agent.agent.stores.sqlite import SqliteMemoryStore
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.outside.http_endpoint import McpHttpEndpoint, load_or_create_token
from testkit.llm.ollama_replies import embed_text
from testkit.servers.stac_api import free_port

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
MCP_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


async def embed(texts):
    return [embed_text(t) for t in texts]


@pytest.fixture
async def endpoint(tmp_path):
    store = SqliteMemoryStore(tmp_path / "memory.db")
    deps = ToolDeps.from_settings(Settings(user="ana"), memory_store=store, embed=embed, work_dir=str(tmp_path))
    token = load_or_create_token(tmp_path / "profile")
    server = McpHttpEndpoint(deps, token, free_port())
    await server.start()
    yield server, token, store
    await server.stop()


def connect(endpoint, token: str, **kwargs) -> Client:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=10)
    return Client(streamable_http_client(endpoint.url, http_client=http), **kwargs)


async def test_token_is_per_profile_stable_and_private(tmp_path):
    first = load_or_create_token(tmp_path)
    assert load_or_create_token(tmp_path) == first and len(first) >= 40
    assert load_or_create_token(tmp_path / "other") != first
    assert stat.S_IMODE(os.stat(tmp_path / "stacgis_mcp_token").st_mode) == 0o600


async def test_an_outside_client_with_the_token_uses_the_same_tools(endpoint):
    server, token, store = endpoint
    async with connect(server, token) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        assert {"search_items", "get_raster_statistics", "add_memory", "delete_memory"} <= names
        result = await client.call_tool("add_memory", {"content": "Study area: Camargue"})
    assert not result.is_error
    assert [h.content for h in await store.recent("ana")] == ["Study area: Camargue"]


@pytest.mark.parametrize("headers, status", [
    ({}, 401),
    ({"authorization": "Bearer wrong-token"}, 401),
    ({"authorization": "Basic abc"}, 401),
])
async def test_missing_or_wrong_token_is_refused(endpoint, headers, status):
    server, _token, _store = endpoint
    async with httpx.AsyncClient() as http:
        response = await http.post(server.url, json=INIT, headers={**MCP_HEADERS, **headers})
    assert response.status_code == status
    assert "bearer token" in response.json()["error"]


async def test_foreign_host_or_origin_is_refused_even_with_the_token(endpoint):
    server, token, _store = endpoint
    auth = {"authorization": f"Bearer {token}"}
    async with httpx.AsyncClient() as http:
        ok = await http.post(server.url, json=INIT, headers={**MCP_HEADERS, **auth})
        rebinding = await http.post(server.url, json=INIT, headers={**MCP_HEADERS, **auth, "host": "evil.example:80"})
        cross_site = await http.post(server.url, json=INIT,
                                     headers={**MCP_HEADERS, **auth, "origin": "https://evil.example"})
    assert ok.status_code == 200
    assert (rebinding.status_code, cross_site.status_code) == (403, 403)


async def test_a_wrong_token_fails_the_mcp_client(endpoint):
    server, _token, _store = endpoint
    with pytest.raises(Exception):  # noqa: B017 - the SDK wraps the 401 in its own error types
        async with connect(server, "not-the-token") as client:
            await client.list_tools()


async def _remember(store) -> str:
    return await store.add("ana", "Old fact", "fact", embed_text("Old fact"))


async def test_destructive_tool_runs_after_the_user_confirms_through_elicitation(endpoint):
    server, token, store = endpoint
    memory_id = await _remember(store)
    asked = []

    async def user_says_yes(_context, params):
        asked.append(params.message)
        return ElicitResult(action="accept", content={"confirm": True})

    async with connect(server, token, elicitation_callback=user_says_yes) as client:
        result = await client.call_tool("delete_memory", {"memory_id": memory_id})
    assert not result.is_error, result.content[0].text
    assert "Forget the remembered fact 'Old fact':" in asked[0] and memory_id in asked[0]  # issue 27.1
    assert await store.recent("ana") == []


async def test_destructive_tool_is_refused_when_the_user_declines(endpoint):
    server, token, store = endpoint
    memory_id = await _remember(store)

    async def user_says_no(_context, _params):
        return ElicitResult(action="decline")

    async with connect(server, token, elicitation_callback=user_says_no) as client:
        result = await client.call_tool("delete_memory", {"memory_id": memory_id})
    assert result.is_error and "declined" in result.content[0].text
    assert [h.id for h in await store.recent("ana")] == [memory_id]


async def test_destructive_tool_is_refused_when_the_client_cannot_confirm(endpoint):
    server, token, store = endpoint
    memory_id = await _remember(store)
    async with connect(server, token) as client:  # no elicitation callback: no elicitation capability
        result = await client.call_tool("delete_memory", {"memory_id": memory_id})
    assert result.is_error and "cannot ask its user" in result.content[0].text
    assert [h.id for h in await store.recent("ana")] == [memory_id]


async def test_legacy_clients_are_asked_over_the_session(endpoint):
    server, token, store = endpoint
    memory_id = await _remember(store)

    async def user_says_yes(_context, _params):
        return ElicitResult(action="accept", content={"confirm": True})

    async with connect(server, token, elicitation_callback=user_says_yes, mode="legacy") as client:
        result = await client.call_tool("delete_memory", {"memory_id": memory_id})
    assert not result.is_error, result.content[0].text
    assert await store.recent("ana") == []


async def test_stdio_bridge_forwards_a_desktop_client_to_the_endpoint(endpoint, tmp_path):
    import sys

    from mcp import StdioServerParameters

    from testkit.servers.mcp_calls import package_root

    server, token, store = endpoint
    token_file = tmp_path / "profile" / "stacgis_mcp_token"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "stacgis_agent.tools.outside.stdio_bridge", "--port", str(server.port), "--token-file", str(token_file)],
        env={**os.environ, "PYTHONPATH": package_root()})
    memory_id = await _remember(store)
    async with Client(params) as desktop:
        names = {t.name for t in (await desktop.list_tools()).tools}
        assert {"search_items", "add_memory", "delete_memory"} <= names
        added = await desktop.call_tool("add_memory", {"content": "Bridge works"})
        refused = await desktop.call_tool("delete_memory", {"memory_id": memory_id})
        summary = await desktop.read_resource("analytics://summary")
    assert not added.is_error
    assert refused.is_error and "cannot ask its user" in refused.content[0].text
    assert sorted(h.content for h in await store.recent("ana")) == ["Bridge works", "Old fact"]
    assert '"tool_calls": 2' in summary.contents[0].text


def test_an_old_token_file_is_made_private_and_a_short_one_is_replaced_atomically(tmp_path):
    token_file = tmp_path / "stacgis_mcp_token"
    old = "o" * 43
    token_file.write_text(old)
    os.chmod(token_file, 0o644)
    assert load_or_create_token(tmp_path) == old
    assert stat.S_IMODE(os.stat(token_file).st_mode) == 0o600
    token_file.write_text("short")
    os.chmod(token_file, 0o644)
    inode = os.stat(token_file).st_ino
    new = load_or_create_token(tmp_path)
    assert len(new) >= 40 and token_file.read_text() == new
    assert stat.S_IMODE(os.stat(token_file).st_mode) == 0o600
    assert os.stat(token_file).st_ino != inode  # a new file renamed over the old one, never rewritten in place
    assert [p.name for p in tmp_path.iterdir()] == ["stacgis_mcp_token"]  # no temp file left behind


async def test_regenerating_the_token_revokes_the_old_one_at_once(tmp_path):
    from stacgis_agent.tools.outside.http_endpoint import TokenFile, regenerate_token

    deps = ToolDeps.from_settings(Settings(), work_dir=str(tmp_path))
    profile = tmp_path / "profile"
    tokens = TokenFile(profile)
    old = tokens()
    endpoint = McpHttpEndpoint(deps, tokens, free_port())
    await endpoint.start()
    try:
        async with httpx.AsyncClient() as http:
            def post(token):
                return http.post(endpoint.url, json=INIT, headers={**MCP_HEADERS, "authorization": f"bearer {token}"})

            assert (await post(old)).status_code == 200  # the scheme's case does not matter (RFC 9110)
            new = regenerate_token(profile)
            assert [(await post(old)).status_code, (await post(new)).status_code] == [401, 200]
    finally:
        await endpoint.stop()


async def test_the_question_folds_a_long_argument_but_keeps_all_of_it(endpoint):
    server, token, store = endpoint
    long_id = "memory-" + "0123456789" * 60
    asked = []

    async def user_says_no(_context, params):
        asked.append(params.message)
        return ElicitResult(action="decline")

    async with connect(server, token, elicitation_callback=user_says_no) as client:
        await client.call_tool("delete_memory", {"memory_id": long_id})
    assert long_id not in asked[0]  # folded into lines …
    assert long_id in asked[0].replace("\n    ", "")  # … of which none was dropped
    assert max(len(line) for line in asked[0].splitlines()) <= 120


async def test_a_client_cannot_forge_the_users_yes(endpoint):
    import hashlib
    import json

    server, token, store = endpoint
    memory_id = await _remember(store)
    arguments = {"memory_id": memory_id}
    forged_state = hashlib.sha256(json.dumps(["delete_memory", arguments], sort_keys=True).encode()).hexdigest()
    yes = {"confirm_destructive": ElicitResult(action="accept", content={"confirm": True})}
    async with connect(server, token) as client:  # never asked, answers anyway
        try:
            result = await client.session.call_tool("delete_memory", arguments, input_responses=yes,
                                                    request_state=forged_state, allow_input_required=True)
        except Exception as exc:  # noqa: BLE001 - the SDK refuses the forged state before the tool
            result = exc
    assert getattr(result, "is_error", True)
    assert [h.id for h in await store.recent("ana")] == [memory_id]


SLOW_CALLS = 4  # from one client at once: one runs, MAX_WAITING wait, the rest are refused


@pytest.fixture
async def slow_world(tmp_path):
    """An endpoint whose catalog has SLOW_CALLS collections on a slow COG server (each its own file, so no
    GDAL cache is shared) and a 'fast' one on a quick server, and the deps the dock's own server shares."""
    from stacgis_agent.agent.config import CatalogConfig
    from testkit.servers.cog_server import CogServer
    from testkit.servers.slow_cogs import SlowCogServer
    from testkit.worlds.tiny_catalog import write_tiny_catalog, write_tiny_cog

    root = tmp_path / "cogs"
    for k in range(SLOW_CALLS + 1):
        write_tiny_cog(root / f"{k}.tif", seed=k)
    slow, fast = SlowCogServer(root, delay_s=0.25).start(), CogServer(root).start()
    entries = [(f"slow-{k}", "data", f"{slow.url}/{k}.tif") for k in range(SLOW_CALLS)]
    catalog = write_tiny_catalog(tmp_path / "catalog", entries + [("fast", "data", f"{fast.url}/{SLOW_CALLS}.tif")])
    name = f"tiny-{tmp_path.name}"  # collection_plan caches searches by catalog name: none from another test
    deps = ToolDeps.from_settings(Settings(catalogs=[CatalogConfig(name, str(catalog), kind="static")]),
                                  work_dir=str(tmp_path / "out"))
    token = load_or_create_token(tmp_path / "profile")
    server = McpHttpEndpoint(deps, token, free_port())
    await server.start()
    try:
        yield server, token, slow, deps
    finally:
        await server.stop()
        slow.stop()
        fast.stop()


def _stats_call(collection: str) -> dict:
    from testkit.worlds.tiny_catalog import DATE, tiny_bbox

    return {"collection": collection, "asset": "data", "datetime": DATE, "bbox": tiny_bbox(), "exact": True}


async def _calls_from_one_client(endpoint, token, count: int) -> tuple[list, list[list[str]]]:
    import asyncio

    progress: list[list[str]] = [[] for _ in range(count)]

    def recorder(k):
        async def on_progress(_done, _total, message):
            progress[k].append(message or "")
        return on_progress

    async with connect(endpoint, token) as client:
        calls = [client.call_tool("collection_statistics", _stats_call(f"slow-{k}"),
                                         progress_callback=recorder(k)) for k in range(count)]
        results = await asyncio.gather(*calls)
    return results, progress


async def test_one_clients_concurrent_heavy_calls_run_one_at_a_time_and_the_surplus_is_refused(slow_world):
    endpoint, token, slow, _deps = slow_world
    results, progress = await _calls_from_one_client(endpoint, token, SLOW_CALLS)
    refused = [r for r in results if r.is_error]
    assert len(refused) == SLOW_CALLS - 3, [r.content[0].text for r in results]
    text = refused[0].content[0].text
    assert "one at a time per client" in text and "Wait for one to finish" in text and "collection_statistics" in text
    done = [r for r in results if not r.is_error]
    assert all(r.structured_content["rows"][0]["valid_pixels"] == 64 * 64 for r in done)
    waited = [p for p in progress if any(m.startswith("waiting: ") for m in p)]
    assert len(waited) == 2  # the queued calls were told why nothing happens yet
    assert slow.peak_files_in_flight == 1  # their reads never overlapped (each call reads its own file)


async def test_the_docks_own_chat_is_not_held_up_by_an_outside_clients_heavy_calls(slow_world):
    import asyncio

    from stacgis_agent.tools.server import build_server

    endpoint, token, slow, deps = slow_world
    outside = asyncio.ensure_future(_calls_from_one_client(endpoint, token, 3))
    for _ in range(500):  # until the outside client's first call is reading (10 s at most)
        if slow.requests:
            break
        await asyncio.sleep(0.02)
    async with Client(build_server(deps)) as dock:  # the dock's in-process server over the same deps
        mine = await dock.call_tool("collection_statistics", _stats_call("fast"))
    assert not mine.is_error, mine.content[0].text
    assert not outside.done()  # the dock's call neither waited for the outside calls nor was refused
    results, _progress = await outside
    assert not any(r.is_error for r in results)
