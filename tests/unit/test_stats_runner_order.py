"""The order collection statistics read items in (tools/engine/stats_runner.py): the first item of each layout (its
scout) first, and a layout's other items as soon as its own scout is back, not when every scout is; within a date,
the items of another layout than the grid's (warped, the slowest) first, so that none is left alone at the end."""

from __future__ import annotations

import asyncio
import threading
import time
from types import SimpleNamespace

from stacgis_agent.tools.engine import stats_runner
from stacgis_agent.tools.engine.stats_worker import ItemResult

DATES = ("2023-06-02", "2023-06-08", "2023-06-14", "2023-06-20", "2023-06-26")


def tasks() -> list:
    """Per date three tiles in the grid's zone (layout 32632), then one in the next zone (33N), as a catalogue
    lists them."""
    out = []
    for date in DATES:
        out += [SimpleNamespace(item_id=f"32-{k}-{date}", date=date, layout="32632", grid=None) for k in range(3)]
        out.append(SimpleNamespace(item_id=f"33-{date}", date=date, layout="32633", grid=None))
    return out


def test_within_a_date_the_other_zones_items_come_first_and_the_dates_keep_their_order():
    order = [t.item_id for t in stats_runner._warped_first(tasks())]
    assert order[:4] == ["33-2023-06-02", "32-0-2023-06-02", "32-1-2023-06-02", "32-2-2023-06-02"]
    assert [i for i in order if i.startswith("33")] == [f"33-{d}" for d in DATES]
    assert [i[-10:] for i in order] == sorted(i[-10:] for i in order)


def test_a_layout_starts_when_its_own_scout_is_back_and_then_the_other_zone_goes_first(monkeypatch):
    started: list[tuple[str, float]] = []
    finished: dict[str, float] = {}
    lock = threading.Lock()

    def read(task, cancel):
        with lock:
            started.append((task.item_id, time.perf_counter()))
        time.sleep(0.4 if task.item_id == "33-2023-06-02" else 0.05)  # the other zone's scout: slow
        with lock:
            finished[task.item_id] = time.perf_counter()
        return ItemResult(task.item_id, task.date, "", None, None)

    monkeypatch.setattr(stats_runner, "_read_in_turns", read)

    async def run() -> list[str]:
        return [r.item_id async for r in stats_runner.run_items(tasks(), concurrency=2)]

    done = asyncio.run(run())
    assert sorted(done) == sorted(t.item_id for t in tasks())
    order = [item for item, _ in started]
    assert set(order[:2]) == {"32-0-2023-06-02", "33-2023-06-02"}  # the scouts
    scout_back = finished["33-2023-06-02"]
    # the grid's zone did not wait for the other zone's scout
    assert sum(1 for item, at in started if item.startswith("32") and at < scout_back) >= 3
    # once it was back, the other zone's items went before the grid zone's items still waiting
    later = [item for item, at in started if at >= scout_back]
    assert later[0].startswith("33"), later
    waiting_32 = [i for i in later if i.startswith("32")]
    for item in later:
        if item.startswith("33"):
            date = item[-10:]
            assert all(later.index(item) < later.index(other) for other in waiting_32 if other[-10:] >= date)


def test_on_a_full_resolution_grid_no_item_waits_for_a_scout(monkeypatch):
    """Its items' reads are megabytes: what a scout teaches saves one header request a file, so every item starts
    at once."""
    big = SimpleNamespace(width=3000, height=2000)
    items = tasks()
    for task in items:
        task.grid = big
    started, finished = [], []
    lock = threading.Lock()

    def read(task, cancel):
        with lock:
            started.append(task.item_id)
        time.sleep(0.2)
        with lock:
            finished.append(task.item_id)
        return ItemResult(task.item_id, task.date, "", None, None)

    monkeypatch.setattr(stats_runner, "_read_in_turns", read)
    first_finish_seen: list[int] = []

    async def run() -> list[str]:
        out = []
        async for r in stats_runner.run_items(items, concurrency=4):
            if not first_finish_seen:
                with lock:
                    first_finish_seen.append(len(started))
            out.append(r.item_id)
        return out

    assert sorted(asyncio.run(run())) == sorted(t.item_id for t in items)
    assert first_finish_seen[0] >= 4  # four read side by side before the first was done
    assert started[0] == "33-2023-06-02"  # the other zone's first, within the first date
