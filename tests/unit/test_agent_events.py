"""A saved session reopens with the same events: every kind survives JSON and back."""

from __future__ import annotations

import json

from stacgis_agent.agent import events as ev

SAMPLES = [
    ev.UserMessage("NDVI over Lyon?", "m1", 1.5),
    ev.Thinking(1, "The user wants NDVI."),
    ev.ToolStart(1, "c1", "search_items", {"bbox": [4.7, 45.6, 5.0, 45.9], "limit": 3}),
    ev.ToolProgress(1, "c1", "collection_statistics", 37, 412, "37 / 412 items, 2.1 MB read, ~40 s left"),
    ev.ToolResult(1, "c1", "search_items", {"items": [{"id": "S2A_1"}]}, 12.5),
    ev.ToolError(1, "c2", "buffer", "Layer 'roads' not found."),
    ev.Content("Mean NDVI is 0.42.", is_complete=True),
    ev.AskUser("r1", "Remove layer 'roads'?", ("Yes, run it", "No"), details=("removes 1 layer",)),
    ev.ProviderSwitched("ollama @ laptop", "ollama @ gpu-box", "laptop unreachable"),
    ev.Notice("Choosing tools by keywords."),
    ev.IterationLimit(15, 15),
    ev.Error("Ollama stopped answering.", recoverable=True),
    ev.Done("s1", "m1", "Mean NDVI is 0.42.", 2.0, ev.Usage(prompt_tokens=900, eval_tokens=40, steps=2,
                                                            tool_calls=1, context_window=8192), stopped=True),
]


def test_every_kind_round_trips_through_json():
    assert {e.kind for e in SAMPLES} == set(ev.EVENT_KINDS), "add a sample for each new event kind"
    for event in SAMPLES:
        stored = json.loads(json.dumps(ev.event_to_dict(event)))
        assert ev.event_from_dict(stored) == event


def test_kind_names_are_the_stored_type_names():
    assert ev.event_to_dict(ev.ToolStart(1, "c", "t", {}))["type"] == "tool_start"
    assert ev.EVENT_KINDS["provider_switched"] is ev.ProviderSwitched
    assert ev.EVENT_KINDS["user_message"] is ev.UserMessage


def test_logs_written_by_other_versions_still_open():
    # an older log named the user's message "user"; a newer one may carry fields this version lacks
    assert ev.event_from_dict({"type": "user", "content": "Hello"}) == ev.UserMessage("Hello")
    assert ev.event_from_dict({"type": "notice", "text": "hi", "level": "info"}) == ev.Notice("hi")
    assert ev.event_from_dict({"type": "progress_of_the_future", "done": 3}) is None
    assert ev.event_from_dict({"type": "tool_start", "step": 1}) is None  # broken entry: skipped, not a crash


def test_a_new_kind_is_declared_in_one_place():
    from dataclasses import dataclass

    from stacgis_agent.agent.loop import AgentLoop

    @dataclass(frozen=True)
    class ProgressReport(ev.Event):
        logged = False  # live only: a long tool call would fill the saved session with ticks
        done: int
        total: int

    try:
        stored = json.loads(json.dumps(ProgressReport(3, 10).to_dict()))
        assert stored == {"type": "progress_report", "done": 3, "total": 10}
        assert ev.event_from_dict(stored) == ProgressReport(3, 10)
        loop = AgentLoop(provider=None, server=None)
        loop._log_event(ProgressReport(3, 10))
        loop._log_event(ev.Notice("kept"))
        assert loop.log == [{"type": "notice", "text": "kept"}]
    finally:
        ev.EVENT_KINDS.pop("progress_report", None)
