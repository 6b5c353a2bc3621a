"""A long loop that must stay on the GUI thread lets the event loop run between its slices."""

from __future__ import annotations

import asyncio

from stacgis_agent.tools.engine.gui_slices import in_slices


async def test_other_work_on_the_loop_runs_while_a_sliced_loop_is_under_way():
    order: list[str] = []

    async def loop_work():
        async for item in in_slices(range(3), slice_s=0.0):  # every item uses up its slice
            order.append(f"item {item}")

    async def other():
        for k in range(3):
            order.append(f"other {k}")
            await asyncio.sleep(0)

    await asyncio.gather(loop_work(), other())
    assert order.index("other 1") < order.index("item 2")  # not all items before the other task's turn
    assert [o for o in order if o.startswith("item")] == ["item 0", "item 1", "item 2"]
