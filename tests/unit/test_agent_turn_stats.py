"""The stats line of a turn: prompt tokens, tokens the model really re-read, time to first token,
whatever Ollama version counted them."""

from __future__ import annotations

import pytest
import pytest_asyncio

from stacgis_agent.agent.events import Done
from stacgis_agent.agent.turn_stats import PromptCache, format_usage
from testkit.llm.agent_harness import harness_factory
from testkit.llm.ollama_emulator import Turn

SYSTEM = {"role": "system", "content": "You are a GIS assistant."}
ASK = {"role": "user", "content": "Collections?"}
CALL = {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "list_collections", "arguments": {}}}]}
RESULT = {"role": "tool", "tool_name": "list_collections", "content": "[]"}


@pytest_asyncio.fixture
async def make_harness():
    async with harness_factory() as factory:
        yield factory


@pytest.mark.parametrize("counts", [(1000, 1300), (1000, 300)], ids=["ollama>=0.30 full", "older: evaluated"])
def test_both_ollama_counting_rules_give_the_same_prompt_and_reread_tokens(counts):
    cache = PromptCache()
    first = cache.observe([SYSTEM, ASK], ["tools"], counts[0])
    second = cache.observe([SYSTEM, ASK, CALL, RESULT], ["tools"], counts[1])
    assert first == (1000, 1000)  # nothing cached at the start of a chat
    assert second == (1300, 300)  # only what the step added is read again


def test_a_changed_tool_list_means_everything_is_read_again():
    cache = PromptCache()
    cache.observe([SYSTEM, ASK], ["a", "b"], 1000)
    assert cache.observe([SYSTEM, ASK, CALL, RESULT], ["b", "a"], 1300) == (1300, 1300)


@pytest.mark.parametrize("counts", [(1000, 1300), (1000, 300)], ids=["ollama>=0.30 full", "older: evaluated"])
async def test_the_stats_line_of_a_two_step_turn(make_harness, counts):
    h = make_harness()
    h.emu.script(Turn(tool_calls=[("list_collections", {})], prompt_eval_count=counts[0]),
                 Turn(content="Three collections.", prompt_eval_count=counts[1]))
    events = await h.run("Which collections are there?")
    usage = events[-1].usage
    assert isinstance(events[-1], Done) and (usage.prompt_tokens, usage.reread_tokens) == (2300, 1300)
    assert 0 < usage.first_token_ms <= usage.wall_ms and usage.prompt_eval_ms > 0
    line = format_usage(usage)
    assert line.startswith("2\u202f300 tokens in (1\u202f300 re-read, ") and " · first token " in line
