"""Stopping a run, keeping the prompt inside num_ctx, and the history window."""

from __future__ import annotations

import asyncio

import pytest_asyncio

from stacgis_agent.agent.conversation import ConversationMemory
from stacgis_agent.agent.events import Content, Done, Notice, ToolResult, ToolStart
from testkit.llm.agent_harness import harness_factory, kinds, pairs_are_whole
from testkit.llm.ollama_emulator import Turn
from testkit.llm.ollama_replies import _estimate_prompt_tokens


@pytest_asyncio.fixture
async def make_harness():
    async with harness_factory() as factory:
        yield factory


async def test_cancel_mid_stream_closes_the_stream_and_ends_with_a_stopped_done(make_harness):
    h = make_harness()
    h.emu.script(Turn(content="A very long answer about NDVI " * 40, chunk_delay_s=0.02),
                 Turn(content="Fresh answer."))

    def stop_on_content(event, loop):
        if isinstance(event, Content) and not event.is_complete:
            loop.cancel()

    events = await h.run("Explain NDVI at length", on_event=stop_on_content)
    done = events[-1]
    assert done.stopped and done.content.startswith("A very")
    assert len(done.content) < 200  # it stopped at once, not after the whole answer
    assert h.emu.wait_for_disconnect(5)  # the HTTP stream was closed, so Ollama stops generating
    last = h.loop.memory.messages[-1]
    assert last["role"] == "assistant" and last["content"].endswith("[stopped by the user]")
    # the chat goes on normally afterwards
    again = await h.run("Short please")
    assert again[-1].content == "Fresh answer." and not again[-1].stopped


async def test_cancel_mid_tool_cancels_the_tool_and_leaves_no_dangling_call(make_harness):
    h = make_harness()
    h.world.slow_started = asyncio.Event()
    h.emu.script(Turn(tool_calls=[("wait_for_data", {"seconds": 30})]))

    def stop_when_tool_runs(event, loop):
        if isinstance(event, ToolStart):
            async def later():
                await h.world.slow_started.wait()
                loop.cancel()
            asyncio.ensure_future(later())

    events = await h.run("Wait for the data", on_event=stop_when_tool_runs)
    assert kinds(events) == ["tool_start", "done"] and events[-1].stopped
    assert h.world.cancelled == ["wait_for_data"]  # the running tool itself was cancelled
    memory = h.loop.memory
    assert memory.pending_calls() == []
    assert memory.messages[-1]["role"] == "tool" and "Cancelled by the user" in memory.messages[-1]["content"]
    assert len(h.emu.chat_requests()) == 1


async def test_compaction_keeps_every_prompt_under_num_ctx(make_harness):
    h = make_harness(num_ctx=4096)
    memory = ConversationMemory()
    for n in range(6):  # an old conversation that alone would overflow the window
        memory.add_user(f"old question {n} " + "about parcels " * 40)
        memory.add_assistant({"role": "assistant", "content": f"old answer {n} " + "the mean was 0.4 " * 60})
    h.make_loop(memory=memory)
    h.emu.script(*[Turn(tool_calls=[("big_report", {"size": 5000})])] * 3, Turn(content="Report read."))
    events = await h.run("Read three reports")
    assert [e.tool_name for e in events if isinstance(e, ToolResult)] == ["big_report"] * 3
    assert events[-1].content == "Report read."
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert any("dropped the" in n for n in notices) and any("compacted" in n for n in notices)
    for body in h.emu.chat_requests():
        assert _estimate_prompt_tokens(body) <= 4096  # what the server would count
        assert pairs_are_whole(body["messages"])
        assert body["messages"][0]["role"] == "system"
    last = h.emu.chat_requests()[-1]["messages"]
    assert last[-1]["content"].startswith("NDVI 0.5 parcel 12")  # the newest result is whole
    assert '"compacted":true' in last[-3]["content"]  # an older one kept only its key facts (compact JSON)


async def test_window_truncation_never_splits_a_call_from_its_result_on_the_wire(make_harness):
    h = make_harness()
    h.make_loop(memory=ConversationMemory(max_messages=5))
    for n in range(3):
        h.emu.script(Turn(tool_calls=[("list_collections", {}), ("geocode", {"place": f"p{n}"})]),
                     Turn(content=f"answer {n}"))
        await h.run(f"question {n}")
    for body in h.emu.chat_requests():
        assert pairs_are_whole(body["messages"])
        assert body["messages"][1]["role"] != "tool"
    last = h.emu.chat_requests()[-1]["messages"]
    assert last[1]["role"] == "user"  # older turns left the window whole
    assert last[1]["content"].split("\n\n[tools] ")[0] == "question 2"


async def test_a_second_run_while_one_is_going_is_refused_with_a_clear_message(make_harness):
    h = make_harness()
    h.emu.script(Turn(content="slow " * 30, chunk_delay_s=0.01))
    loop = h.make_loop()
    stream = loop.run("first")
    first = await stream.__anext__()
    try:
        await loop.run("second").__anext__()
        raise AssertionError("a second run should be refused")
    except RuntimeError as exc:
        assert "already running" in str(exc)
    rest = [first] + [e async for e in stream]
    assert isinstance(rest[-1], Done) and rest[-1].content.startswith("slow")
