"""@-mentions written by the message box read back whole (agent/mentions.py): names with spaces, quotes,
backslashes, accents and other scripts; @selection and @view; an e-mail address or an unknown name stays text."""

from __future__ import annotations

import pytest

from stacgis_agent.agent.map_context import LayerInfo, MapContext
from stacgis_agent.agent.mentions import Mentions, find_mentions, mention_text, with_mentions

NAMES = ['Routes d\'été "nord"', "parcels", "a\\b", "道路", "view", "NDVI 2024-06.", "roads"]


@pytest.mark.parametrize("name", NAMES)
def test_a_written_mention_reads_back_as_the_same_layer(name):
    assert find_mentions(f"buffer {mention_text(name)} by 10 m", NAMES).layers == (name,)


def test_words_case_and_what_is_not_a_mention():
    found = find_mentions("zoom to @Parcels, then @selection and @view; mail me@roads.org, see @nothing.", NAMES)
    assert found == Mentions(("parcels",), selection=True, view=True)
    assert find_mentions('the layer @"view" itself', NAMES) == Mentions(("view",))
    assert find_mentions("end of sentence @roads.", NAMES).layers == ("roads",)


def test_with_the_map_chip_off_only_what_was_named_is_sent():
    context = MapContext(extent=(0, 0, 1, 1), crs="EPSG:4326", active_layer="roads",
                         layers=(LayerInfo("roads", id="r1"), LayerInfo("parcels", id="p1")))
    mentions = find_mentions("count @parcels", NAMES)
    assert with_mentions(context, Mentions(), include_map=False) is None
    only = with_mentions(context, mentions, include_map=False)
    assert [layer.name for layer in only.layers] == ["parcels"] and only.extent is None and only.active_layer == ""
    assert only.mentions_data() == [{"layer": "parcels", "id": "p1", "kind": "vector"}]
    assert with_mentions(context, mentions, include_map=True).layers == context.layers
