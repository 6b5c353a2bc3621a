"""Scenarios 4–5: compare two dates over Lyon (change statistics, difference raster, chart), and a preference
remembered in PostgreSQL+pgvector that a NEW session (sessions in Redis) is given and uses."""

from __future__ import annotations

import uuid
from pathlib import Path

import numpy as np
import pytest
from qgis.core import QgsProject

from testkit.llm.ollama_emulator import Turn
from testkit.llm.reactive_emulator import tool_results
from testkit.qgis_drivers.analyst_view import chat, feed, saved_events, saved_sessions
from testkit.qgis_drivers.plugin_driver import run_coroutine, send, wait_turn
from testkit.servers.pg_server import shared_pg
from testkit.servers.redis_server import shared_redis
from testkit.worlds.e2e_world import DATES, INDEX_NODATA, LYON_BBOX

pytestmark = pytest.mark.server
JUNE, JULY = "2024-06-01/2024-06-30", "2024-07-01/2024-07-31"


def _compare_script(emu) -> None:
    emu.script(
        Turn(thinking="Compare June and July of the index.", tool_calls=[("detect_change", {
            "collection": "lyon-ndvi", "asset": "ndvi", "bbox": LYON_BBOX, "period_a": JUNE, "period_b": JULY})]),
        lambda body: Turn(tool_calls=[("generate_chart", {
            "chart_type": "bar", "x": ["June", "July"], "title": "Mean index",
            "series": {"mean": [tool_results(body, "detect_change")[0]["period_a"]["mean"],
                                tool_results(body, "detect_change")[0]["period_b"]["mean"]]}})]),
        lambda body: Turn(content="The index rose by {:.3f} on average; the east half greened.".format(
            tool_results(body, "detect_change")[0]["difference"]["mean"])))


def test_compare_the_two_dates_gives_numpy_figures_a_difference_raster_and_a_chart(lyon_plugin, emu, world):
    _compare_script(emu)
    send(lyon_plugin, "Compare the two dates and show what changed")
    wait_turn(lyon_plugin, 40)

    change = tool_results(emu.chat_requests()[-1], "detect_change")[0]
    a, b = world.index[DATES[0]], world.index[DATES[1]]
    valid = (a != INDEX_NODATA) & (b != INDEX_NODATA)
    expected = (b - a)[valid]
    assert change["difference"]["mean"] == pytest.approx(float(expected.mean()), abs=1e-5)
    assert change["difference"]["valid_pixels"] == int(valid.sum())
    assert change["period_a"]["mean"] == pytest.approx(float(a[valid].mean()), abs=1e-5)

    # The difference raster is a real GeoTIFF in the plugin's output folder, equal to B − A.
    from osgeo import gdal

    path = Path(change["difference_file"])
    assert path.is_relative_to(lyon_plugin.runtime.profile_dir)
    diff = gdal.Open(str(path)).ReadAsArray()
    assert np.allclose(diff[valid], (b - a)[valid], atol=1e-6) and np.isnan(diff[~valid]).all()

    chart = tool_results(emu.chat_requests()[-1], "generate_chart")[0]
    assert Path(chart["chart_file"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert chat(lyon_plugin)[-1] == (
        "assistant", f"The index rose by {float(expected.mean()):.3f} on average; the east half greened.")
    assert [e for e in feed(lyon_plugin) if e.startswith("Calling")] == ["Calling detect_change",
                                                                        "Calling generate_chart"]


def test_compare_the_two_dates_shows_a_diverging_difference_layer_and_the_chart_in_the_chat(lyon_plugin, emu):
    emu.script(
        Turn(tool_calls=[("detect_change", {
            "collection": "lyon-ndvi", "asset": "ndvi", "bbox": LYON_BBOX, "period_a": JUNE, "period_b": JULY})]),
        lambda body: Turn(tool_calls=[("add_result_layer", {
            "path": tool_results(body, "detect_change")[0]["difference_file"], "name": "NDVI change June→July"})]),
        lambda body: Turn(tool_calls=[("generate_chart", {
            "chart_type": "bar", "x": ["June", "July"], "title": "Mean index",
            "series": {"mean": [tool_results(body, "detect_change")[0]["period_a"]["mean"],
                                tool_results(body, "detect_change")[0]["period_b"]["mean"]]}})]),
        Turn(content="Here is what changed between June and July."))
    send(lyon_plugin, "Compare the two dates and show what changed")
    wait_turn(lyon_plugin, 40)

    layer = QgsProject.instance().mapLayersByName("NDVI change June→July")[0]
    shader = layer.renderer()
    assert shader.type() == "singlebandpseudocolor"
    assert shader.classificationMin() == pytest.approx(-shader.classificationMax())  # centred on zero
    assert shader.classificationMax() == pytest.approx(0.15, abs=0.02)  # the greening, not the nodata
    ramp = shader.shader().rasterShaderFunction().colorRampItemList()
    middle = ramp[len(ramp) // 2].color
    assert abs(middle.red() - middle.blue()) < 40  # neutral at no change; blue and red at the ends
    assert ramp[0].color.blue() > ramp[0].color.red() and ramp[-1].color.red() > ramp[-1].color.blue()

    answer = lyon_plugin.runtime.panel.conversation.bubbles()[-1]
    assert answer.text() == "Here is what changed between June and July."
    chart = tool_results(emu.chat_requests()[-1], "generate_chart")[0]["chart_file"]
    assert answer.images() == [chart]


def _remember(make_plugin, emu, world):
    redis, pg = shared_redis(), shared_pg()
    user = "analyst-" + uuid.uuid4().hex[:8]
    plugin = make_plugin(catalogs=world.catalogs_env, redis_url=redis.url, postgres_dsn=pg.dsn, user=user)
    emu.script(Turn(tool_calls=[("add_memory", {"content": "The user works in EPSG:2154 (Lambert-93).",
                                                "kind": "preference"})]),
               Turn(content="Noted: I will use EPSG:2154."))
    send(plugin, "Remember that I work in EPSG:2154")
    wait_turn(plugin)
    first_session = plugin.runtime.session.session_id
    assert chat(plugin)[-1] == ("assistant", "Noted: I will use EPSG:2154.")

    run_coroutine(plugin.runtime.panel.new_session())
    assert chat(plugin) == []
    emu.script(Turn(content="Your parcels will be reprojected to EPSG:2154."))
    send(plugin, "Which CRS should the parcels be in?")
    wait_turn(plugin)
    return plugin, first_session


def test_a_remembered_crs_is_kept_in_pgvector_and_a_new_session_starts_clean(make_plugin, emu, world):
    plugin, first_session = _remember(make_plugin, emu, world)
    runtime = plugin.runtime
    import redis as redis_client

    with redis_client.Redis.from_url(shared_redis().url) as r:  # both sessions live in Redis
        assert r.exists(f"session:{first_session}") and r.exists(f"session:{runtime.session.session_id}")
    vector = run_coroutine(runtime.provider.embed(["EPSG:2154"]))[0]
    hits = run_coroutine(runtime.stores.memories.search(runtime.settings.user, vector, k=3,
                                                        model=runtime.settings.embedding_model))
    assert [h.content for h in hits] == ["The user works in EPSG:2154 (Lambert-93)."]
    # Only the new question is in the new session's history.
    users = [m["content"] for m in emu.chat_requests()[-1]["messages"] if m["role"] == "user"]
    assert len(users) == 1 and users[0].startswith("Which CRS")
    assert chat(plugin)[-1] == ("assistant", "Your parcels will be reprojected to EPSG:2154.")
    sessions = {s.session_id for s in saved_sessions(plugin)}
    assert {first_session, runtime.session.session_id} <= sessions
    assert any(e.get("tool_name") == "add_memory" for e in saved_events(plugin, first_session))


def test_a_new_session_is_given_the_remembered_crs(make_plugin, emu, world):
    _remember(make_plugin, emu, world)
    # memories ride with the user's message (after the history, so the model's cache keeps the rest)
    asked = emu.chat_requests()[-1]["messages"][-1]
    assert asked["role"] == "user" and "[memories] " in asked["content"], asked
    memories = asked["content"].split("[memories] ", 1)[1]
    assert "EPSG:2154" in memories and "remember" in memories.lower(), memories

