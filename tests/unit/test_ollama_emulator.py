"""The Ollama emulator answers over real HTTP with the shapes of OLLAMA_API.md, so that what
passes against it passes against Ollama."""

from __future__ import annotations

import json
import math
import threading
import time

import httpx
import pytest

from testkit.llm.ollama_emulator import EMBEDDING_DIM, OllamaEmulator, Turn

USER = [{"role": "user", "content": "Buffer roads by 50 m"}]
TOOL = {"type": "function", "function": {"name": "buffer", "parameters": {"type": "object", "properties": {}}}}


@pytest.fixture
def emu():
    with OllamaEmulator() as emulator:
        yield emulator


@pytest.fixture
def http(emu):
    with httpx.Client(base_url=emu.url, trust_env=False, timeout=5) as client:
        yield client


def stream_lines(http, body, path="/api/chat"):
    with http.stream("POST", path, json=body) as r:
        assert r.status_code == 200
        return r.headers["content-type"], [line for line in r.iter_lines() if line]


def chat(http, **extra):
    return stream_lines(http, {"model": "qwen3:8b", "messages": USER, **extra})[1]


def test_stream_sends_thinking_then_content_in_small_pieces_then_tools_then_usage(emu, http):
    emu.script(Turn(thinking="The user wants a buffer", content="Buffering roads now.",
                    tool_calls=[("buffer", {"layer": "roads", "distance": 50})], chunk_chars=5))
    ctype, raw = stream_lines(http, {"model": "qwen3:8b", "messages": USER, "options": {"num_ctx": 8192}})
    assert ctype == "application/x-ndjson"
    assert raw[0].startswith('{"model":"qwen3:8b","created_at":')  # compact, like Go's encoder
    lines = [json.loads(x) for x in raw]
    thinking = [x["message"]["thinking"] for x in lines if "thinking" in x["message"]]
    content = [x["message"]["content"] for x in lines if x["message"]["content"]]
    assert "".join(thinking) == "The user wants a buffer" and all(len(t) <= 5 for t in thinking)
    assert "".join(content) == "Buffering roads now." and len(content) == 4
    calls = [x["message"]["tool_calls"] for x in lines if "tool_calls" in x["message"]]
    assert len(calls) == 1
    (call,) = calls[0]
    assert call["id"].startswith("call_") and len(call["id"]) == 13
    assert call["function"] == {"index": 0, "name": "buffer", "arguments": {"layer": "roads", "distance": 50}}
    final = lines[-1]
    assert [x["done"] for x in lines] == [False] * (len(lines) - 1) + [True]
    assert final["done_reason"] == "stop"
    for key in ("total_duration", "load_duration", "prompt_eval_count", "prompt_eval_duration",
                "eval_count", "eval_duration"):
        assert isinstance(final[key], int) and final[key] > 0
    order = ["thinking" if "thinking" in x["message"] else "tools" if "tool_calls" in x["message"]
             else "content" for x in lines[:-1]]
    assert order == sorted(order, key=["thinking", "content", "tools"].index)


def test_split_tool_calls_arrive_one_per_chunk_with_given_ids(emu, http):
    emu.script(Turn(tool_calls=[{"name": "a", "arguments": {"x": 1}, "id": "call_given01"}, ("b", {})],
                    split_tool_calls=True))
    lines = [json.loads(x) for x in chat(http)]
    chunks = [x["message"]["tool_calls"] for x in lines if "tool_calls" in x["message"]]
    assert [[c["function"]["name"] for c in chunk] for chunk in chunks] == [["a"], ["b"]]
    assert chunks[0][0]["id"] == "call_given01"
    assert [chunk[0]["function"]["index"] for chunk in chunks] == [0, 1]


@pytest.mark.parametrize("style, expected", [
    ("tool_call_tags", 'Sure<tool_call>{"name": "buffer", "arguments": {"distance": 5}}</tool_call>'),
    ("bare_json", 'Sure{"name": "buffer", "arguments": {"distance": 5}}'),
    ("function_tags", 'Sure<function=buffer>{"distance": 5}</function>'),
])
def test_leaked_tool_calls_come_as_content_text_only(emu, http, style, expected):
    emu.script(Turn(content="Sure", tool_calls=[("buffer", {"distance": 5})], leak=style))
    lines = [json.loads(x) for x in chat(http)]
    assert "".join(x["message"]["content"] for x in lines) == expected
    assert not any("tool_calls" in x["message"] for x in lines)


def test_think_in_content_and_string_arguments(emu, http):
    emu.script(Turn(thinking="hmm", content="Answer", think_in_content=True, chunk_chars=3),
               Turn(tool_calls=[("buffer", {"d": 1})], string_arguments=True))
    lines = [json.loads(x) for x in chat(http)]
    assert "".join(x["message"]["content"] for x in lines) == "<think>hmm</think>Answer"
    assert not any("thinking" in x["message"] for x in lines)
    lines = [json.loads(x) for x in chat(http)]
    (call,) = next(x["message"]["tool_calls"] for x in lines if "tool_calls" in x["message"])
    assert call["function"]["arguments"] == '{"d": 1}'


def test_think_false_turns_thinking_off(emu, http):
    emu.script(Turn(thinking="hidden", content="visible"))
    lines = [json.loads(x) for x in chat(http, think=False)]
    assert not any("thinking" in x["message"] for x in lines)
    assert "".join(x["message"]["content"] for x in lines) == "visible"


def test_usage_done_reason_and_truncation_to_num_ctx(emu, http):
    emu.script(Turn(content="x", done_reason="length", prompt_eval_count=77, eval_count=9, eval_duration_ns=1000),
               Turn(content="y"))
    final = json.loads(chat(http)[-1])
    assert (final["done_reason"], final["prompt_eval_count"], final["eval_count"], final["eval_duration"]) == (
        "length", 77, 9, 1000)
    long_history = [{"role": "user", "content": "word " * 4000}]
    final = json.loads(stream_lines(http, {"model": "qwen3:8b", "messages": long_history,
                                           "options": {"num_ctx": 2048}})[1][-1])
    assert final["prompt_eval_count"] == 2048  # Ollama silently drops what does not fit


def test_error_line_mid_stream_keeps_status_200(emu, http):
    emu.script(Turn(content="a" * 40, error_line_after=2, error_message="model runner crashed"))
    lines = [json.loads(x) for x in chat(http)]
    assert [x["message"]["content"] for x in lines[:-1]] == ["a" * 8, "a" * 8]
    assert lines[-1] == {"error": "model runner crashed"}


def test_http_error_turn_and_dropped_connection(emu, http):
    emu.script(Turn(http_status=503, http_error="server busy"), Turn(content="b" * 80, drop_after=3))
    r = http.post("/api/chat", json={"model": "qwen3:8b", "messages": USER})
    assert (r.status_code, r.json()) == (503, {"error": "server busy"})
    got = []
    with pytest.raises(httpx.RemoteProtocolError):
        with http.stream("POST", "/api/chat", json={"model": "qwen3:8b", "messages": USER}) as r:
            for line in r.iter_lines():
                got.append(line)
    assert len([g for g in got if g]) == 3
    assert emu.disconnects == 0  # the server hung up, not the client


def test_client_closing_a_slow_stream_is_seen_at_once(emu, http):
    emu.script(Turn(content="z" * 2000, chunk_delay_s=0.05))  # 12 s of chunks
    with http.stream("POST", "/api/chat", json={"model": "qwen3:8b", "messages": USER}) as r:
        lines = r.iter_lines()
        next(lines)
        closed_at = time.monotonic()
    assert emu.wait_for_disconnect(2)
    assert time.monotonic() - closed_at < 1.0  # not when the stream ends, 12 s later
    assert emu.disconnects == 1


def test_model_errors_match_ollama(emu, http):
    def post(**body):
        r = http.post("/api/chat", json={"messages": USER, **body})
        return r.status_code, r.json()

    assert post(model="llama9:70b") == (404, {"error": "model 'llama9:70b' not found"})
    assert post(model="gemma3:4b", tools=[TOOL]) == (
        400, {"error": "registry.ollama.ai/library/gemma3:4b does not support tools"})
    assert post(model="gemma3:4b", think=True) == (400, {"error": '"gemma3:4b" does not support thinking'})
    emu.remove_model("qwen3:8b")
    assert post(model="qwen3:8b") == (404, {"error": "model 'qwen3:8b' not found"})
    emu.add_model("mistral:7b", capabilities=("completion", "tools"), context_length=32768)
    emu.script(Turn(content="ok"))
    assert post(model="mistral:7b", tools=[TOOL], stream=False)[0] == 200
    assert emu.pending_turns == 0


def test_string_arguments_in_history_are_refused_like_ollama(emu, http):
    history = USER + [{"role": "assistant", "content": "", "tool_calls": [
        {"function": {"name": "buffer", "arguments": '{"d": 1}'}}]}]
    r = http.post("/api/chat", json={"model": "qwen3:8b", "messages": history})
    assert r.status_code == 400 and "cannot unmarshal string" in r.json()["error"]


def test_empty_queue_is_an_error_unless_a_default_turn_is_given(emu, http):
    r = http.post("/api/chat", json={"model": "qwen3:8b", "messages": USER})
    assert (r.status_code, r.json()) == (500, {"error": "emulator: no scripted turn left"})
    with OllamaEmulator(default_turn=Turn(content="default")) as other:
        for _ in range(2):
            r = httpx.post(other.url + "/api/chat", json={"model": "qwen3:8b", "messages": USER, "stream": False},
                           trust_env=False)
            assert r.json()["message"]["content"] == "default"


def test_non_streaming_chat_returns_one_object(emu, http):
    emu.script(Turn(thinking="t", content="c", tool_calls=[("buffer", {"d": 2})]))
    r = http.post("/api/chat", json={"model": "qwen3:8b", "messages": USER, "stream": False})
    body = r.json()
    assert r.headers["content-type"].startswith("application/json")
    assert body["done"] is True and body["message"]["content"] == "c" and body["message"]["thinking"] == "t"
    assert body["message"]["tool_calls"][0]["function"]["arguments"] == {"d": 2}


def test_preload_loads_without_consuming_a_turn_and_ps_shows_it(emu, http):
    assert http.get("/api/ps").json() == {"models": []}
    r = http.post("/api/chat", json={"model": "qwen3:8b", "messages": [], "keep_alive": "30m",
                                     "options": {"num_ctx": 16384}})
    assert r.json()["done_reason"] == "load"
    (loaded,) = http.get("/api/ps").json()["models"]
    assert loaded["name"] == "qwen3:8b" and loaded["size_vram"] > 0 and loaded["context_length"] == 16384
    assert loaded["expires_at"].endswith("Z")
    r = http.post("/api/chat", json={"model": "qwen3:8b", "messages": [], "keep_alive": 0})
    assert r.json()["done_reason"] == "unload" and http.get("/api/ps").json() == {"models": []}


def test_tags_show_version(emu, http):
    names = [m["name"] for m in http.get("/api/tags").json()["models"]]
    assert names == ["qwen3:8b", "nomic-embed-text", "gemma3:4b"]
    show = http.post("/api/show", json={"model": "qwen3:8b"}).json()
    arch = show["model_info"]["general.architecture"]
    assert show["model_info"][f"{arch}.context_length"] == 40960
    assert show["capabilities"] == ["completion", "tools", "thinking"]
    assert http.post("/api/show", json={"model": "gemma3:4b"}).json()["capabilities"] == ["completion", "vision"]
    assert http.post("/api/show", json={"model": "nope"}).status_code == 404
    assert http.get("/api/version").json() == {"version": "0.33.0"}


def test_embeddings_are_deterministic_normalised_and_meaningful(emu, http):
    texts = ["Sentinel-2 imagery over Lyon", "sentinel-2 images of Lyon", "household budget spreadsheet"]
    a = http.post("/api/embed", json={"model": "nomic-embed-text", "input": texts}).json()
    b = http.post("/v1/embeddings", json={"model": "nomic-embed-text", "input": texts}).json()
    vectors = a["embeddings"]
    assert [d["embedding"] for d in b["data"]] == vectors and [d["index"] for d in b["data"]] == [0, 1, 2]
    assert all(len(v) == EMBEDDING_DIM and math.isclose(sum(x * x for x in v), 1.0) for v in vectors)

    def cos(u, v):
        return sum(x * y for x, y in zip(u, v))

    assert cos(vectors[0], vectors[1]) > 0.6 > cos(vectors[0], vectors[2])
    single = http.post("/api/embed", json={"model": "nomic-embed-text", "input": texts[0]}).json()
    assert single["embeddings"] == [vectors[0]] and single["prompt_eval_count"] > 0
    r = http.post("/api/embed", json={"model": "qwen3:8b", "input": "x"})
    assert r.status_code == 400


def test_openai_stream_streams_reasoning_content_and_argument_fragments(emu, http):
    emu.script(Turn(thinking="plan", content="Done.", tool_calls=[("buffer", {"layer": "roads", "distance": 50})],
                    chunk_chars=4))
    ctype, raw = stream_lines(http, {"model": "qwen3:8b", "messages": USER, "stream": True,
                                     "stream_options": {"include_usage": True}}, path="/v1/chat/completions")
    assert ctype == "text/event-stream" and raw[-1] == "data: [DONE]"
    chunks = [json.loads(x[len("data: "):]) for x in raw[:-1]]
    deltas = [c["choices"][0]["delta"] for c in chunks if c["choices"]]
    assert "".join(d.get("reasoning", "") for d in deltas) == "plan"
    assert "".join(d.get("content") or "" for d in deltas) == "Done."
    parts = [t for d in deltas for t in d.get("tool_calls", [])]
    assert parts[0]["id"].startswith("call_") and parts[0]["function"]["name"] == "buffer"
    assert len(parts) > 3  # the arguments really came in fragments
    assert json.loads("".join(p["function"]["arguments"] for p in parts)) == {"layer": "roads", "distance": 50}
    assert [c["choices"][0]["finish_reason"] for c in chunks if c["choices"]][-1] == "tool_calls"
    assert chunks[-1]["choices"] == [] and chunks[-1]["usage"]["completion_tokens"] > 0


def test_openai_errors_and_whole_reply(emu, http):
    r = http.post("/v1/chat/completions", json={"model": "nope", "messages": USER})
    assert r.status_code == 404 and r.json()["error"]["message"] == "model 'nope' not found"
    emu.script(Turn(content="hi", tool_calls=[("buffer", {"d": 1})]), Turn(content="abcdefghij", error_line_after=1))
    body = http.post("/v1/chat/completions", json={"model": "qwen3:8b", "messages": USER}).json()
    assert body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] == '{"d": 1}'
    assert body["choices"][0]["finish_reason"] == "tool_calls" and body["usage"]["prompt_tokens"] > 0
    _, raw = stream_lines(http, {"model": "qwen3:8b", "messages": USER, "stream": True}, "/v1/chat/completions")
    assert json.loads(raw[-2][len("data: "):])["choices"][0]["delta"]["content"] == "abcdefgh"
    assert json.loads(raw[-1][len("data: "):])["error"]["message"] == Turn().error_message


def test_requests_are_recorded_in_arrival_order(emu, http):
    emu.script(Turn(content="one"), Turn(content="two"))
    http.get("/api/version")
    chat(http, options={"num_ctx": 16384, "temperature": 0.2}, keep_alive="30m")
    chat(http, tools=[TOOL])
    assert [(r.method, r.path) for r in emu.requests] == [
        ("GET", "/api/version"), ("POST", "/api/chat"), ("POST", "/api/chat")]
    first, second = emu.chat_requests()
    assert first["options"] == {"num_ctx": 16384, "temperature": 0.2} and first["keep_alive"] == "30m"
    assert second["tools"] == [TOOL]


def test_turns_are_served_from_any_thread(emu):
    emu.script(*[Turn(content=str(i)) for i in range(8)])
    answers: list[str] = []

    def ask():
        r = httpx.post(emu.url + "/api/chat", json={"model": "qwen3:8b", "messages": USER, "stream": False},
                       trust_env=False)
        answers.append(r.json()["message"]["content"])

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [str(i) for i in range(8)]
