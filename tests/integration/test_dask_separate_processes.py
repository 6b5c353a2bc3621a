"""Scale-out the way a team runs it: `dask scheduler` and two `dask worker` processes started from the command line,
each its own process, in an environment that has GDAL, numpy and Dask but not the plugin. Pointing the Dask setting
at that scheduler gives collection statistics the same rows as the in-process run, read by the code the plugin
uploaded when it connected."""

from __future__ import annotations

import dataclasses
import importlib.util
import time

import httpx
import pytest

from stacgis_agent.tools.analysis.collection_stats import compute
from stacgis_agent.tools.engine import dask_runner, stats_worker
from testkit.servers.dask_processes import DaskProcessesFailed, dask_cli, dask_processes
from testkit.servers.loopback import server_missing
from testkit.worlds.collection_world import make_collection_world

WORKERS = 2


@pytest.fixture(scope="module")
def scheduler_address(tmp_path_factory):
    """`dask scheduler` and WORKERS × `dask worker --nthreads 1`, as separate processes; stopped in the end."""
    from distributed import Client

    dask = dask_cli()
    if not dask:
        server_missing("the `dask` command line is not installed (requirements-dask.txt)")
    folder = tmp_path_factory.mktemp("dask-processes")
    try:
        with dask_processes(folder, WORKERS, dask) as address:
            with Client(address, timeout="10s") as probe:  # a team's cluster: Dask, GDAL and numpy, not the plugin
                assert all(probe.run(lambda: importlib.util.find_spec("stacgis_agent") is None).values())
                assert probe.run_on_scheduler(lambda: importlib.util.find_spec("stacgis_agent") is None)
            yield address
    except DaskProcessesFailed as exc:
        pytest.fail(str(exc))


@pytest.fixture(scope="module")
def s2_world(cog_server):
    """The world of the LocalCluster test (test_collection_stats_scaleout.py), served by the same COG server."""
    return make_collection_world(cog_server.root / "s2procs", cog_server.url + "/s2procs",
                                 collection="s2-lyon-procs")


@pytest.fixture
async def deps(make_deps):
    deps = make_deps(httpx.AsyncClient(timeout=10), {})
    yield deps
    await dask_runner.close_all()


async def _stats(deps, world):
    return await compute(deps, world.items, world.collection(), world.area, index="NDVI", asset=None,
                         group_by="date", exact=True, mask_clouds=True)


async def test_a_scheduler_and_workers_started_apart_give_the_same_rows(deps, gdal_config, s2_world,
                                                                        scheduler_address):
    local = await _stats(deps, s2_world)
    on_cluster = dataclasses.replace(deps, settings=dataclasses.replace(deps.settings,
                                                                        dask_scheduler=scheduler_address))
    started = time.monotonic()
    remote = await _stats(on_cluster, s2_world)
    assert time.monotonic() - started < 30
    assert remote["rows"] == local["rows"] and len(local["rows"]) == 3
    # the COG reader learns per process how many first bytes hold an item's headers (cog_reader.py): fresh workers
    # ask for a few header bytes more or fewer than this process did; the windows read, and so the rows, are the same
    assert abs(remote["bytes_read"] - local["bytes_read"]) <= 0.10 * local["bytes_read"]
    client = await dask_runner.client_for(scheduler_address)
    origins = await client.run(getattr, stats_worker, "__file__")
    assert len(origins) == WORKERS and all(".zip" in o for o in origins.values()), origins
    # the scheduler unpickles every task, so it was given the same code (it names read_item and ItemTask)
    scheduler_origin = await client.run_on_scheduler(getattr, stats_worker, "__file__")
    assert ".zip" in scheduler_origin
    assert ".zip" not in stats_worker.__file__  # and this process keeps the real package
