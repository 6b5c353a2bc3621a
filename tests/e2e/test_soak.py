"""Soak in one QGIS session: the plugin loaded and unloaded 50 times, then 200 short scripted turns.
Memory, file descriptors, threads and asyncio tasks must stay flat; the figures are printed (run with -s)
and written to $STACGIS_SOAK_REPORT when set, for bench/report.py."""

from __future__ import annotations

import json
import os
import time

from testkit.llm.ollama_emulator import Turn
from testkit.qgis_drivers.plugin_driver import process_until, run_coroutine, send, wait_turn
from testkit.qgis_drivers.plugin_loader import dock_into_main_window, load_plugin, unload_plugin
from testkit.qgis_drivers.process_gauges import read_gauges

LOADS, TURNS, TURNS_PER_CHAT = 50, 200, 25


def _settle() -> None:
    process_until(lambda: False, 0.5)


def test_soak_load_unload_and_turns_stay_flat(qgis_iface, qgis_new_project, emu, tmp_path, monkeypatch):
    dock_into_main_window(qgis_iface, monkeypatch)
    monkeypatch.setenv("STACGIS_OLLAMA_URL", emu.url)
    monkeypatch.setenv("STACGIS_DATA_DIR", str(tmp_path / "profile"))
    emu.default_turn = Turn(content="Short answer.", chunk_chars=64)

    for _ in range(3):  # warm-up: imports, GDAL and Qt caches are filled once per process
        unload_plugin(load_plugin(qgis_iface), settle_s=0.1)
    _settle()
    started = time.monotonic()
    before_loads = read_gauges()
    for _ in range(LOADS):
        plugin = load_plugin(qgis_iface)
        assert process_until(lambda p=plugin: "Connected" in p.dock.status.text(), 5)
        unload_plugin(plugin, settle_s=0.05)
    _settle()
    after_loads = read_gauges()
    loads_s = time.monotonic() - started

    plugin = load_plugin(qgis_iface)
    try:
        started = time.monotonic()
        for i in range(TURNS):
            if i and i % TURNS_PER_CHAT == 0:
                run_coroutine(plugin.runtime.panel.new_session())
            send(plugin, f"question {i}")
            wait_turn(plugin, 10)
            if i == TURNS_PER_CHAT:  # the first chat warmed the turn path up; compare inside a chat with one
                _settle()
                before_turns = read_gauges()
        turns_s = time.monotonic() - started
        assert plugin.runtime.panel.conversation.bubbles()[-1].text() == "Short answer."
        sessions = run_coroutine(plugin.runtime.stores.sessions.list(plugin.runtime.settings.user))
        assert len(sessions) == -(-TURNS // TURNS_PER_CHAT)
        _settle()
        after_turns = read_gauges()
    finally:
        unload_plugin(plugin)
    _settle()
    after_unload = read_gauges()

    report = {"loads": LOADS, "load_unload_s": round(loads_s, 1), "before_loads": before_loads.__dict__,
              "after_loads": after_loads.__dict__, "load_growth": before_loads.growth(after_loads),
              "turns": TURNS, "turns_s": round(turns_s, 1), "before_turns": before_turns.__dict__,
              "after_turns": after_turns.__dict__, "turn_growth": before_turns.growth(after_turns),
              "after_unload": after_unload.__dict__}
    print("SOAK", json.dumps(report))
    if os.environ.get("STACGIS_SOAK_REPORT"):
        with open(os.environ["STACGIS_SOAK_REPORT"], "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)

    load_growth, turn_growth = report["load_growth"], report["turn_growth"]
    assert load_growth["fds"] <= 3 and turn_growth["fds"] <= 3, report
    assert load_growth["os_threads"] <= 2 and turn_growth["os_threads"] <= 2, report
    assert load_growth["py_threads"] <= 1 and turn_growth["py_threads"] <= 1, report
    assert after_loads.tasks <= before_loads.tasks and after_turns.tasks <= before_turns.tasks, report
    assert load_growth["rss_mb"] < 60 and turn_growth["rss_mb"] < 40, report
    # Unloaded, the plugin leaves nothing running: no task, thread or socket of its own.
    assert after_unload.tasks == 0 and after_unload.py_threads <= before_loads.py_threads, report
    # Qt's worker threads (each with an eventfd) started by the first turns stay until their idle expiry; flat.
    assert after_unload.fds <= after_turns.fds and after_unload.os_threads <= after_turns.os_threads, report
