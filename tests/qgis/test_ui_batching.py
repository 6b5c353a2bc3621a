"""Streamed text reaches the widgets at most ~30 times a second, joined, in order."""

from __future__ import annotations

import asyncio
import time

from stacgis_agent.agent.events import Content, Done, Thinking, ToolStart
from stacgis_agent.ui.chat_session import MAX_REPAINTS_PER_S, TextBatcher


async def test_fast_fragments_are_joined_and_released_at_most_30_times_a_second():
    emitted: list[tuple[float, object]] = []
    batcher = TextBatcher(lambda e: emitted.append((time.monotonic(), e)))
    start = time.monotonic()
    for i in range(400):  # 400 fragments over ~0.4 s: a very fast model
        batcher.push(Content(f"w{i} "))
        await asyncio.sleep(0.001)
    await asyncio.sleep(0.1)  # the trailing flush arrives without a new fragment
    elapsed = time.monotonic() - start
    texts = [e.text for _t, e in emitted]
    assert "".join(texts) == "".join(f"w{i} " for i in range(400))
    assert len(emitted) <= elapsed * MAX_REPAINTS_PER_S + 2
    gaps = [b[0] - a[0] for a, b in zip(emitted, emitted[1:])]
    assert min(gaps) >= 1 / MAX_REPAINTS_PER_S - 0.005


async def test_other_events_flush_pending_text_first_so_order_is_kept():
    emitted = []
    batcher = TextBatcher(emitted.append)
    batcher.push(Thinking(1, "a"))  # first fragment goes out at once
    batcher.push(Thinking(1, "b"))
    batcher.push(Thinking(1, "c"))
    batcher.push(ToolStart(1, "c1", "search", {}))
    batcher.push(Thinking(2, "d"))
    batcher.push(Content("x"))
    batcher.push(Content("y"))
    batcher.push(Done("s", "m", "xy", 0.0))
    assert emitted == [Thinking(1, "a"), Thinking(1, "bc"), ToolStart(1, "c1", "search", {}),
                       Thinking(2, "d"), Content("xy"), Done("s", "m", "xy", 0.0)]
    await asyncio.sleep(0.05)
    assert len(emitted) == 6  # nothing left to release later
