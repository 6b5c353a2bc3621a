"""Issue 46.2: the chat's trust level, set on the dock as the analyst sets it. "Read only" offers the model no tool
that writes, and a request to change the map gets a sentence (the layer stays); "don't ask again in this chat" on
the card lets the next call of the same kind run without a card, not a call of another kind; New chat asks again."""

from __future__ import annotations

import json

from qgis.core import QgsFeature, QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest

from stacgis_agent.agent.safety import Safety
from stacgis_agent.agent.trust import ASK, READ_ONLY
from stacgis_agent.ui.ask_user_widget import AskUserWidget
from testkit.llm.ollama_emulator import Turn
from testkit.llm.reactive_emulator import tool_messages
from testkit.qgis_drivers.analyst_view import chat, feed, status_lines
from testkit.qgis_drivers.plugin_driver import process_until, send, wait_turn
from testkit.qgis_drivers.screen_checks import clipped_texts, save_shot, show_dock_at


def add_layer(name: str) -> QgsVectorLayer:
    layer = QgsVectorLayer("Point?crs=EPSG:4326", name, "memory")
    QgsProject.instance().addMapLayer(layer)
    return layer


def layer_names() -> list[str]:
    return sorted(layer.name() for layer in QgsProject.instance().mapLayers().values())


def cards(plugin) -> list[AskUserWidget]:
    return [w for w in plugin.runtime.panel.conversation.items() if isinstance(w, AskUserWidget)]


def click(card: AskUserWidget, text: str) -> None:
    QTest.mouseClick(next(b for b in card.buttons if b.text() == text), Qt.MouseButton.LeftButton)


def offered_names(body: dict) -> str:
    """Every tool name the request offers, listed or named in call_tool's catalogue."""
    return " ".join(t["function"]["name"] + " " + t["function"].get("description", "") for t in body.get("tools") or [])


def test_read_only_offers_no_writing_tool_and_a_change_gets_a_sentence(plugin, emu):
    add_layer("parcels")
    show_dock_at(plugin, 320)
    panel = plugin.runtime.panel
    assert panel.trust_button.text() == "Ask first"
    panel.trust_button.level_actions[READ_ONLY].trigger()  # the analyst picks "Read only" in the button's menu
    assert panel.trust_button.text() == "Read only"
    assert clipped_texts(plugin.dock) == [], clipped_texts(plugin.dock)
    emu.script(Turn(tool_calls=[("call_tool", {"name": "remove_layer", "arguments": {"layer": "parcels"}})]),
               Turn(content="This chat is read only, so I did not remove 'parcels'."))
    send(plugin, "Remove the parcels layer")
    wait_turn(plugin, 30)

    first = emu.chat_requests()[0]
    writers = {name for name, rule in plugin.runtime._agent.policy.rules.items() if rule.safety is not Safety.READ}
    assert {"remove_layer", "zoom_to_location", "set_layer_style", "load_stac_items"} <= writers
    offered = offered_names(first)
    assert [w for w in writers if f"{w}(" in offered or f'"{w}"' in json.dumps(first.get("tools"))] == []
    assert "get_map_view" in offered  # the tools that change nothing are still there
    assert "read only" in first["messages"][-1]["content"]  # the model is told, with the message
    assert layer_names() == ["parcels"]
    assert any("This chat is read only: 'remove_layer' would change the project or files" in line
               for line in status_lines(plugin)), status_lines(plugin)
    refusal = json.loads(tool_messages(emu.chat_requests()[-1], "remove_layer")[-1]["content"])["error"]
    assert "read only" in refusal and "Do not retry" in refusal
    assert chat(plugin)[-1] == ("assistant", "This chat is read only, so I did not remove 'parcels'.")
    save_shot(plugin, "trust-read-only")

    panel.new_button.click()  # New chat: asks before changes again
    assert process_until(lambda: panel.trust_button.text() == "Ask first", 10)
    assert plugin.runtime.session.trust.level == ASK


def test_dont_ask_again_skips_the_card_for_the_same_kind_and_not_for_another(plugin, emu):
    for name in ("parcels", "roads", "rivers"):
        add_layer(name)
    show_dock_at(plugin, 320)
    panel = plugin.runtime.panel
    emu.script(Turn(tool_calls=[("remove_layer", {"layer": "parcels"})]), Turn(content="Removed parcels."))
    send(plugin, "Remove the parcels layer")
    assert process_until(lambda: len(cards(plugin)) == 1, 30), chat(plugin)
    card = cards(plugin)[0]
    assert [b.text() for b in card.buttons] == ["Yes, run it", "Yes, and don't ask again in this chat", "No"]
    assert "take layers off the map" in card.waves.text()
    assert clipped_texts(plugin.dock) == [], clipped_texts(plugin.dock)
    save_shot(plugin, "trust-dont-ask-again")
    show_dock_at(plugin, 720)
    save_shot(plugin, "trust-dont-ask-again")
    click(card, "Yes, and don't ask again in this chat")
    wait_turn(plugin, 30)
    assert layer_names() == ["rivers", "roads"]
    assert panel.trust_button.text() == "Ask first · 1 allowed"

    # the same kind of change: no card, said in the feed
    emu.script(Turn(tool_calls=[("remove_layer", {"layer": "roads"})]), Turn(content="Removed roads."))
    send(plugin, "Remove roads as well")
    wait_turn(plugin, 30)
    assert len(cards(plugin)) == 1 and layer_names() == ["rivers"]
    assert any(line.startswith("Not asked again, as you chose in this chat: Remove layer 'roads'") for line in feed(plugin))

    # another kind of change (forgetting a memory for good): the card again, without "don't ask again"
    emu.script(Turn(tool_calls=[("delete_memory", {"memory_id": "m1"})]), Turn(content="Kept it."))
    send(plugin, "Forget memory m1")
    assert process_until(lambda: len(cards(plugin)) == 2, 30), chat(plugin)
    other = cards(plugin)[1]
    assert [b.text() for b in other.buttons] == ["Yes, run it", "No"] and other.waves is None
    click(other, "No")
    wait_turn(plugin, 30)

    # a new chat forgets it: removing a layer asks again
    panel.new_button.click()
    assert process_until(lambda: panel.trust_button.text() == "Ask first", 10)
    emu.script(Turn(tool_calls=[("remove_layer", {"layer": "rivers"})]), Turn(content="Kept rivers."))
    send(plugin, "Remove rivers")
    assert process_until(lambda: len(cards(plugin)) == 1, 30), chat(plugin)
    click(cards(plugin)[0], "No")
    wait_turn(plugin, 30)
    assert layer_names() == ["rivers"]


def test_read_only_offers_the_vector_search_and_a_code_filter_still_asks(plugin, emu, monkeypatch):
    """The vector search reads, so a read-only chat offers it and a filter on the layer's fields runs without a card;
    a filter that is code (env()) shows the card in this chat too, and runs only after the analyst's yes."""
    monkeypatch.setenv("STACGIS_TRUST_SECRET", "yes")
    layer = QgsVectorLayer("Point?crs=EPSG:4326&field=name:string", "parcels", "memory")
    for name in ("Vignes", "Port"):
        feature = QgsFeature(layer.fields())
        feature.setAttributes([name])
        layer.dataProvider().addFeatures([feature])
    QgsProject.instance().addMapLayer(layer)
    show_dock_at(plugin, 320)
    plugin.runtime.panel.trust_button.level_actions[READ_ONLY].trigger()
    code = {"layer": "parcels", "expression": "env('STACGIS_TRUST_SECRET') = 'yes'"}
    emu.script(Turn(tool_calls=[("search_vector_features", {"layer": "parcels", "expression": "\"name\" = 'Port'"})]),
               Turn(tool_calls=[("search_vector_features", code)]),
               Turn(tool_calls=[("search_vector_features", code)]),
               Turn(content="Both parcels match."))
    send(plugin, "Which parcels are called Port, and which match my secret?")
    assert process_until(lambda: len(cards(plugin)) == 1, 30), chat(plugin)

    first = emu.chat_requests()[0]
    assert "search_vector_features" in offered_names(first)  # offered in a read-only chat
    plain = json.loads(tool_messages(emu.chat_requests()[-1], "search_vector_features")[0]["content"].split("\n", 1)[1])
    assert [f["attributes"]["name"] for f in plain["features"]] == ["Port"]  # ran with no card
    card = cards(plugin)[0]
    assert "env() reads this computer's environment variables" in card.details.text(), card.details.text()
    assert [b.text() for b in card.buttons] == ["Yes, run it", "No"]  # code: never "don't ask again"
    click(card, "No")
    assert process_until(lambda: len(cards(plugin)) == 2, 30), chat(plugin)
    declined = tool_messages(emu.chat_requests()[-1], "search_vector_features")[1]["content"]
    assert "did not approve" in declined and "Vignes" not in declined
    click(cards(plugin)[1], "Yes, run it")
    wait_turn(plugin, 30)
    approved = tool_messages(emu.chat_requests()[-1], "search_vector_features")[2]["content"]
    assert "Vignes" in approved and "Port" in approved, approved
    assert chat(plugin)[-1] == ("assistant", "Both parcels match.")
