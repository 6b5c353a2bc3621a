"""A long collection_statistics call through the dock, against a slow object store: a line appears under
"Calling collection_statistics" before any file has answered, and after the analyst presses Stop the line
says stopped — not "~926 s left" — even while reads that were in flight come back late."""

from __future__ import annotations

import json

import pytest
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest
from qgis.PyQt.QtWidgets import QAbstractItemView
from starlette.routing import Mount

from testkit.llm.ollama_emulator import Turn
from testkit.qgis_drivers.analyst_view import feed
from testkit.qgis_drivers.plugin_driver import process_until, send
from testkit.qgis_drivers.screen_checks import clipped_texts, save_shot, show_dock_at
from testkit.servers.cog_server import CogServer
from testkit.servers.loopback import server_missing
from testkit.servers.stac_api import StacApi, StacApiUnavailable
from testkit.worlds.collection_world import SlowFiles, make_collection_world

pytestmark = pytest.mark.server

SLOW_S = 0.5  # every request of the object store waits this long


@pytest.fixture(scope="module")
def slow(tmp_path_factory):
    root = tmp_path_factory.mktemp("slow-s2")
    cogs = CogServer(root, routes=[Mount("/slow", app=SlowFiles(root, SLOW_S))]).start()
    api = StacApi()
    try:
        world = make_collection_world(root, cogs.url + "/slow")
        try:
            api.start()
        except StacApiUnavailable as exc:
            server_missing(str(exc))
        api.load([world.collection()], world.items)
        yield api, cogs, world
    finally:
        api.stop()
        cogs.stop()


def test_a_line_shows_from_the_start_and_says_stopped_after_stop(make_plugin, emu, slow):
    api, cogs, world = slow
    plugin = make_plugin(catalogs=json.dumps([{"name": "Sentinel-2 Lyon", "url": api.url, "kind": "api"}]))
    show_dock_at(plugin, 320)  # a narrow dock: the stopped line is read whole there too
    seen: list[tuple[str, int]] = []  # each progress message with the bytes the store had sent by then
    plugin.runtime.panel.session.bridge.tool_progress.connect(
        lambda event: seen.append((event.message, sum(cogs.bytes_sent.values()))))
    cogs.reset_counts()
    emu.script(Turn(tool_calls=[("collection_statistics", {
        "collection": world.collection_id, "datetime": "2024-01-01/2024-12-31", "index": "NDVI",
        "polygon": world.area, "exact": True})]), Turn(content="Not reached: the analyst stopped."))
    send(plugin, "NDVI statistics over my Lyon study area for 2024")

    assert process_until(lambda: any(line.startswith("collection_statistics: ") for line in feed(plugin)), 20)
    lines = feed(plugin)
    below = lines[lines.index("Calling collection_statistics") + 1]
    assert below.startswith("collection_statistics: searching "), lines
    assert seen[0][0].startswith("searching ") and seen[0][1] == 0  # shown before any file byte came back

    assert process_until(lambda: any("s left" in line for line in feed(plugin)), 60), feed(plugin)
    QTest.mouseClick(plugin.runtime.panel.send_button, Qt.MouseButton.LeftButton)  # Send is Stop while busy
    assert process_until(lambda: not plugin.runtime.session.busy, 5)
    process_until(lambda: False, 2 * SLOW_S + 0.5)  # reads in flight answer late: they must not revive the line
    progress = [line for line in feed(plugin) if line.startswith("collection_statistics: ")]
    assert len(progress) == 1, progress
    assert "s left" not in progress[0] and "stopped" in progress[0], progress[0]
    assert clipped_texts(plugin.dock) == [], clipped_texts(plugin.dock)
    activity = plugin.runtime.panel.feed  # the analyst scrolls the feed up to the call they stopped
    activity.scrollToItem(activity.topLevelItem(feed(plugin).index("Calling collection_statistics")),
                          QAbstractItemView.ScrollHint.PositionAtTop)
    save_shot(plugin, "stopped")


def test_a_progress_note_arriving_after_stop_does_not_bring_back_seconds_left(plugin):
    from stacgis_agent.agent.events import Done, ToolProgress, ToolStart

    bridge = plugin.runtime.panel.session.bridge
    for event in (ToolStart(1, "c1", "collection_statistics", {}),
                  ToolProgress(1, "c1", "collection_statistics", 3, 412, "3 / 412 items, 0.2 MB read, ~926 s left"),
                  Done("s", "m", "", 0.0, stopped=True),
                  ToolProgress(1, "c1", "collection_statistics", 4, 412, "4 / 412 items, 0.3 MB read, ~900 s left")):
        bridge.emit_event(event)
    progress = [line for line in feed(plugin) if line.startswith("collection_statistics: ")]
    assert progress == ["collection_statistics: stopped (1 % done)"], progress
    # the next call, even under the same id, shows its progress again
    bridge.emit_event(ToolStart(1, "c1", "collection_statistics", {}))
    bridge.emit_event(ToolProgress(1, "c1", "collection_statistics", 0, 10, "0 / 10 items, 0.0 MB read"))
    assert feed(plugin)[-1] == "collection_statistics: 0 / 10 items, 0.0 MB read"
