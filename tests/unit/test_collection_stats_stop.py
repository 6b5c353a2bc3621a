"""Stop reaches the reads before the call ends, wherever it lands: also while the call mosaics a finished date
(its own await, outside the reads' generator). Before, a generator left open there was closed only by the
garbage collector, and the reads already queued went on opening files after the call had ended (seen as an
outside client's tasks/cancel followed by ten more requests at the COG server)."""

from __future__ import annotations

import asyncio
import threading
import time
from types import SimpleNamespace

import numpy as np
import pytest

from stacgis_agent.tools.analysis import collection_stats
from stacgis_agent.tools.engine import stats_runner
from stacgis_agent.tools.engine.stats_worker import ItemResult

ITEMS = 40


class _Reads:
    """Stands for GDAL's reads: each item takes a moment, and every read is handed the run's stop event."""

    def __init__(self) -> None:
        self.started = 0
        self.events: list[threading.Event] = []
        self.lock = threading.Lock()

    def __call__(self, task, cancel=None) -> ItemResult:
        with self.lock:
            self.started += 1
            self.events.append(cancel)
        time.sleep(0.01)
        return ItemResult(task.item_id, task.date, task.date, None, None)


@pytest.fixture
def one_date_per_item(monkeypatch):
    reads = _Reads()
    mosaicking = threading.Event()
    release = threading.Event()

    async def plan_job(*_args, **_kwargs):
        tasks = [SimpleNamespace(item_id=f"i{k}", date=f"2024-06-{k + 1:02d}") for k in range(ITEMS)]
        return SimpleNamespace(tasks=tasks, bands=None, grid=None, area=np.ones((2, 2), bool), resolution="",
                               scheduler="", note="")

    def add_date(_self, _results) -> None:  # the first finished date is being mosaicked when Stop comes
        mosaicking.set()
        release.wait(5)

    monkeypatch.setattr(stats_runner, "read_item", reads)
    monkeypatch.setattr(collection_stats.plan, "plan_job", plan_job)
    monkeypatch.setattr(collection_stats.PeriodAccumulator, "add_date", add_date)
    yield reads, mosaicking
    release.set()


async def test_stop_during_a_dates_mosaic_stops_the_reads_before_the_call_ends(one_date_per_item):
    reads, mosaicking = one_date_per_item
    call = asyncio.ensure_future(collection_stats.compute(None, [], {}, {}, index="ndvi", asset=None,
                                                         group_by="date", exact=False, mask_clouds=False))
    while not mosaicking.is_set():
        await asyncio.sleep(0.005)
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    assert reads.events and reads.events[0].is_set()  # the reads were told to stop before the call ended
    started = reads.started
    await asyncio.sleep(0.3)  # room for thirty more reads, had the queue gone on
    assert reads.started <= started + stats_runner.DEFAULT_CONCURRENCY  # only the reads already running finish
    assert started < ITEMS
