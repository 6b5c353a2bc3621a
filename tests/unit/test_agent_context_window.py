from __future__ import annotations

import json

import pytest

from stacgis_agent.agent.context_window import (
    ContextFitter,
    ContextTooSmall,
    TokenEstimator,
    compact_tool_result,
)
from stacgis_agent.agent.conversation import ConversationMemory


def _turn(memory: ConversationMemory, n: int, result_chars: int) -> None:
    memory.add_user(f"question {n}")
    memory.add_assistant({"role": "assistant", "content": "", "tool_calls": [
        {"id": f"c{n}", "function": {"name": "search_items", "arguments": {}}}]})
    items = [{"id": f"S2_{n}_{i}", "cloud_cover": i * 1.5, "note": "x" * 40} for i in range(result_chars // 80)]
    memory.add_tool_result(f"c{n}", "search_items", json.dumps({"matched": 1234, "items": items}))
    memory.add_assistant({"role": "assistant", "content": f"answer {n}"})


def test_estimator_learns_from_prompt_eval_count():
    est = TokenEstimator()
    msgs = [{"role": "user", "content": "a" * 3600}]
    raw = est.raw(msgs)
    assert raw == 1000 + 6
    est.observe(raw, 2012)  # the server counted twice as many tokens
    assert est.estimate(msgs) == int(raw * 1.5)
    est.observe(raw, 2012)
    assert est.estimate(msgs) == int(raw * 1.75)
    est.observe(raw, 100)  # a prompt-cache hit says nothing about the tokenizer
    assert est.factor == 1.75


def test_compacted_result_keeps_ids_and_numbers():
    content = json.dumps({"matched": 1234, "collection": "sentinel-2-l2a",
                          "items": [{"id": f"S2_{i}", "assets": {"B04": "x" * 300}} for i in range(30)]})
    small = json.loads(compact_tool_result("search_items", "call_1", content))
    assert small["compacted"] is True and small["tool"] == "search_items" and small["call_id"] == "call_1"
    assert small["matched"] == 1234 and small["collection"] == "sentinel-2-l2a"
    assert small["items_count"] == 30 and small["items_ids"][:3] == ["S2_0", "S2_1", "S2_2"]
    assert compact_tool_result("t", "c", "short") == "short"


def test_fit_compacts_older_results_first_and_keeps_every_exchange_when_that_is_enough():
    memory = ConversationMemory()
    for n in range(4):
        _turn(memory, n, 4000)
    start = len(memory)
    memory.add_user("current question")
    head = [{"role": "system", "content": "system prompt"}]
    untouched = ContextFitter(num_ctx=8000, reserve_tokens=500)
    messages, actions, _ = untouched.fit(head, memory, start, tools=None)
    assert actions == [] and messages == head + memory.messages  # it fits: nothing changes, the cache holds
    fitter = ContextFitter(num_ctx=3400, reserve_tokens=500)
    messages, actions, new_start = fitter.fit(head, memory, start, tools=None)
    assert actions == [actions[0]] and actions[0].startswith("compacted ") and "of earlier requests" in actions[0]
    assert new_start == start and [m["content"] for m in messages if m["role"] == "user"] == [
        "question 0", "question 1", "question 2", "question 3", "current question"]  # no exchange dropped
    results = [m["content"] for m in messages if m["role"] == "tool"]
    first_whole = next(i for i, r in enumerate(results) if '"compacted"' not in r)
    assert first_whole > 0 and all('"compacted"' not in r for r in results[first_whole:])  # oldest went first


def test_fit_compacts_this_turn_then_drops_old_turns_and_keeps_pairs():
    memory = ConversationMemory()
    for n in range(4):
        _turn(memory, n, 4000)
    start = len(memory)
    memory.add_user("current question")
    for i in range(3):  # this turn: three big results; the last one must stay whole
        memory.add_assistant({"role": "assistant", "content": "", "tool_calls": [
            {"id": f"now{i}", "function": {"name": "search_items", "arguments": {}}}]})
        memory.add_tool_result(f"now{i}", "search_items", json.dumps({"matched": i, "blob": "y" * 3000}))
    fitter = ContextFitter(num_ctx=1700, reserve_tokens=500)
    head = [{"role": "system", "content": "system prompt"}]
    messages, actions, new_start = fitter.fit(head, memory, start, tools=None)
    assert fitter.estimator.estimate(messages) <= 1200
    assert "of earlier requests" in actions[0] and actions[1].startswith("compacted 2 earlier tool result")
    assert any("dropped" in a for a in actions)
    assert memory.messages[new_start] == {"role": "user", "content": "current question"}
    assert json.loads(messages[-1]["content"])["blob"] == "y" * 3000  # newest result intact
    calls = {c["id"] for m in messages for c in m.get("tool_calls") or ()}
    results = {m["tool_call_id"] for m in messages if m["role"] == "tool"}
    assert calls == results


def test_fit_gives_an_actionable_error_when_nothing_more_can_go():
    memory = ConversationMemory()
    memory.add_user("z" * 40_000)
    with pytest.raises(ContextTooSmall, match="Increase num_ctx"):
        ContextFitter(num_ctx=2048).fit([], memory, 0, tools=None)
