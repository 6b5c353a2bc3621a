"""Faults on the catalog side, met through the real plugin: the STAC API down, too slow, answering 500 or
broken JSON, an item whose asset href is broken, and a 10 MB item. Each leaves QGIS running, tells the analyst
(and the model) what happened and what to do, adds nothing half-made, and the next request works."""

from __future__ import annotations

import json

import httpx
import pytest
from qgis.core import QgsProject

from testkit.llm.ollama_emulator import Turn
from testkit.llm.reactive_emulator import tool_messages
from testkit.qgis_drivers.analyst_view import chat, feed, saved_events, saved_sessions
from testkit.qgis_drivers.plugin_driver import send, wait_turn
from testkit.servers.faulty_stac import FaultyStac
from testkit.servers.loopback import free_port

SEARCH = ("search_items", {"collections": ["scenes"], "limit": 5})


@pytest.fixture
def stac(tmp_path):
    server = FaultyStac(tmp_path / "stac").start()
    yield server
    server.stop()


def _tool_error_to_model(emu, name: str) -> str:
    messages = tool_messages(emu.chat_requests()[-1], name)
    assert messages, f"the model was not given the {name} outcome"
    return json.loads(messages[-1]["content"])["error"]


def _ask_search(plugin, emu) -> str:
    emu.script(Turn(tool_calls=[SEARCH]), Turn(content="The catalog has a problem right now."))
    send(plugin, "Find scenes")
    wait_turn(plugin, 30)
    assert chat(plugin)[-1] == ("assistant", "The catalog has a problem right now.")
    assert any(e.startswith("search_items failed") or "search_items" in e and "fail" in e.lower()
               for e in feed(plugin)), feed(plugin)
    return _tool_error_to_model(emu, "search_items")


def _works_again(plugin, emu) -> None:
    emu.script(Turn(tool_calls=[SEARCH]), Turn(content="Found scene-1."))
    send(plugin, "Find scenes again")
    wait_turn(plugin, 30)
    assert chat(plugin)[-1] == ("assistant", "Found scene-1.")
    assert "scene-1" in tool_messages(emu.chat_requests()[-1], "search_items")[-1]["content"]
    asked = [e["text"] for e in saved_events(plugin) if e["type"] == "user_message"]
    assert len(asked) == 2 and asked[-1] == "Find scenes again"  # the failed request was kept too


def test_stac_api_down(make_plugin, emu):
    url = f"http://127.0.0.1:{free_port()}"
    plugin = make_plugin(catalogs=json.dumps([{"name": "Team", "url": url, "kind": "api"}]))
    error = _ask_search(plugin, emu)
    assert "unreachable" in error and "Check that it is running" in error and url in error
    assert saved_sessions(plugin)[0].message_count >= 2


def test_stac_api_too_slow(make_plugin, emu, stac):
    plugin = make_plugin(catalogs=stac.catalogs_env())
    plugin.runtime.http.timeout = httpx.Timeout(1.0)  # a catalog slower than the client waits
    stac.faults.delay_s = 2.0
    error = _ask_search(plugin, emu)
    assert "did not answer in time" in error and "try again" in error
    stac.faults.delay_s = 0.0
    _works_again(plugin, emu)


@pytest.mark.parametrize("fault, words", [("status", ("HTTP 500", "try again later")),
                                          ("malformed", ("not JSON", "Check the catalog URL"))])
def test_stac_api_500_or_malformed_json(make_plugin, emu, stac, fault, words):
    plugin = make_plugin(catalogs=stac.catalogs_env())
    setattr(stac.faults, fault, 500 if fault == "status" else True)
    error = _ask_search(plugin, emu)
    assert all(w in error for w in words), error
    setattr(stac.faults, fault, 200 if fault == "status" else False)
    _works_again(plugin, emu)


def test_item_with_a_broken_asset_href_adds_nothing(make_plugin, emu, stac):
    plugin = make_plugin(catalogs=stac.catalogs_env())
    emu.script(Turn(tool_calls=[("load_stac_asset", {"collection": "scenes", "item_id": "scene-1",
                                                     "asset": "broken"})]),
               Turn(content="That asset cannot be read."))
    send(plugin, "Show the broken asset")
    wait_turn(plugin, 30)
    error = _tool_error_to_model(emu, "load_stac_asset")
    assert "missing.tif" in error or "could not" in error.lower(), error
    assert QgsProject.instance().mapLayers() == {} and QgsProject.instance().layerTreeRoot().children() == []
    assert chat(plugin)[-1] == ("assistant", "That asset cannot be read.")


def test_a_10_mb_item_is_cut_for_the_model_and_the_chat_goes_on(make_plugin, emu, stac):
    plugin = make_plugin(catalogs=stac.catalogs_env())
    stac.faults.huge_assets = 25_000
    size = len(httpx.get(f"{stac.url}/collections/scenes/items/scene-1", timeout=30).content)
    assert size > 10_000_000
    emu.script(Turn(tool_calls=[("get_item", {"collection": "scenes", "item_id": "scene-1"})]),
               Turn(content="This item has a great many assets."))
    send(plugin, "Describe scene-1")
    wait_turn(plugin, 60)
    given = tool_messages(emu.chat_requests()[-1], "get_item")[-1]["content"]
    assert len(given) < 20_000 and "truncated" in given
    assert chat(plugin)[-1] == ("assistant", "This item has a great many assets.")
    stac.faults.huge_assets = 0
    _works_again(plugin, emu)


def test_a_10_mb_item_does_not_bloat_the_saved_session(make_plugin, emu, stac):
    plugin = make_plugin(catalogs=stac.catalogs_env())
    stac.faults.huge_assets = 25_000
    emu.script(Turn(tool_calls=[("get_item", {"collection": "scenes", "item_id": "scene-1"})]),
               Turn(content="This item has a great many assets."))
    send(plugin, "Describe scene-1")
    wait_turn(plugin, 60)
    assert len(json.dumps(saved_events(plugin))) < 1_000_000
