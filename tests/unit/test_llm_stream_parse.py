"""The content scanner and the NDJSON parser on their own: every split point, odd model output."""

from __future__ import annotations

import json

import pytest

from stacgis_agent.agent.llm.content_scan import ContentScanner
from stacgis_agent.agent.llm.errors import StreamError
from stacgis_agent.agent.llm.stream_parse import OllamaStreamParser
from stacgis_agent.agent.llm.types import ContentChunk, FinalChunk, ThinkingChunk, ToolCallChunk

TEXT = ('Intro <think>plan a < b</think>\n\nAnswer: a<b and c>d '
        '<tool_call>{"name": "zoom_to", "arguments": {"layer_id": "roads"}}</tool_call> done')


def scan(pieces, known=("zoom_to",)):
    scanner = ContentScanner(known)
    chunks = [c for p in pieces for c in scanner.feed(p)] + scanner.finish()
    return ("".join(c.text for c in chunks if isinstance(c, ContentChunk)),
            "".join(c.text for c in chunks if isinstance(c, ThinkingChunk)),
            [(c.call.name, c.call.arguments) for c in chunks if isinstance(c, ToolCallChunk)])


@pytest.mark.parametrize("cut", range(1, len(TEXT)))
def test_same_result_wherever_the_text_is_cut(cut):
    assert scan([TEXT[:cut], TEXT[cut:]]) == (
        "Intro Answer: a<b and c>d  done", "plan a < b", [("zoom_to", {"layer_id": "roads"})])


def test_one_character_at_a_time():
    assert scan(list(TEXT)) == scan([TEXT])


def test_function_tag_with_parameters_inside_tool_call():
    text = "<tool_call><function=buffer><parameter=layer>roads</parameter><parameter=distance>50</parameter>" \
           "</function></tool_call>"
    assert scan([text]) == ("", "", [("buffer", {"layer": "roads", "distance": 50})])


def test_unterminated_tool_call_at_the_end_is_still_recovered():
    assert scan(['<tool_call>{"name": "zoom_to", "arguments": {"layer_id": "x"}}']) == (
        "", "", [("zoom_to", {"layer_id": "x"})])


def test_stray_closing_think_tag_is_dropped_and_unknown_json_is_shown():
    assert scan(["</think>\n\nHello"]) == ("Hello", "", [])
    assert scan(['[1, 2, 3]']) == ("[1, 2, 3]", "", [])
    assert scan(['{"name": "zoom_to", "arguments": {}} {"name": "zoom_to", "parameters": {"a": 1}}']) == (
        "", "", [("zoom_to", {}), ("zoom_to", {"a": 1})])
    assert scan(['{"name": "zoom_to"}'], known=()) == ('{"name": "zoom_to"}', "", [])


def line(**message):
    return json.dumps({"model": "m", "message": {"role": "assistant", "content": "", **message}, "done": False})


def test_parser_assembles_the_final_answer():
    parser = OllamaStreamParser()
    chunks = []
    for raw in (line(thinking="hm"), line(content="Hi "), line(content="there"),
                line(tool_calls=[{"function": {"name": "a", "arguments": '{"x": 1}'}}]),
                json.dumps({"model": "m", "message": {"role": "assistant", "content": ""}, "done": True,
                            "done_reason": "stop", "prompt_eval_count": 12, "eval_count": 3})):
        chunks.extend(parser.feed(raw))
    final = chunks[-1]
    assert isinstance(final, FinalChunk)
    assert (final.response.content, final.response.thinking) == ("Hi there", "hm")
    assert final.response.tool_calls[0].arguments == {"x": 1}
    assert final.response.usage.prompt_eval_count == 12 and final.response.model == "m"


def test_error_line_before_any_output_allows_a_fallback():
    parser = OllamaStreamParser()
    with pytest.raises(StreamError) as info:
        parser.feed('{"error": "model runner has unexpectedly stopped"}')
    assert info.value.before_output is True
    with pytest.raises(StreamError):
        parser.feed("<html>502 Bad Gateway</html>")
