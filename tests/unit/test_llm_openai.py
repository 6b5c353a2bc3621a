"""OpenAICompatProvider against the emulator's /v1 endpoints over real HTTP."""

from __future__ import annotations

import asyncio
import time

import pytest

from stacgis_agent.agent.llm.errors import ModelNotFound, ServerUnreachable, StreamError
from stacgis_agent.agent.llm.openai_compat import OpenAICompatProvider
from stacgis_agent.agent.llm.types import ChatOptions, ContentChunk, ThinkingChunk, ToolCallChunk
from testkit.llm.ollama_emulator import OllamaEmulator, Turn

USER = [{"role": "user", "content": "Buffer roads by 50 m"}]
BUFFER = {"type": "function", "function": {"name": "buffer", "description": "Buffer a layer", "parameters": {
    "type": "object", "properties": {"layer": {"type": "string"}, "distance": {"type": "number"}}}}}


@pytest.fixture
def emu():
    with OllamaEmulator() as emulator:
        yield emulator


@pytest.fixture
async def provider(emu):
    p = OpenAICompatProvider(emu.url, "qwen3:8b", options=ChatOptions(temperature=0.3, num_predict=512),
                             api_key="sk-local")
    yield p
    await p.aclose()


async def collect(provider, messages=USER, tools=None):
    return [c async for c in provider.chat_stream(messages, tools)]


async def test_stream_reasoning_content_and_fragmented_arguments(emu, provider):
    emu.script(Turn(thinking="Need a buffer.", content="Buffering.", chunk_chars=3,
                    tool_calls=[("buffer", {"layer": "roads", "distance": 50}), ("buffer", {"layer": "rivers"})]))
    chunks = await collect(provider, tools=[BUFFER])
    assert "".join(c.text for c in chunks if isinstance(c, ThinkingChunk)) == "Need a buffer."
    assert "".join(c.text for c in chunks if isinstance(c, ContentChunk)) == "Buffering."
    final = chunks[-1].response
    assert [(c.name, c.arguments) for c in final.tool_calls] == [
        ("buffer", {"layer": "roads", "distance": 50}), ("buffer", {"layer": "rivers"})]
    assert [c.call for c in chunks if isinstance(c, ToolCallChunk)] == list(final.tool_calls)
    assert final.done_reason == "stop" and final.usage.prompt_eval_count > 0 and final.usage.eval_count > 0
    (sent,) = emu.chat_requests()
    assert emu.requests[0].path == "/v1/chat/completions"
    assert emu.requests[0].headers["Authorization"] == "Bearer sk-local"
    assert sent["stream"] is True and sent["stream_options"] == {"include_usage": True}
    assert sent["temperature"] == 0.3 and sent["max_tokens"] == 512 and sent["tools"] == [BUFFER]


async def test_history_goes_out_in_openai_form(emu, provider):
    history = USER + [
        {"role": "assistant", "content": "", "thinking": "plan", "tool_calls": [
            {"id": "call_ab12cd34", "function": {"index": 0, "name": "buffer", "arguments": {"layer": "roads"}}}]},
        {"role": "tool", "tool_name": "buffer", "tool_call_id": "call_ab12cd34", "content": '{"layer_id": "b1"}'}]
    emu.script(Turn(content="Done."))
    assert (await provider.chat(history)).content == "Done."
    sent = emu.chat_requests()[0]["messages"]
    assert sent[1] == {"role": "assistant", "content": "", "tool_calls": [
        {"id": "call_ab12cd34", "type": "function", "function": {"name": "buffer", "arguments": '{"layer": "roads"}'}}]}
    assert sent[2] == {"role": "tool", "content": '{"layer_id": "b1"}', "tool_call_id": "call_ab12cd34",
                       "name": "buffer"}


async def test_think_tags_and_leaked_calls_are_handled_like_ollama(emu, provider):
    emu.script(Turn(thinking="hm", content="Ok.", think_in_content=True, chunk_chars=2),
               Turn(content="Sure. ", tool_calls=[("buffer", {"layer": "roads"})], leak="tool_call_tags"))
    chunks = await collect(provider)
    assert "".join(c.text for c in chunks if isinstance(c, ThinkingChunk)) == "hm"
    assert chunks[-1].response.content == "Ok."
    final = (await collect(provider, tools=[BUFFER]))[-1].response
    assert final.content.strip() == "Sure." and final.tool_calls[0].arguments == {"layer": "roads"}


async def test_length_finish_and_whole_reply(emu, provider):
    emu.script(Turn(content="cut", done_reason="length"),
               Turn(thinking="t", content="c", tool_calls=[("buffer", {"distance": 5})]))
    assert (await collect(provider))[-1].response.done_reason == "length"
    answer = await provider.chat(USER, [BUFFER])
    assert (answer.content, answer.thinking, answer.tool_calls[0].arguments) == ("c", "t", {"distance": 5})
    assert emu.chat_requests()[1]["stream"] is False


async def test_errors(emu, provider):
    emu.script(Turn(content="abcdefghijkl", error_line_after=1, error_message="out of memory"))
    with pytest.raises(StreamError) as info:
        await collect(provider)
    assert "out of memory" in str(info.value) and info.value.before_output is False
    missing = OpenAICompatProvider(emu.url + "/v1", "nope:1b")
    with pytest.raises(ModelNotFound) as info:
        await collect(missing)
    await missing.aclose()
    assert "nope:1b" in str(info.value)
    gone = OpenAICompatProvider("http://127.0.0.1:9", "x", connect_timeout_s=0.5)
    with pytest.raises(ServerUnreachable):
        await collect(gone)
    await gone.aclose()


async def test_cancelling_closes_the_sse_stream_promptly(emu, provider):
    emu.script(Turn(content="y" * 2000, chunk_chars=2, chunk_delay_s=0.02))
    started = asyncio.Event()

    async def consume():
        async for _chunk in provider.chat_stream(USER):
            started.set()

    task = asyncio.create_task(consume())
    await asyncio.wait_for(started.wait(), 5)
    cancelled_at = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await asyncio.to_thread(emu.wait_for_disconnect, 1.0)
    assert time.monotonic() - cancelled_at < 1.0  # the stream had 19 s to go (a busy CI machine takes tenths)


async def test_embeddings_and_models(emu, provider):
    vectors = await provider.embed(["red roofs", "red roof tiles", "tax law"] * 30)
    assert len(vectors) == 90 and vectors[0] == vectors[3]
    assert [len(r.body["input"]) for r in emu.requests if r.path == "/v1/embeddings"] == [64, 26]
    assert "qwen3:8b" in [m.name for m in await provider.list_models()]
