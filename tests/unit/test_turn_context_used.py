""""Context used" after a turn with tools: the window holds the last step's prompt and answer, not
the sum of every step's prompt, and a server that counted only the uncached tail does not shrink it."""

from __future__ import annotations

import pytest_asyncio

from stacgis_agent.agent.turn_stats import format_usage
from testkit.llm.agent_harness import harness_factory
from testkit.llm.ollama_emulator import Turn


@pytest_asyncio.fixture
async def make_harness():
    async with harness_factory() as factory:
        yield factory


async def test_a_turn_with_tools_reports_the_last_steps_prompt_and_answer_as_context_used(make_harness):
    h = make_harness()
    h.make_loop()
    h.emu.script(Turn(tool_calls=[("search_items", {"collection": "sentinel-2-l2a"})],
                      prompt_eval_count=2000, eval_count=30),
                 Turn(content="Found 42 scenes.", prompt_eval_count=2600, eval_count=40))
    done = (await h.run("How many Sentinel-2 scenes?"))[-1]
    assert done.usage.prompt_tokens == 4600 and done.usage.context_used == 2640
    assert "context 2\u202f640 / 16\u202f384 (16%)" in format_usage(done.usage)


async def test_a_cached_prompt_counted_as_its_tail_still_shows_the_whole_window(make_harness):
    h = make_harness()
    h.make_loop()
    h.emu.script(Turn(tool_calls=[("search_items", {"collection": "sentinel-2-l2a"})],
                      prompt_eval_count=2000, eval_count=30),
                 Turn(content="Found 42 scenes.", prompt_eval_count=12, eval_count=40))  # older Ollama, cache hit
    done = (await h.run("How many Sentinel-2 scenes?"))[-1]
    # the second prompt holds the first one and more: the window is at least that full
    assert done.usage.context_used > 2000 + 40
    assert "context " in format_usage(done.usage)
