"""The constrained-JSON protocol on its own: the schema, the prompt, the history, reading replies."""

import json

import jsonschema
import pytest

from stacgis_agent.agent.llm.constrained import (
    ConstrainedReply,
    action_schema,
    constrained_messages,
    describe_tools,
)
from stacgis_agent.agent.llm.types import ChatResponse, ContentChunk, ToolCall, ToolCallChunk

ZOOM = {"type": "function", "function": {
    "name": "zoom_to_location", "description": "Zoom the map to a named place.",
    "parameters": {"type": "object", "properties": {
        "place": {"type": "string", "description": "a place name"},
        "scale": {"type": "number"}}, "required": ["place"]}}}
STATS = {"type": "function", "function": {
    "name": "raster_stats", "description": "Band statistics of a raster layer.",
    "parameters": {"type": "object", "properties": {"layer": {"type": "string"},
                                                    "band": {"type": "integer", "enum": [1, 2, 3]}},
                   "required": ["layer"]}}}


@pytest.mark.parametrize("reply, valid", [
    ({"tool": "zoom_to_location", "arguments": {"place": "Lyon"}}, True),
    ({"tool": "raster_stats", "arguments": {"layer": "ndvi", "band": 2}}, True),
    ({"answer": "Lyon is in France."}, True),
    ({"tool": "delete_everything", "arguments": {}}, False),  # not one of this step's tools
    ({"tool": "zoom_to_location", "arguments": {}}, False),  # a required argument missing
    ({"tool": "raster_stats", "arguments": {"layer": "ndvi", "band": 7}}, False),  # outside the enum
    ({"answer": 42}, False),
])
def test_the_schema_allows_exactly_one_call_of_a_given_tool_or_an_answer(reply, valid):
    schema = action_schema([ZOOM, STATS])
    if valid:
        jsonschema.validate(reply, schema)
    else:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(reply, schema)


def test_without_tools_only_an_answer_is_allowed():
    schema = action_schema(None)
    jsonschema.validate({"answer": "done"}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"tool": "zoom_to_location", "arguments": {"place": "Lyon"}}, schema)


def test_tools_are_described_as_compact_signatures():
    text = describe_tools([ZOOM, STATS])
    assert text.splitlines() == [
        "- zoom_to_location(place: string — a place name; scale?: number): Zoom the map to a named place.",
        '- raster_stats(layer: string; band?: 1|2|3): Band statistics of a raster layer.',
    ]


def test_history_becomes_alternating_plain_turns_with_the_protocol_in_the_system_prompt():
    history = [
        {"role": "system", "content": "You are a GIS assistant."},
        {"role": "user", "content": "zoom to Lyon"},
        {"role": "assistant", "content": "", "thinking": "a place", "tool_calls": [
            {"id": "call_1", "function": {"index": 0, "name": "zoom_to_location", "arguments": {"place": "Lyon"}}}]},
        {"role": "tool", "tool_name": "zoom_to_location", "tool_call_id": "call_1", "content": '{"ok": true}',
         "images": ["iVBORw0KGgo="]},
        {"role": "system", "content": "Answer now."},
    ]
    out = constrained_messages(history, [ZOOM])
    assert [m["role"] for m in out] == ["system", "user", "assistant", "user"]
    assert out[0]["content"].startswith("You are a GIS assistant.")
    assert "- zoom_to_location(place: string" in out[0]["content"] and '{"answer":' in out[0]["content"]
    assert json.loads(out[2]["content"]) == {"tool": "zoom_to_location", "arguments": {"place": "Lyon"}}
    assert out[2]["thinking"] == "a place"
    assert out[3]["content"] == 'Result of zoom_to_location: {"ok": true}\n\nAnswer now.'
    assert out[3]["images"] == ["iVBORw0KGgo="]
    assert history[2]["tool_calls"], "the stored history is left as it was"


def feed_all(reply: ConstrainedReply, pieces: list[str]) -> str:
    shown = []
    for piece in pieces:
        for chunk in reply.feed(piece):
            assert isinstance(chunk, ContentChunk)
            shown.append(chunk.text)
    return "".join(shown)


def test_an_answer_streams_as_it_arrives_even_with_escapes_cut_in_two():
    raw = json.dumps({"answer": 'Mean NDVI is 0.42 — "healthy"\nsee layer \u00e9t\u00e9'}, ensure_ascii=True)
    reply = ConstrainedReply()
    pieces = [raw[i:i + 3] for i in range(0, len(raw), 3)]
    first_visible = next(i for i in range(len(pieces)) if reply.feed(pieces[i]))
    assert first_visible < len(pieces) // 2, "the answer is shown while it is being written"
    reply2 = ConstrainedReply()
    shown = feed_all(reply2, pieces)
    response, late = reply2.response(ChatResponse(content=raw))
    assert shown == 'Mean NDVI is 0.42 — "healthy"\nsee layer été'
    assert response.content == shown and late == [] and response.tool_calls == ()


def test_a_tool_call_is_read_whole_into_the_native_structure():
    raw = '{ "tool": "zoom_to_location", "arguments": {"place": "Lyon"} }'
    reply = ConstrainedReply(["zoom_to_location"])
    assert feed_all(reply, [raw[:10], raw[10:]]) == ""
    response, late = reply.response(ChatResponse(content=raw, done_reason="stop"))
    assert [type(c) for c in late] == [ToolCallChunk]
    call = response.tool_calls[0]
    assert isinstance(call, ToolCall) and (call.name, call.arguments) == ("zoom_to_location", {"place": "Lyon"})
    assert call.id.startswith("call_") and late[0].call == call
    assert response.content == ""
    assert response.as_message()["tool_calls"][0]["function"]["arguments"] == {"place": "Lyon"}


def test_an_answer_cut_by_the_length_limit_keeps_what_came():
    reply = ConstrainedReply()
    shown = feed_all(reply, ['{"answer": "The scene over Ly'])
    response, late = reply.response(ChatResponse(content='{"answer": "The scene over Ly', done_reason="length"))
    assert shown == response.content == "The scene over Ly"
    assert response.done_reason == "length" and late == []


def test_text_around_the_object_or_plain_text_is_not_lost():
    reply = ConstrainedReply()
    feed_all(reply, ['Sure! {"answer": "ok"}'])
    response, late = reply.response(ChatResponse(content=""))
    assert response.content == "ok" and [c.text for c in late] == ["ok"]
    plain = ConstrainedReply()
    feed_all(plain, ["no JSON at all"])
    response, late = plain.response(ChatResponse(content=""))
    assert response.content == "no JSON at all" and [c.text for c in late] == ["no JSON at all"]


def test_a_raw_newline_inside_a_string_does_not_lose_the_call():
    """llama-cpp-python's JSON grammar lets a raw newline into a string value."""
    raw = '{"tool": "zoom_to_location", "arguments": {"place": "Ly\non"}}'
    reply = ConstrainedReply(["zoom_to_location"])
    feed_all(reply, [raw])
    response, _ = reply.response(ChatResponse(content=raw))
    assert response.tool_calls[0].arguments == {"place": "Ly\non"}


def test_a_tool_call_cut_by_the_length_limit_is_not_run_and_not_shown_as_json():
    raw = '{"tool": "zoom_to_location", "arguments": {"lon": 4.85, "lat": 45.'
    reply = ConstrainedReply(["zoom_to_location"])
    feed_all(reply, [raw])
    response, late = reply.response(ChatResponse(content=raw, done_reason="length"))
    assert response.tool_calls == ()
    assert "'zoom_to_location' was cut off" in response.content and "{" not in response.content
    assert [c.text for c in late] == [response.content]
