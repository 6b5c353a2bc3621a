"""Per-item reads as Dask tasks on a cluster named in the settings (`tcp://host:8786`, or a Dask Gateway URL).

The worker-side code (stats_worker and the engine modules it imports: grid_windows, pixel_shift, date_stats, the COG
reader, gdal_names…; worker_modules reads them from the code) is uploaded to the cluster as a small zip when the client connects,
to the workers and to a scheduler in another process (it unpickles each task), so they need only GDAL and numpy
besides Dask, not the plugin. A worker that dies mid-job has its tasks rescheduled by the scheduler; a task that
raises is retried. Cancelling the caller cancels the cluster's outstanding tasks.
"""

from __future__ import annotations

import ast
import asyncio
import logging
import os
import socket
import tempfile
import uuid
import zipfile
from pathlib import Path
from typing import Any, AsyncIterator, Sequence

from ..common import ToolInputError
from .stats_worker import ItemResult, ItemTask

log = logging.getLogger(__name__)

RETRIES = 2
INSTALL_HINT = ("Scale-out needs the optional packages dask and distributed. With the Dask scheduler set in "
                "Settings, reload the plugin: the dock offers Install dependencies for them. Or clear the "
                "scheduler to compute on this machine.")
_clients: dict[str, Any] = {}


def available() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def worker_code_zip(folder: Path) -> Path:
    """The worker-side modules (stats_worker and the engine modules it imports, found in their code: see
    worker_modules) as a zip under the plugin's own package path, so tasks and results name the same modules on
    both sides. A new file name per upload: a worker's zip importer caches archives by path, so a zip rewritten
    under the same name would break it."""
    from . import stats_worker

    parts = stats_worker.__name__.split(".")[:-1]  # e.g. ["stacgis_agent", "tools", "engine"]
    here = Path(str(stats_worker.__file__)).parent
    path = folder / f"stacgis-worker-{uuid.uuid4().hex[:12]}.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for depth in range(1, len(parts) + 1):
            archive.writestr("/".join(parts[:depth]) + "/__init__.py", "")
        for name in worker_modules():
            archive.write(str(here / f"{name}.py"), "/".join(parts) + f"/{name}.py")
    return path


def worker_modules(start: str = "stats_worker") -> list[str]:
    """The engine modules a worker needs: `start` and every module of this folder it imports, and they import, as
    their code says (`from . import x`, `from .x import y`): a module added to the reads is never left out of the
    zip (a worker without it cannot unpickle a task, and the job waits)."""
    here = Path(__file__).parent
    found, queue = [], [start]
    while queue:
        name = queue.pop()
        if name in found:
            continue
        found.append(name)
        tree = ast.parse((here / f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                named = [node.module] if node.module else [alias.name for alias in node.names]
                queue += [n for n in named if (here / f"{n}.py").is_file()]
    return sorted(found)


async def client_for(scheduler: str) -> Any:
    """One asynchronous client per scheduler address, reused across requests."""
    client = _clients.get(scheduler)
    if client is not None and client.status == "running":
        return client
    if not available():
        raise ToolInputError(INSTALL_HINT)
    import distributed
    from distributed.diagnostics.plugin import SchedulerUploadFile, UploadFile

    try:
        if scheduler.startswith(("http://", "https://")):
            client = await _gateway_client(scheduler)
        else:
            client = await asyncio.wait_for(distributed.Client(scheduler, asynchronous=True, timeout="10s"), 15)
        with tempfile.TemporaryDirectory(prefix="stacgis-dask-") as folder:
            code = str(worker_code_zip(Path(folder)))
            # to the workers (also those that start or restart later) and, when it is another process, to the
            # scheduler, which unpickles each task (it names stats_worker's read_item and ItemTask); never into
            # this process, where a LocalCluster's scheduler runs beside the real package
            await client.register_plugin(UploadFile(code))
            if not await _scheduler_is_this_process(client):
                await client.register_plugin(SchedulerUploadFile(code), name="stacgis-worker-code")
    except (OSError, asyncio.TimeoutError) as exc:
        raise ToolInputError(f"The Dask scheduler at {scheduler} did not answer ({exc}). Check the address in "
                             "Settings (tcp://host:8786) and that the cluster is running, or clear it to compute "
                             "on this machine.") from None
    _clients[scheduler] = client
    return client


async def _scheduler_is_this_process(client: Any) -> bool:
    pid, host = await asyncio.gather(client.run_on_scheduler(os.getpid), client.run_on_scheduler(socket.gethostname))
    return pid == os.getpid() and host == socket.gethostname()


async def _gateway_client(url: str) -> Any:
    try:
        from dask_gateway import Gateway
    except ImportError:
        raise ToolInputError(f"{url} looks like a Dask Gateway; install the dask-gateway package, or give the "
                             "scheduler's tcp:// address instead.") from None
    gateway = Gateway(url, asynchronous=True)
    clusters = await gateway.list_clusters()
    cluster = await (gateway.connect(clusters[0].name) if clusters else gateway.new_cluster())
    return await cluster.get_client(set_as_default=False)


async def results(tasks: Sequence[ItemTask], scheduler: str) -> AsyncIterator[ItemResult]:
    from distributed import Event, as_completed

    from .stats_worker import ClusterStop, read_item

    client = await client_for(scheduler)
    job = uuid.uuid4().hex[:12]
    stop = Event(f"stacgis-stop-{job}", client=client)
    futures = client.map(read_item, list(tasks), cancel=ClusterStop(stop.name), pure=False, retries=RETRIES,
                         key=[f"stacgis-read-{job}-{i}" for i in range(len(tasks))])
    try:
        async for future in as_completed(futures):
            yield await future
    finally:
        outstanding = [f for f in futures if not f.done()]
        if outstanding:  # queued tasks are dropped; running ones see the event and stop at their next read
            await stop.set()
            await client.cancel(outstanding)


async def close_all() -> None:
    for address, client in list(_clients.items()):
        _clients.pop(address, None)
        try:
            await client.close()
        except Exception as exc:  # closing must not fail the plugin's unload
            log.debug("closing the Dask client of %s: %s", address, exc)
