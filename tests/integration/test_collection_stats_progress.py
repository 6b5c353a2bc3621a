"""What the analyst sees of a long collection_statistics call before and while it reads: a note from its first
moment (before any pixel has come back from a slow store), then the plan, then the reads."""

from __future__ import annotations

import httpx
import pytest
from mcp import Client
from starlette.routing import Mount

from stacgis_agent.tools.server import build_server
from testkit.servers.cog_server import CogServer
from testkit.worlds.collection_world import SlowFiles, make_collection_world

SLOW_S = 0.3  # every request of the slow store waits this long


@pytest.fixture(scope="module")
def slow_world(tmp_path_factory, stac_api):
    root = tmp_path_factory.mktemp("slow-progress")
    server = CogServer(root, routes=[Mount("/slow", app=SlowFiles(root, SLOW_S))]).start()
    world = make_collection_world(root, server.url + "/slow", collection="s2-lyon-progress")
    stac_api.load([world.collection()], world.items)
    yield server, world
    server.stop()


async def test_the_first_progress_note_arrives_before_any_read_has_come_back(make_deps, stac_api, slow_world):
    server, world = slow_world
    server.reset_counts()
    seen: list[tuple] = []

    async def on_progress(done, total, message):
        seen.append((done, total, message, sum(server.bytes_sent.values())))

    deps = make_deps(httpx.AsyncClient(timeout=30), {"local": stac_api.url})
    async with Client(build_server(deps)) as client:
        result = await client.call_tool("collection_statistics", {
            "collection": world.collection_id, "datetime": "2024-03-01/2024-05-31", "index": "NDVI",
            "polygon": world.area, "exact": True}, progress_callback=on_progress)
    assert not result.is_error, result.content[0].text
    first = seen[0]
    assert first[2].startswith("searching 's2-lyon-progress'") and first[3] == 0  # no byte of any file yet
    planning = next(i for i, s in enumerate(seen) if s[2].startswith("planning the reads of 4 item"))
    reading = next(i for i, s in enumerate(seen) if s[2].startswith("0 / 4 items"))
    assert 0 < planning < reading and seen[reading][3] > 0  # the plan read the headers of one file, then reads start
    assert seen[-1][:2] == (4, 4)

