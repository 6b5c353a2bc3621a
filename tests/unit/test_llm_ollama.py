"""OllamaProvider against the Ollama emulator over real HTTP: what the user sees, what was sent."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest

from stacgis_agent.agent.llm.errors import (
    LLMTimeout,
    ModelNotFound,
    ServerError,
    ServerUnreachable,
    StreamError,
    ThinkingNotSupported,
    ToolsNotSupported,
)
from stacgis_agent.agent.llm.ollama import OllamaProvider
from stacgis_agent.agent.llm.types import (
    ChatOptions,
    ContentChunk,
    ThinkingChunk,
    ToolCallChunk,
)
from testkit.llm.ollama_emulator import OllamaEmulator, Turn

USER = [{"role": "user", "content": "Buffer roads by 50 m"}]
BUFFER = {"type": "function", "function": {"name": "buffer", "description": "Buffer a layer", "parameters": {
    "type": "object", "properties": {"layer": {"type": "string"}, "distance": {"type": "number"}},
    "required": ["layer", "distance"]}}}


@pytest.fixture
def emu():
    with OllamaEmulator() as emulator:
        yield emulator


@pytest.fixture
async def provider(emu):
    p = OllamaProvider(emu.url, "qwen3:8b", options=ChatOptions(num_ctx=8192, temperature=0.1, keep_alive="10m"))
    yield p
    await p.aclose()


async def collect(provider, messages=USER, tools=None, options=None):
    return [c async for c in provider.chat_stream(messages, tools, options)]


def texts(chunks, kind):
    return [c.text for c in chunks if isinstance(c, kind)]


async def test_stream_yields_thinking_content_tool_calls_then_the_assembled_answer(emu, provider):
    emu.script(Turn(thinking="The user wants a buffer.", content="Buffering the roads.",
                    tool_calls=[("buffer", {"layer": "roads", "distance": 50})]))
    chunks = await collect(provider, tools=[BUFFER])
    kinds = [type(c).__name__ for c in chunks]
    assert kinds[0] == "ThinkingChunk" and kinds[-2:] == ["ToolCallChunk", "FinalChunk"]
    assert "".join(texts(chunks, ThinkingChunk)) == "The user wants a buffer."
    assert "".join(texts(chunks, ContentChunk)) == "Buffering the roads."
    final = chunks[-1].response
    assert final.content == "Buffering the roads." and final.thinking == "The user wants a buffer."
    (call,) = final.tool_calls
    assert (call.name, call.arguments) == ("buffer", {"layer": "roads", "distance": 50})
    assert call.id.startswith("call_")
    assert final.done_reason == "stop" and final.model == "qwen3:8b"
    assert final.usage.prompt_eval_count > 0 and final.usage.eval_count > 0 and final.usage.eval_duration_ns > 0
    (sent,) = emu.chat_requests()
    assert sent["stream"] is True and sent["tools"] == [BUFFER] and sent["keep_alive"] == "10m"
    assert sent["options"] == {"num_ctx": 8192, "temperature": 0.1}
    assert sent["messages"] == USER and "think" not in sent


async def test_two_thousand_small_chunks_arrive_all_and_in_order(emu, provider):
    text = "".join(f"{i:04d}" for i in range(2000))
    emu.script(Turn(content=text, chunk_chars=4))
    chunks = await collect(provider)
    assert texts(chunks, ContentChunk) == [f"{i:04d}" for i in range(2000)]
    assert chunks[-1].response.content == text


async def test_tool_calls_spread_over_chunks_are_accumulated_until_done(emu, provider):
    emu.script(Turn(tool_calls=[{"name": "buffer", "arguments": {"layer": "a", "distance": 1}, "id": "call_first001"},
                                ("buffer", {"layer": "b", "distance": 2})], split_tool_calls=True))
    chunks = await collect(provider, tools=[BUFFER])
    final = chunks[-1].response
    assert [c.arguments["layer"] for c in final.tool_calls] == ["a", "b"]
    assert final.tool_calls[0].id == "call_first001"
    assert [c.call for c in chunks if isinstance(c, ToolCallChunk)] == list(final.tool_calls)
    assert final.as_message()["tool_calls"][1]["function"] == {"index": 1, "name": "buffer",
                                                              "arguments": {"layer": "b", "distance": 2}}


@pytest.mark.parametrize("chunk_chars", [1, 2, 3, 5, 8])
async def test_think_tags_in_content_become_thinking_wherever_the_chunks_split(emu, provider, chunk_chars):
    emu.script(Turn(thinking="Roads are lines; buffer them.", content="\n\nDone: roads buffered.",
                    think_in_content=True, chunk_chars=chunk_chars))
    chunks = await collect(provider)
    assert "".join(texts(chunks, ThinkingChunk)) == "Roads are lines; buffer them."
    shown = texts(chunks, ContentChunk)
    assert "".join(shown) == "Done: roads buffered." == chunks[-1].response.content
    assert not any("<" in t or ">" in t for t in shown)


@pytest.mark.parametrize("leak", ["tool_call_tags", "bare_json", "function_tags"])
async def test_tool_calls_leaked_into_content_are_recovered(emu, provider, leak):
    content = "" if leak == "bare_json" else "Let me buffer. "
    emu.script(Turn(content=content, tool_calls=[("buffer", {"layer": "roads", "distance": 50})],
                    leak=leak, chunk_chars=3))
    chunks = await collect(provider, tools=[BUFFER])
    final = chunks[-1].response
    assert [(c.name, c.arguments) for c in final.tool_calls] == [("buffer", {"layer": "roads", "distance": 50})]
    assert final.content.strip() == content.strip()  # the markup itself never shows
    assert "".join(texts(chunks, ContentChunk)) == final.content


async def test_json_content_that_names_no_known_tool_stays_content(emu, provider):
    emu.script(Turn(content='{"name": "Lyon", "population": 522000}'))
    final = (await collect(provider, tools=[BUFFER]))[-1].response
    assert final.content == '{"name": "Lyon", "population": 522000}' and final.tool_calls == ()


async def test_string_arguments_are_parsed_into_objects(emu, provider):
    emu.script(Turn(tool_calls=[("buffer", {"layer": "roads", "distance": 50})], string_arguments=True))
    final = (await collect(provider, tools=[BUFFER]))[-1].response
    assert final.tool_calls[0].arguments == {"layer": "roads", "distance": 50}


async def test_done_reason_length_and_usage_are_passed_on(emu, provider):
    emu.script(Turn(content="partial", done_reason="length", prompt_eval_count=321, eval_count=42,
                    eval_duration_ns=840_000_000))
    final = (await collect(provider))[-1].response
    assert final.done_reason == "length"
    assert (final.usage.prompt_eval_count, final.usage.eval_count, final.usage.eval_duration_ns) == (
        321, 42, 840_000_000)


async def test_mid_stream_error_line_raises_after_the_delivered_text(emu, provider):
    emu.script(Turn(content="a" * 40, error_line_after=2, error_message="CUDA out of memory"))
    got = []
    with pytest.raises(StreamError) as info:
        async for chunk in provider.chat_stream(USER):
            got.append(chunk)
    assert texts(got, ContentChunk) == ["a" * 8, "a" * 8]
    assert "CUDA out of memory" in str(info.value) and info.value.before_output is False


async def test_dropped_connection_is_a_stream_error_not_a_hang(emu, provider):
    emu.script(Turn(content="b" * 80, drop_after=2))
    with pytest.raises(StreamError) as info:
        await collect(provider)
    assert "closed the connection" in str(info.value) and info.value.before_output is False


async def test_server_error_before_output_allows_fallback(emu, provider):
    emu.script(Turn(http_status=503, http_error="server overloaded"))
    with pytest.raises(ServerError) as info:
        await collect(provider)
    assert "server overloaded" in str(info.value) and info.value.before_output is True


async def test_missing_model_says_how_to_pull_it(emu):
    p = OllamaProvider(emu.url, "llama9:70b")
    with pytest.raises(ModelNotFound) as info:
        await collect(p)
    await p.aclose()
    assert "ollama pull llama9:70b" in str(info.value)


async def test_model_without_tools_names_the_installed_models_that_have_them(emu):
    emu.add_model("mistral:7b", capabilities=("completion", "tools"))
    p = OllamaProvider(emu.url, "gemma3:4b")
    with pytest.raises(ToolsNotSupported) as info:
        await collect(p, tools=[BUFFER])
    await p.aclose()
    assert info.value.tool_capable == ("qwen3:8b", "mistral:7b")
    assert "gemma3:4b" in str(info.value) and "qwen3:8b, mistral:7b" in str(info.value)


async def test_think_on_a_model_without_thinking_is_explained(emu):
    p = OllamaProvider(emu.url, "gemma3:4b", options=ChatOptions(think=True))
    with pytest.raises(ThinkingNotSupported) as info:
        await collect(p)
    await p.aclose()
    assert "turn thinking off" in str(info.value)
    assert emu.chat_requests()[0]["think"] is True


async def test_ollama_not_running_says_ollama_serve():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    p = OllamaProvider(f"http://127.0.0.1:{port}", "qwen3:8b")
    with pytest.raises(ServerUnreachable) as info:
        await collect(p)
    await p.aclose()
    assert "ollama serve" in str(info.value) and f"127.0.0.1:{port}" in str(info.value)


async def test_a_frozen_server_times_out_with_advice(emu):
    emu.script(Turn(content="slow answer", chunk_delay_s=1.0))
    p = OllamaProvider(emu.url, "qwen3:8b", timeout_s=0.3)
    with pytest.raises(LLMTimeout) as info:
        await collect(p)
    await p.aclose()
    assert "request timeout" in str(info.value) and info.value.before_output is True


async def test_cancelling_the_consumer_closes_the_stream_at_once(emu, provider):
    emu.script(Turn(content="x" * 4000, chunk_chars=4, chunk_delay_s=0.02))
    received = asyncio.Event()
    count = 0

    async def consume():
        nonlocal count
        async for _chunk in provider.chat_stream(USER):
            count += 1
            if count == 3:
                received.set()

    task = asyncio.create_task(consume())
    await asyncio.wait_for(received.wait(), 5)
    cancelled_at = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    seen = await asyncio.to_thread(emu.wait_for_disconnect, 1.0)
    assert seen and time.monotonic() - cancelled_at < 1.0  # the stream had 20 s to go
    assert emu.disconnects == 1 and count < 1000


async def test_chat_without_streaming_returns_the_whole_answer(emu, provider):
    emu.script(Turn(thinking="<plan>", content="Buffered.", tool_calls=[("buffer", {"layer": "r", "distance": 5})],
                    string_arguments=True))
    answer = await provider.chat(USER, [BUFFER])
    assert (answer.content, answer.thinking) == ("Buffered.", "<plan>")
    assert answer.tool_calls[0].arguments == {"layer": "r", "distance": 5}
    assert emu.chat_requests()[0]["stream"] is False


async def test_history_is_sanitised_before_sending(emu, provider):
    history = USER + [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_ab12cd34", "type": "function",
             "function": {"name": "buffer", "arguments": '{"layer": "roads", "distance": 50}'}}]},
        {"role": "tool", "tool_call_id": "call_ab12cd34", "content": {"layer_id": "buf_1"}},
    ]
    emu.script(Turn(content="Done."))
    assert (await provider.chat(history)).content == "Done."
    sent = emu.chat_requests()[0]["messages"]
    assert sent[1] == {"role": "assistant", "content": "", "tool_calls": [{"id": "call_ab12cd34", "function": {
        "index": 0, "name": "buffer", "arguments": {"layer": "roads", "distance": 50}}}]}
    assert sent[2] == {"role": "tool", "tool_name": "buffer", "tool_call_id": "call_ab12cd34",
                       "content": '{"layer_id": "buf_1"}'}


async def test_runner_options_stay_constant_within_a_session(emu, provider):
    emu.script(Turn(content="1"), Turn(content="2"))
    await provider.chat(USER)
    await provider.chat(USER, options=ChatOptions(num_ctx=2048, temperature=0.9, think="high"))
    first, second = emu.chat_requests()
    assert first["options"] == second["options"] == {"num_ctx": 8192, "temperature": 0.1}
    assert second["think"] == "high" and second["keep_alive"] == first["keep_alive"] == "10m"


async def test_context_overflow_is_reported_not_hidden(emu):
    p = OllamaProvider(emu.url, "qwen3:8b", options=ChatOptions(num_ctx=2048))
    emu.script(Turn(content="short"), Turn(content="long"))
    assert (await p.chat(USER)).context_overflow == ""
    history = [{"role": "user", "content": "NDVI of parcel 12 " * 1500}]
    answer = await p.chat(history)
    await p.aclose()
    assert answer.usage.prompt_eval_count == 2048
    assert "context window (2048 tokens)" in answer.context_overflow
    assert "new chat" in answer.context_overflow


async def test_embed_batches_and_keeps_order(emu, provider):
    texts_in = [f"parcel {i} vineyard" for i in range(150)]
    vectors = await provider.embed(texts_in)
    sizes = [len(r.body["input"]) for r in emu.requests if r.path == "/api/embed"]
    assert sizes == [64, 64, 22] and len(vectors) == 150 and len(vectors[0]) == 256
    assert emu.requests[0].body["model"] == "nomic-embed-text" and emu.requests[0].body["truncate"] is True
    again = await provider.embed([texts_in[149], "budget spreadsheet"])
    assert again[0] == vectors[149]

    def cos(a, b):
        return sum(x * y for x, y in zip(a, b))

    assert cos(vectors[0], vectors[1]) > cos(vectors[0], again[1])


async def test_models_show_version_ps_and_preload(emu, provider):
    assert await provider.version() == "0.33.0"
    assert [m.name for m in await provider.list_models()] == ["qwen3:8b", "nomic-embed-text", "gemma3:4b"]
    info = await provider.show()
    assert info.supports_tools and info.supports_thinking and info.context_length == 40960
    vision = await provider.show("gemma3:4b")
    assert "vision" in vision.capabilities and not vision.supports_tools
    with pytest.raises(ModelNotFound):
        await provider.show("nope:1b")
    assert await provider.loaded_models() == []
    await provider.preload()
    (loaded,) = await provider.loaded_models()
    assert loaded.name == "qwen3:8b" and loaded.size_vram > 0 and loaded.context_length == 8192
    preload = emu.chat_requests()[0]
    assert preload["messages"] == [] and preload["options"]["num_ctx"] == 8192 and emu.pending_turns == 0
