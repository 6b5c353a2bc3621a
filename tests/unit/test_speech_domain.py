"""The domain model that picks, among Whisper's transcripts and their near misses, the request an analyst makes:
what it prefers, what it proposes, where its words come from, and that it never saw the held-out requests."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from stacgis_agent.tools.engine import speech_domain, speech_sphinx
from stacgis_agent.tools.engine.speech_words import normalise

HELD_OUT = Path(__file__).resolve().parents[1] / "data" / "voice" / "held_out_requests.json"
needs_dictionary = pytest.mark.skipif(not speech_sphinx.available(), reason="pocketsphinx (its CMU dictionary) "
                                      "is not installed: requirements-dev.txt")


@pytest.fixture(scope="module")
def domain():
    return speech_domain.domain_model(("vineyards_2024",))


def test_a_request_the_product_knows_is_likelier_than_what_a_general_model_heard(domain):
    assert domain.logp("Search Landsat for Texas.") > domain.logp("Search and set for Texas.")
    assert domain.logp("Undo the last change.") > domain.logp("And do the last change.")
    assert domain.logp("Show the NDVI of Paris in August.") > domain.logp("Show the NDVI on Paris in August.")
    assert domain.logp("Zoom to the vineyards 2024") > domain.logp("Zoom to the vine yards 2024")  # layer names


@needs_dictionary
def test_a_span_that_sounds_like_a_word_the_product_knows_is_proposed(domain):
    assert "Search Landsat for Texas." in domain.near_misses("Search and set for Texas.")
    assert "Mark the clouds with the SCL band." in domain.near_misses("Mark the clothes with the SCL band.")
    assert "Add OpenStreetMap under the raster." in domain.near_misses("Add OpenStreetMap under the roster.")
    assert "Show the NDVI of June." in domain.near_misses("Show the NDVI on June.")


def test_the_words_of_the_tools_descriptions_are_read_without_importing_the_tools():
    before = set(sys.modules)
    phrases = speech_domain.tool_phrases()
    assert "export the layout as PDF" in phrases  # an example request quoted by export_print_layout
    assert any("north arrow" in phrase for phrase in phrases)  # make_print_layout's description
    assert not {name for name in set(sys.modules) - before if ".tools." in name and ".engine." not in name}


def test_the_model_never_saw_a_held_out_request():
    """Its sentences are the product's: none is a request of the held-out set, and none shares more than seven
    words in a row with one (the longest shared run, 7 words, is a dock phrase written before the held-out set:
    "images with less than ten percent cloud cover"); else the held-out word error rate would flatter it."""
    corpus = [normalise(sentence) for sentence in speech_domain.corpus(())]
    eight = {tuple(words[i:i + 8]) for words in corpus for i in range(len(words) - 7)}
    for request in json.loads(HELD_OUT.read_text())["requests"]:
        words = normalise(request["text"])
        assert words not in corpus, request["text"]
        assert not {tuple(words[i:i + 8]) for i in range(len(words) - 7)} & eight, request["text"]
