"""The agent loop with a real (tiny) model: Gemma 3 270M on llama-cpp-python's server.

These tests assert protocol properties (text streamed, calls valid against the schema and run on
the real canvas, events in order, steps bounded, generation stopped on cancel), not the model's
wisdom: a 270M model may pick odd arguments, but never a reply outside the protocol.
"""

from __future__ import annotations

import asyncio
import time

import httpx
import jsonschema
from mcp.server.mcpserver import MCPServer
from qgis.core import QgsCoordinateReferenceSystem, QgsProject
from qgis.PyQt.QtCore import QSize

from stacgis_agent.agent.config import Settings
from stacgis_agent.agent.events import AskUser, Content, Done, Error, Notice, ToolError, ToolResult, ToolStart
from stacgis_agent.agent.llm.openai_compat import OpenAICompatProvider
from stacgis_agent.agent.llm.tool_protocol import ToolProtocolProvider
from stacgis_agent.agent.llm.types import ChatOptions, ContentChunk
from stacgis_agent.agent.loop import AgentLoop
from stacgis_agent.agent.map_context import MapContext
from stacgis_agent.tools.server import build_server
from testkit.llm.llama_server import MODEL_NAME
from testkit.servers.canvas_servers import canvas_deps

NUM_CTX = 4096


async def no_embeddings(texts):
    raise RuntimeError("no embedding model in these tests: tools are chosen by keywords")


def provider_for(server, num_predict: int) -> OpenAICompatProvider:
    return OpenAICompatProvider(server.url, MODEL_NAME, timeout_s=240, options=ChatOptions(
        num_ctx=NUM_CTX, temperature=0.0, num_predict=num_predict))


def settings(**overrides) -> Settings:
    return Settings(ollama_url="http://unused", chat_model=MODEL_NAME, num_ctx=NUM_CTX, temperature=0.0,
                    catalogs=[], ask_user_timeout_s=5.0, **overrides)


async def run_turn(loop: AgentLoop, message: str, context=None) -> list:
    events = []
    async for event in loop.run(message, context):
        events.append(event)
        if isinstance(event, AskUser):  # the tiny model may ask: answer so the turn goes on
            loop.answer(event.request_id, "Lyon, France")
    return events


async def test_a_plain_chat_turn_streams_real_text_to_done_with_usage(model_server):
    provider = provider_for(model_server, num_predict=24)
    loop = AgentLoop(provider, MCPServer("no-tools"), settings(max_steps=1), embed=no_embeddings)
    try:
        events = await run_turn(loop, "Say hello to a GIS analyst in one short sentence.")
    finally:
        await loop.aclose()
        await provider.aclose()

    assert not [e for e in events if isinstance(e, Error)], events
    fragments = [e.text for e in events if isinstance(e, Content) and not e.is_complete]
    done = events[-1]
    assert isinstance(done, Done) and not done.stopped
    assert len(fragments) >= 2, "the answer arrives in pieces as the model writes it"
    assert "".join(fragments).strip() == done.content and done.content.strip()
    assert done.usage.eval_tokens > 0 and done.usage.eval_ms > 0 and done.usage.steps == 1
    # num_predict bounds each request; an answer cut by it is continued at most twice (MAX_CONTINUATIONS)
    assert done.usage.eval_tokens <= 3 * (24 + 1)
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("Done") == len(kinds) - 1 and kinds.count("Done") == 1


async def test_constrained_zoom_to_lyon_runs_a_schema_valid_call_on_the_real_canvas(model_server, qgis_iface, tmp_path):
    canvas = qgis_iface.mapCanvas()
    canvas.resize(QSize(400, 300))
    wgs84 = QgsCoordinateReferenceSystem("EPSG:4326")
    canvas.setDestinationCrs(wgs84)
    QgsProject.instance().setCrs(wgs84)
    inner = provider_for(model_server, num_predict=160)  # room for a call that fills every optional argument
    provider = ToolProtocolProvider(inner, force_constrained=True)
    max_steps = 3
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, None, str(tmp_path / "out"), qgis_iface)
        server = build_server(deps, canvas=True)
        loop = AgentLoop(provider, server, settings(max_steps=max_steps, tool_top_k=1, constrained_tools=True),
                         embed=no_embeddings)
        context = MapContext(extent=(-5.0, 42.0, 8.0, 51.0), crs="EPSG:4326", center_lonlat=(1.5, 46.5),
                             scale=5_000_000)
        try:
            events = await run_turn(loop, "zoom to Lyon", context)
            offered = {name: loop.tools.tools[name].input_schema for name in loop.tools.tools}
        finally:
            await loop.aclose()
            await provider.aclose()

    assert not [e for e in events if isinstance(e, Error)], events
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert any("constrained JSON" in t for t in notices), notices
    starts = [e for e in events if isinstance(e, ToolStart)]
    assert starts, "the model answered with a tool call"
    for start in starts:  # every call the model made matches the tool's own schema
        if start.tool_name != "ask_user":
            jsonschema.validate(start.tool_args, offered[start.tool_name])
    outcomes = {e.call_id: e for e in events if isinstance(e, (ToolResult, ToolError))}
    assert set(outcomes) == {s.call_id for s in starts}, "each call got a result or an error"
    assert not [e for e in outcomes.values() if isinstance(e, ToolError) and "Invalid arguments" in e.error]
    zooms = [outcomes[s.call_id] for s in starts if s.tool_name == "zoom_to_location"]
    for outcome in zooms:
        if isinstance(outcome, ToolResult):  # the real canvas moved away from the whole of France
            assert canvas.extent().width() < 13.0
    done = events[-1]
    assert isinstance(done, Done) and not done.stopped and done.content.strip()
    assert done.usage.steps <= max_steps
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("Notice") < kinds.index("ToolStart") < kinds.index("Done")


async def test_cancelling_mid_generation_stops_the_server_generating(model_server):
    provider = ToolProtocolProvider(provider_for(model_server, num_predict=400))
    offset = model_server.log_size()
    messages = [{"role": "user", "content": "Write a very long story about a map maker."}]
    seen = 0

    async def consume():
        nonlocal seen
        async for chunk in provider.chat_stream(messages, None):
            if isinstance(chunk, ContentChunk):
                seen += 1
                if seen == 3:
                    started.set()
        started.set()  # ended by itself: the assertions below say so

    started = asyncio.Event()
    task = asyncio.create_task(consume())
    await asyncio.wait_for(started.wait(), 120)
    assert not task.done(), "the model stopped by itself before the test could cancel it"
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    cancelled_at = time.monotonic()

    # the server is free again at once: a short request is answered (requests are served one at a time)
    quick = provider_for(model_server, num_predict=4)
    answer = await quick.chat([{"role": "user", "content": "Hi"}])
    waited = time.monotonic() - cancelled_at
    await quick.aclose()
    await provider.aclose()
    log_since = model_server.log_text()[offset:]
    assert "Disconnected from client" in log_since, model_server.log_tail()
    timings = model_server.timings_since(offset)
    # a cancelled generation that went on would print its own timing with up to 400 tokens
    assert timings and all(t.eval_tokens < 100 for t in timings), timings
    assert 0 < answer.usage.eval_count <= 4 + 1
    assert waited < 120
