"""A Dask cluster started the way a team runs one: `dask scheduler` and `dask worker` from the command line, each its
own process, in a folder outside the checkout and without PYTHONPATH, so none of them can import the plugin."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterator

from .loopback import free_port, wait_for_port


class DaskProcessesFailed(RuntimeError):
    """The scheduler or a worker did not come up; the message ends with their logs."""


def dask_cli() -> str | None:
    """The `dask` command next to this interpreter (the venv's), else on PATH; None when not installed."""
    beside = Path(sys.executable).parent / "dask"
    return str(beside) if beside.exists() else shutil.which("dask")


def _start(command: list[str], folder: Path, log_name: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["DASK_TEMPORARY_DIRECTORY"] = str(folder)  # worker scratch space and uploaded files stay in `folder`
    with open(folder / log_name, "wb") as log:
        return subprocess.Popen(command, cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT)


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def logs(folder: Path) -> str:
    return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-2000:]}" for p in sorted(folder.glob("*.log")))


@contextlib.contextmanager
def dask_processes(folder: Path, workers: int, dask: str) -> Iterator[str]:
    """Yields the scheduler's address once `workers` workers (1 thread each) have joined; stops them all after."""
    from distributed import Client

    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    processes = []
    try:
        processes.append(_start([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                                folder, "scheduler.log"))
        if not wait_for_port(port, 30):
            raise DaskProcessesFailed(f"dask scheduler did not listen on {port}\n{logs(folder)}")
        for n in range(workers):
            processes.append(_start([dask, "worker", address, "--nthreads", "1", "--nworkers", "1",
                                     "--no-dashboard", "--name", f"w{n}"], folder, f"worker-{n}.log"))
        with Client(address, timeout="10s") as probe:
            try:
                probe.wait_for_workers(workers, timeout=60)
            except TimeoutError:
                raise DaskProcessesFailed(f"{workers} workers did not join\n{logs(folder)}") from None
        yield address
    finally:
        for process in reversed(processes):  # workers first, so they do not spend the teardown reconnecting
            _stop(process)
