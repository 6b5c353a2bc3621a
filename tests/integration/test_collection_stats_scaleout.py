"""Stop and scale-out: Stop ends the reads of a running job within a second; on a real Dask cluster
(distributed.LocalCluster, worker processes on loopback) the numbers equal the in-process ones, a worker killed
mid-job has its reads retried, and Stop cancels the cluster's tasks."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import time

import httpx
import pytest
from starlette.routing import Mount

from stacgis_agent.tools.analysis.collection_stats import compute
from stacgis_agent.tools.engine import dask_runner, stats_worker
from testkit.servers.cog_server import CogServer
from testkit.worlds.collection_world import SlowFiles, make_collection_world

SLOW_S = 0.5  # every HTTP request of the slow store waits this long


@pytest.fixture(scope="module")
def slow_world(tmp_path_factory, stac_api):
    root = tmp_path_factory.mktemp("slow-s2")
    server = CogServer(root, routes=[Mount("/slow", app=SlowFiles(root, SLOW_S))]).start()
    world = make_collection_world(root, server.url + "/slow", collection="s2-lyon-slow")
    stac_api.load([world.collection()], world.items)
    yield server, world
    server.stop()


@pytest.fixture(scope="module")
def cluster():
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, silence_logs=40) as c:
        yield c


@pytest.fixture
async def deps(make_deps, stac_api):
    deps = make_deps(httpx.AsyncClient(timeout=10), {"local": stac_api.url})
    yield deps
    await dask_runner.close_all()


def _on(deps, scheduler: str):
    return dataclasses.replace(deps, settings=dataclasses.replace(deps.settings, dask_scheduler=scheduler))


async def _stats(deps, world, **kwargs):
    return await compute(deps, world.items, world.collection(), world.area, index="NDVI", asset=None,
                         group_by="date", exact=True, mask_clouds=True, **kwargs)


async def test_stop_ends_the_reads_within_a_second(deps, gdal_config, slow_world):
    server, world = slow_world
    job = asyncio.create_task(_stats(deps, world))
    while sum(server.requests.values()) < 3:  # reads are in flight
        await asyncio.sleep(0.05)
    job.cancel()
    with pytest.raises(asyncio.CancelledError):
        await job
    await asyncio.sleep(1.0)
    settled = sum(server.requests.values())
    await asyncio.sleep(1.5)
    assert sum(server.requests.values()) == settled  # nothing more was asked of the store after 1 s


async def test_a_dask_cluster_gives_the_same_numbers_as_this_process(deps, gdal_config, s2_world_for_dask, cluster):
    world = s2_world_for_dask
    local = await _stats(deps, world)
    remote = await _stats(_on(deps, cluster.scheduler_address), world)
    assert remote["rows"] == local["rows"] and len(local["rows"]) == 3
    # the COG reader learns per process how many first bytes hold an item's headers (cog_reader.Hints), from the
    # calls before: the cluster's workers ask for some header bytes more or fewer; another overview would be 4x
    assert abs(remote["bytes_read"] - local["bytes_read"]) <= 0.10 * local["bytes_read"]
    # the workers ran the code the plugin uploaded, not a copy of the plugin of their own
    client = await dask_runner.client_for(cluster.scheduler_address)
    origins = await client.run(getattr, stats_worker, "__file__")  # the module is imported by name there
    assert origins and all(".zip" in origin for origin in origins.values()), origins
    import stacgis_agent  # this process (where the LocalCluster's scheduler runs) keeps the real package

    assert not any(".zip" in p for p in stacgis_agent.__path__) and ".zip" not in stats_worker.__file__


async def test_a_worker_killed_mid_job_has_its_reads_retried(deps, gdal_config, slow_world, cluster):
    server, world = slow_world
    local = await _stats(deps, world)
    job = asyncio.create_task(_stats(_on(deps, cluster.scheduler_address), world))
    client = await dask_runner.client_for(cluster.scheduler_address)
    victim = None
    deadline = time.monotonic() + 30
    while victim is None and time.monotonic() < deadline:
        busy = {w: keys for w, keys in (await client.processing()).items() if keys}
        victim = next(iter(busy), None)
        await asyncio.sleep(0.05)
    assert victim is not None, "no read was running on the cluster"
    try:
        await client.run(os._exit, 1, workers=[victim], wait=False)
    except Exception:
        pass  # the worker dies while answering
    remote = await asyncio.wait_for(job, 120)
    assert remote["rows"] == local["rows"]


async def test_stop_cancels_the_clusters_tasks(deps, gdal_config, slow_world, cluster):
    server, world = slow_world
    job = asyncio.create_task(_stats(_on(deps, cluster.scheduler_address), world))
    client = await dask_runner.client_for(cluster.scheduler_address)

    async def ours() -> int:
        tasks = await client.run_on_scheduler(
            lambda dask_scheduler: [k for k, t in dask_scheduler.tasks.items()
                                    if str(k).startswith("stacgis-read-") and t.state in ("processing", "queued",
                                                                                           "no-worker", "waiting")])
        return len(tasks)

    deadline = time.monotonic() + 30
    while await ours() == 0 and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert await ours() > 0
    job.cancel()
    with pytest.raises(asyncio.CancelledError):
        await job
    await asyncio.sleep(1.0)
    assert await ours() == 0
    # reads already running on the workers stop too (they check the job's stop event between reads)
    settled = sum(server.requests.values())
    await asyncio.sleep(1.5)
    assert sum(server.requests.values()) == settled


@pytest.fixture(scope="module")
def s2_world_for_dask(cog_server, stac_api):
    world = make_collection_world(cog_server.root / "s2dask", cog_server.url + "/s2dask", collection="s2-lyon-dask")
    stac_api.load([world.collection()], world.items)
    return world


async def test_stop_through_the_mcp_client_ends_the_tools_reads(make_deps, stac_api, gdal_config, slow_world):
    """The agent's Stop cancels its MCP call; the server-side tool must stop reading too."""
    from mcp import Client

    from stacgis_agent.tools.server import build_server

    server, world = slow_world
    tools = build_server(make_deps(httpx.AsyncClient(timeout=10), {"local": stac_api.url}))
    server.reset_counts()
    async with Client(tools) as client:
        call = asyncio.create_task(client.call_tool("collection_statistics", {
            "collection": world.collection_id, "datetime": "2024-01-01/2024-12-31", "index": "NDVI",
            "polygon": world.area, "exact": True}))
        while sum(server.requests.values()) < 3:
            await asyncio.sleep(0.05)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        await asyncio.sleep(1.0)
        settled = sum(server.requests.values())
        await asyncio.sleep(1.5)
        assert sum(server.requests.values()) == settled

