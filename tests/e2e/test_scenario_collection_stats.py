"""Done-when scenario of issue 19: "NDVI statistics over Lyon for 2024" through the dock against the real STAC
API — the analyst sees progress in the activity feed, a per-date table, a chart in the answer and an NDVI
layer on the map, and the numbers equal numpy on the same pixels."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from qgis.core import QgsProject

from testkit.llm.ollama_emulator import Turn
from testkit.llm.reactive_emulator import tool_results
from testkit.qgis_drivers.analyst_view import chat, feed
from testkit.qgis_drivers.plugin_driver import send, wait_turn
from testkit.worlds.collection_world import COLLECTION, DATES, expected_ndvi, served_collection_world

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def s2_servers(tmp_path_factory):
    """Its own STAC API and COG server: the shared Lyon world's catalog stays as other scenarios expect it."""
    with served_collection_world(tmp_path_factory.mktemp("s2")) as served:
        yield served


@pytest.fixture
def s2(s2_servers):
    return s2_servers[1]


@pytest.fixture
def s2_plugin(make_plugin, s2_servers):
    return make_plugin(catalogs=json.dumps([{"name": "Sentinel-2 Lyon", "url": s2_servers[0].url, "kind": "api"}]))


def _table(rows: list[dict]) -> str:
    lines = ["| date | items | mean NDVI | valid |", "|---|---|---|---|"]
    lines += [f"| {r['period']} | {r['items']} | {r['mean']:.3f} | {100 * r['valid_fraction']:.0f} % |" for r in rows]
    return "\n".join(lines)


def test_ndvi_statistics_over_lyon_for_2024_show_progress_a_table_a_chart_and_a_layer(s2_plugin, emu, s2):
    emu.script(
        Turn(thinking="Statistics of NDVI over the area for the year.", tool_calls=[("collection_statistics", {
            "collection": COLLECTION, "datetime": "2024-01-01/2024-12-31", "index": "NDVI", "polygon": s2.area,
            "exact": True})]),
        Turn(tool_calls=[("compute_index", {"index": "NDVI", "collection": COLLECTION, "datetime": DATES[0],
                                            "polygon": s2.area, "exact": True})]),
        lambda body: Turn(content="NDVI over the area in 2024:\n\n"
                          + _table(tool_results(body, "collection_statistics")[0]["rows"])))
    send(s2_plugin, "NDVI statistics over my Lyon study area for 2024")
    wait_turn(s2_plugin, 60)

    stats = tool_results(emu.chat_requests()[-1], "collection_statistics")[0]
    rows = {r["period"]: r for r in stats["rows"]}
    assert list(rows) == list(DATES)
    for date in DATES[:2]:  # tile A alone: numpy on its own pixels
        expected = expected_ndvi(s2, f"A-{date}")
        valid = expected[np.isfinite(expected)]
        assert rows[date]["valid_pixels"] == valid.size
        assert rows[date]["mean"] == pytest.approx(valid.mean(), abs=1e-6)
    assert rows[DATES[2]]["items"] == 2 and rows[DATES[2]]["valid_pixels"] == stats["area_pixels"]

    # progress in the activity feed, in the analyst's words
    lines = feed(s2_plugin)
    assert any(line.startswith("collection_statistics: 4 / 4 items, ") and "MB read" in line for line in lines)
    assert any(line.startswith("compute_index: 1 / 1 items") for line in lines)
    # the per-date table and the chart in the answer bubble
    role, text = chat(s2_plugin)[-1]
    assert role == "assistant" and f"| {DATES[0]} | 1 | {rows[DATES[0]]['mean']:.3f} |" in text
    answer = s2_plugin.runtime.panel.conversation.bubbles()[-1]
    assert answer.images() == [stats["chart_file"]]
    assert Path(stats["chart_file"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert Path(stats["csv_file"]).read_text().splitlines()[0].startswith("period,items,mean")
    # the NDVI layer on the map, legend naming the formula
    layers = [lyr for lyr in QgsProject.instance().mapLayers().values() if lyr.name().startswith("NDVI")]
    assert len(layers) == 1 and "(nir − red) / (nir + red)" in layers[0].name()
    assert layers[0].renderer().type() == "singlebandpseudocolor"
