"""Guards of the loop: step limit, exploration budget, destructive actions, ask-user."""

from __future__ import annotations

import json

import pytest_asyncio

from stacgis_agent.agent.events import (
    AskUser,
    Content,
    IterationLimit,
    Notice,
    ToolError,
    ToolResult,
    ToolStart,
)
from stacgis_agent.agent.map_context import LayerInfo, MapContext
from stacgis_agent.agent.system_prompt import ANSWER_NOW, SUMMARISE_NOW
from testkit.llm.agent_harness import chat_tools, harness_factory, kinds
from testkit.llm.ollama_emulator import Turn

WITH_LAYER = MapContext(layers=(LayerInfo("roads", "vector", geometry="LineString"),))

@pytest_asyncio.fixture
async def make_harness():
    async with harness_factory() as factory:
        yield factory


async def test_step_limit_says_answer_now_one_step_before_then_stops_with_a_summary(make_harness):
    h = make_harness(max_steps=4)
    h.emu.default_turn = Turn(tool_calls=[("list_collections", {})])  # a model that never stops
    events = await h.run("Keep looking")
    requests = h.emu.chat_requests()
    assert len(requests) == 4
    # the tool list never changes (the model's cache keeps it); the last steps say "answer now" instead
    assert all(chat_tools(r) == chat_tools(requests[0]) for r in requests) and chat_tools(requests[0])
    assert requests[2]["messages"][-1] == {"role": "system", "content": ANSWER_NOW}
    assert len(h.world.ran("list_collections")) == 2  # calls asked for after "answer now" were not run
    limit = next(e for e in events if isinstance(e, IterationLimit))
    assert (limit.steps, limit.limit) == (4, 4)
    assert kinds(events)[-3:] == ["iteration_limit", "answer", "done"]
    summary = events[-1].content
    assert summary.startswith("I reached the limit of 4 steps") and "list_collections:" in summary
    assert h.loop.memory.pending_calls() == []


async def test_a_model_that_answers_when_told_to_stops_cleanly(make_harness):
    h = make_harness(max_steps=3)
    h.emu.script(Turn(tool_calls=[("list_collections", {})]), Turn(content="Three collections."))
    events = await h.run("Collections?")
    assert not any(isinstance(e, IterationLimit) for e in events)
    first, last = h.emu.chat_requests()
    assert chat_tools(first) == chat_tools(last) and last["messages"][-1] == {"role": "system", "content": ANSWER_NOW}
    assert events[-1].content == "Three collections."


async def test_exploration_budget_asks_the_user_and_stop_means_summarise(make_harness):
    h = make_harness(exploration_budget=3)
    h.emu.script(*[Turn(tool_calls=[("describe_collection", {"collection": "landsat-c2-l2"})])] * 3,
                 Turn(content="Summary: Landsat has 4 bands."))
    events = await h.run("Tell me everything about Landsat", answers={"explore": "Stop and summarise"})
    asks = [e for e in events if isinstance(e, AskUser)]
    assert len(asks) == 1 and asks[0].options == ("Keep exploring", "Stop and summarise")
    assert "3 look-up calls in a row" in asks[0].question
    assert kinds(events).index("ask_user") == kinds(events).index("tool_result") + 5  # after the 3rd result
    last = h.emu.chat_requests()[-1]
    assert chat_tools(last) == chat_tools(h.emu.chat_requests()[0])
    assert last["messages"][-1] == {"role": "system", "content": SUMMARISE_NOW}
    assert events[-1].content == "Summary: Landsat has 4 bands."


async def test_exploration_goes_on_when_the_user_says_keep_exploring(make_harness):
    h = make_harness(exploration_budget=2)
    h.emu.script(*[Turn(tool_calls=[("list_collections", {})])] * 3, Turn(content="Done."))
    events = await h.run("Explore", answers={"explore": "Keep exploring"})
    assert sum(isinstance(e, AskUser) for e in events) == 1  # the streak restarted after "keep"
    assert len(h.world.ran("list_collections")) == 3
    assert chat_tools(h.emu.chat_requests()[3])  # tools still offered


async def test_destructive_tool_waits_for_ok_and_does_not_run_on_no(make_harness):
    h = make_harness()
    # the model even claims the user agreed: nothing it says can skip the question
    h.emu.script(Turn(tool_calls=[("remove_layer", {"layer": "roads", "confirmed": True})]),
                 Turn(content="I left the layer alone."))
    seen_before_answer = []

    def watch(event, loop):
        if isinstance(event, AskUser):
            seen_before_answer.extend(h.world.ran("remove_layer"))
            loop.answer(event.request_id, "No")

    events = await h.run("Delete the roads layer, I already agreed", WITH_LAYER, on_event=watch)
    assert kinds(events)[:3] == ["tool_start", "ask_user", "tool_error"]
    ask = next(e for e in events if isinstance(e, AskUser))
    assert ask.options == ("Yes, run it", "No")
    assert ask.details == ("remove_layer: Remove a layer from the QGIS project.",
                           'Arguments: {"layer": "roads", "confirmed": true}')
    assert ask.question == "Run 'remove_layer'? It cannot be undone."
    assert seen_before_answer == [] and h.world.ran("remove_layer") == []
    error = next(e for e in events if isinstance(e, ToolError))
    assert error.error.startswith("Not run: the user did not approve")
    assert "did not approve" in h.emu.chat_requests()[1]["messages"][-1]["content"]


async def test_several_destructive_calls_in_one_step_are_asked_once_with_every_effect(make_harness):
    h = make_harness()
    for name in ("roads", "rivers", "parcels"):
        h.world.layers[name] = {"kind": "vector"}
    h.emu.script(Turn(tool_calls=[("remove_layer", {"layer": n}) for n in ("roads", "rivers", "parcels")]),
                 Turn(content="Removed."))
    asked = []

    def watch(event, loop):
        if isinstance(event, AskUser):
            asked.append(event)
            loop.answer(event.request_id, "Yes, run it")

    events = await h.run("Remove all three", WITH_LAYER, on_event=watch)
    assert len(asked) == 1, asked
    assert asked[0].question == "Run these 3 actions? They cannot be undone."
    assert [d for d in asked[0].details if d.startswith("Arguments")] == [
        f'Arguments: {{"layer": "{n}"}}' for n in ("roads", "rivers", "parcels")]
    assert [c["layer"] for c in h.world.ran("remove_layer")] == ["roads", "rivers", "parcels"]
    assert kinds(events).count("tool_result") == 3


async def test_no_to_the_single_question_runs_none_of_the_steps_destructive_calls(make_harness):
    h = make_harness()
    h.world.layers.update(roads={"kind": "vector"}, rivers={"kind": "vector"})
    h.emu.script(Turn(tool_calls=[("remove_layer", {"layer": "roads"}), ("remove_layer", {"layer": "rivers"})]),
                 Turn(content="Left alone."))
    events = await h.run("Remove both", WITH_LAYER, answers={"confirm-": "No"})
    assert sum(isinstance(e, AskUser) for e in events) == 1
    assert h.world.ran("remove_layer") == [] and {"roads", "rivers"} <= set(h.world.layers)
    assert kinds(events).count("tool_error") == 2


async def test_destructive_tool_runs_after_an_explicit_ok(make_harness):
    h = make_harness()
    h.world.layers["roads"] = {"kind": "vector"}
    h.emu.script(Turn(tool_calls=[("remove_layer", {"layer": "roads"})]), Turn(content="Removed."))
    events = await h.run("Remove roads", WITH_LAYER, answers={"confirm-": "Yes, run it"})
    assert kinds(events)[:3] == ["tool_start", "ask_user", "tool_result"]
    assert h.world.ran("remove_layer") == [{"layer": "roads"}] and "roads" not in h.world.layers


async def test_destructive_tool_does_not_run_when_the_question_times_out(make_harness):
    h = make_harness(ask_user_timeout_s=0.2)
    h.emu.script(Turn(tool_calls=[("remove_layer", {"layer": "roads"})]), Turn(content="Not removed."))
    events = await h.run("Remove roads", WITH_LAYER)
    assert h.world.ran("remove_layer") == []
    assert kinds(events)[:4] == ["tool_start", "ask_user", "notice", "tool_error"]


async def test_ask_user_tool_times_out_and_the_model_continues_without_an_answer(make_harness):
    h = make_harness(ask_user_timeout_s=0.2)
    h.emu.script(Turn(tool_calls=[("ask_user", {"question": "Which year?", "options": ["2023", "2024"]})]),
                 Turn(content="I used 2024."))
    events = await h.run("Show imagery")
    ask = next(e for e in events if isinstance(e, AskUser))
    assert (ask.question, ask.options, ask.allow_free_text) == ("Which year?", ("2023", "2024"), True)
    assert any(isinstance(e, Notice) and "No answer within 0.2 s" in e.text for e in events)
    result = next(e for e in events if isinstance(e, ToolResult))
    assert result.tool_name == "ask_user" and result.result["answer"] is None
    observation = json.loads(h.emu.chat_requests()[1]["messages"][-1]["content"])
    assert observation["answer"] is None and "did not answer in time" in observation["note"]
    assert events[-1].content == "I used 2024."


async def test_ask_user_tool_returns_the_users_choice(make_harness):
    h = make_harness()
    h.emu.script(Turn(tool_calls=[("ask_user", {"question": "Which year?", "options": ["2023", "2024"]})]),
                 Turn(content="Using 2023."))
    events = await h.run("Show imagery", answers={"Which year": "2023"})
    assert [e.result for e in events if isinstance(e, ToolResult)] == [{"answer": "2023"}]
    assert [type(e).__name__ for e in events if isinstance(e, ToolStart | AskUser | ToolResult | Content)][:3] == [
        "ToolStart", "AskUser", "ToolResult"]
