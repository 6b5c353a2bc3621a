from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from stacgis_agent.agent.tool_ranking import ToolSelector, ToolText, keywords
from testkit.llm.ollama_replies import embed_text

DATA = Path(__file__).resolve().parents[1] / "data"


async def _embed(texts):
    _embed.calls.append(list(texts))
    return [embed_text(t) for t in texts]


_embed.calls = []


def _catalogue() -> list[ToolText]:
    tools = json.loads((DATA / "tool_catalogue.json").read_text())["tools"]
    return [ToolText(t["name"], t["description"]) for t in tools]


def test_keywords_meet_across_plurals_and_underscores():
    assert {"layer", "zoom"} <= keywords("Zoom to the layers")
    assert "raster" in keywords("clip_raster_by_mask")
    assert "the" not in keywords("the map")


def test_words_ending_in_e_meet_their_plurals_and_past_forms():
    # "how many features" must reach a tool that counts each "feature"; "changed" a tool that "changes"
    for one, other in (("feature", "features"), ("line", "lines"), ("image", "images"), ("change", "changed"),
                       ("style", "styles"), ("zone", "zones")):
        assert keywords(one) == keywords(other), (one, other)
    assert keywords("boxes") == keywords("box") and keywords("classes") == keywords("class")


async def test_score_is_cosine_plus_a_tenth_per_shared_keyword_weighted_by_rarity():
    selector = ToolSelector(_embed)
    tools = [ToolText("buffer", "Buffer the features of a vector layer by a distance."),
             ToolText("slope", "Compute slope in degrees from an elevation raster (DEM)."),
             ToolText("zoom", "Zoom the map to a layer.")]
    await selector.index(tools)
    query = "buffer the layer by 100 m"
    scores = selector.scores(query, embed_text(query))
    cos = [float(np.dot(embed_text(query), embed_text(t.text))) for t in tools]
    rare = 0.1 * np.log(3 / 1) / np.log(3)  # "buffer": one tool of three has it
    common = 0.1 * np.log(3 / 2) / np.log(3)  # "layer": two of three
    assert abs(scores[0] - (cos[0] + rare + common)) < 1e-6
    assert abs(scores[1] - cos[1]) < 1e-6
    assert abs(scores[2] - (cos[2] + common)) < 1e-6


def test_a_word_many_tools_share_does_not_outrank_the_word_that_names_the_task():
    tools = [ToolText("zoom_to_location", "Move the map to a location, a bbox or a layer."),
             ToolText("search_items", "Find scenes at a location and dates."),
             ToolText("query_raster_point", "Elevation or any raster value at one point.")]
    selector = ToolSelector(None)
    import asyncio

    asyncio.run(selector.index(tools))
    assert selector.select("what is the elevation at this location", k=1) == ["query_raster_point"]
    # a tie on keywords goes to the tool whose name holds the word, not to the first in the list
    assert selector.select("location", k=1) == ["zoom_to_location"]


async def test_tool_embeddings_are_cached_by_name_and_description():
    _embed.calls.clear()
    selector = ToolSelector(_embed)
    tools = _catalogue()
    await selector.index(tools)
    await selector.index(tools)
    changed = tools[:-1] + [ToolText(tools[-1].name, "A new description")]
    await selector.index(changed)
    assert [len(c) for c in _embed.calls] == [len(tools), 1]
    # another chat with the same embedding model reuses the vectors
    _embed.calls.clear()
    first = ToolSelector(_embed, embedding_model="test-model-a")
    await first.index(tools)
    await ToolSelector(_embed, embedding_model="test-model-a").index(tools)
    await ToolSelector(_embed, embedding_model="test-model-b").index(tools)
    assert [len(c) for c in _embed.calls] == [len(tools), len(tools)]


async def test_select_respects_allow_list_and_always_includes_required_tools():
    selector = ToolSelector(_embed, top_k=5)
    await selector.index(_catalogue())
    query = "Buffer the rivers by 100 metres"
    top = selector.select(query, embed_text(query))
    assert top[0] == "buffer" and len(top) == 5
    allowed = {"slope", "aspect", "remember", "buffer"}
    limited = selector.select(query, embed_text(query), allowed=allowed - {"buffer"}, required=["remember"])
    assert limited[0] == "remember" and set(limited) <= allowed and "buffer" not in limited


async def test_recall_at_20_on_the_labelled_requests():
    labels = json.loads((DATA / "tool_selection_labels.json").read_text())["labels"]
    assert len(labels) >= 60
    selector = ToolSelector(_embed, top_k=20)
    await selector.index(_catalogue())
    hits = total = 0
    for label in labels:
        chosen = selector.select(label["request"], embed_text(label["request"]))
        hits += sum(name in chosen for name in label["expected"])
        total += len(label["expected"])
    # measured 0.93 with the emulator's bag-of-words embedding (bench_agent_selection.py prints it)
    assert hits / total >= 0.9


async def test_without_embeddings_selection_falls_back_to_keywords():
    async def broken(texts):
        raise RuntimeError("model 'nomic-embed-text' not found")

    selector = ToolSelector(broken, top_k=3)
    await selector.index(_catalogue())
    assert not selector.embeddings_ok
    assert selector.select("generate contour lines from the DEM")[0] == "contour_lines"


async def test_nomic_embed_text_gets_its_task_prefixes_over_the_wire():
    """nomic-embed-text ranks far worse without `search_query: ` / `search_document: `."""
    from stacgis_agent.agent.llm.ollama import OllamaProvider
    from stacgis_agent.agent.visible_tools import ToolSet
    from testkit.llm.ollama_emulator import OllamaEmulator

    with OllamaEmulator() as emu:
        provider = OllamaProvider(emu.url, "qwen3:8b", embed_model="nomic-embed-text")
        try:
            selector = ToolSelector(provider.embed, embedding_model="nomic-embed-text:latest")
            await selector.index(_catalogue()[:3])
            tools = ToolSet(selector, provider.embed, mode="chat", top_k=2, embedding_model="nomic-embed-text")
            await tools.for_step("slope of the DEM")
        finally:
            await provider.aclose()
        inputs = [r.body["input"] for r in emu.requests if r.path == "/api/embed"]
    assert all(text.startswith("search_document: ") for text in inputs[0]) and len(inputs[0]) == 3
    assert inputs[1] == ["search_query: slope of the DEM"]
