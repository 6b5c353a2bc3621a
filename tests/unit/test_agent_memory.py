from __future__ import annotations

import json

from stacgis_agent.agent.conversation import ConversationMemory


def _call(call_id: str, name: str = "search_items") -> dict:
    return {"role": "assistant", "content": "", "tool_calls": [
        {"id": call_id, "function": {"index": 0, "name": name, "arguments": {"q": call_id}}}]}


def _fill(memory: ConversationMemory, turns: int, calls_per_turn: int = 2) -> None:
    for t in range(turns):
        memory.add_user(f"question {t}")
        for c in range(calls_per_turn):
            memory.add_assistant(_call(f"c{t}_{c}"))
            memory.add_tool_result(f"c{t}_{c}", "search_items", f"result {t}.{c}")
        memory.add_assistant({"role": "assistant", "content": f"answer {t}"})


def _assert_pairs_whole(window: list[dict]) -> None:
    calls = {c["id"] for m in window for c in m.get("tool_calls") or ()}
    results = {m["tool_call_id"] for m in window if m["role"] == "tool"}
    assert calls == results, "a tool call was separated from its result"
    assert window[0]["role"] != "tool"


def test_window_never_splits_a_call_from_its_result():
    memory = ConversationMemory(max_messages=7)
    _fill(memory, turns=5, calls_per_turn=2)  # 6 messages per turn
    for size in range(1, 15):
        memory.max_messages = size
        window = memory.window()
        _assert_pairs_whole(window)
        assert window[-1] == {"role": "assistant", "content": "answer 4"}
        assert len(window) <= max(size, 2)  # one whole unit may exceed a tiny window


def test_window_keeps_newest_messages_and_the_running_turn():
    memory = ConversationMemory(max_messages=50)
    _fill(memory, turns=20, calls_per_turn=1)  # 80 messages
    window = memory.window()
    assert len(window) <= 50
    assert window[-1]["content"] == "answer 19"
    assert window[0]["role"] in ("user", "assistant")
    # a long turn in progress is kept whole even beyond the window size
    start = len(memory)
    memory.add_user("long one")
    for i in range(60):
        memory.add_assistant(_call(f"x{i}"))
        memory.add_tool_result(f"x{i}", "search_items", "r")
    window = memory.window(keep_from=start)
    assert window[0] == {"role": "user", "content": "long one"}
    _assert_pairs_whole(window)


def test_long_tool_results_are_truncated_with_a_notice_that_says_how_to_get_more():
    memory = ConversationMemory(max_tool_chars=10_000)
    memory.add_assistant(_call("c1"))
    memory.add_tool_result("c1", "search_items", "x" * 25_000)
    content = memory.messages[-1]["content"]
    assert content.startswith("x" * 10_000)
    assert "15000 more characters" in content
    assert "call the tool again with narrower arguments" in content


def test_round_trip_through_plain_json():
    memory = ConversationMemory(max_messages=12)
    _fill(memory, turns=2)
    data = json.loads(json.dumps(memory.to_dict()))
    again = ConversationMemory.from_dict(data)
    assert again.messages == memory.messages
    assert again.max_messages == 12
    assert ConversationMemory.from_dict({}).messages == []


def test_dangling_calls_get_a_result_after_a_stop():
    memory = ConversationMemory()
    memory.add_user("q")
    memory.add_assistant({"role": "assistant", "content": "", "tool_calls": [
        {"id": "a", "function": {"name": "t1", "arguments": {}}},
        {"id": "b", "function": {"name": "t2", "arguments": {}}}]})
    memory.add_tool_result("a", "t1", "done")
    assert memory.pending_calls() == [("b", "t2")]
    assert memory.close_dangling_calls() == 1
    assert memory.pending_calls() == []
    assert memory.messages[-1]["tool_call_id"] == "b" and "Cancelled" in memory.messages[-1]["content"]


def test_drop_oldest_turn_removes_whole_turns_only():
    memory = ConversationMemory()
    _fill(memory, turns=3, calls_per_turn=1)
    current = len(memory)
    memory.add_user("now")
    removed = memory.drop_oldest_turn(keep_from=current)
    assert removed == 4
    assert memory.messages[0] == {"role": "user", "content": "question 1"}
    _assert_pairs_whole(memory.window())
    assert memory.drop_oldest_turn(keep_from=0) == 0
