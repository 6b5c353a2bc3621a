"""Issue 27.1: the confirmation card on screen says in words what will happen — the layer by name with its
feature count, and that the chat's Undo brings it back — not "Run 'remove_layer'?"; after "No" the layer
is still on the map, whole, and the model reads that the user did not approve."""

from __future__ import annotations

import json

from qgis.core import QgsFeature, QgsGeometry, QgsPointXY, QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest

from stacgis_agent.ui.ask_user_widget import AskUserWidget
from testkit.llm.ollama_emulator import Turn
from testkit.llm.reactive_emulator import tool_messages
from testkit.qgis_drivers.analyst_view import chat
from testkit.qgis_drivers.plugin_driver import process_until, send, wait_turn
from testkit.qgis_drivers.screen_checks import clipped_texts, show_dock_at


def four_parcels() -> QgsVectorLayer:
    layer = QgsVectorLayer("Point?crs=EPSG:4326&field=owner:string", "parcels", "memory")
    features = []
    for i in range(4):
        feature = QgsFeature(layer.fields())
        feature.setAttributes([f"owner {i}"])
        feature.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(4.8 + i * 0.01, 45.7)))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    return layer


def test_the_card_on_screen_names_the_layer_and_no_keeps_it(plugin, emu):
    QgsProject.instance().addMapLayer(four_parcels())
    show_dock_at(plugin, 420)
    emu.script(Turn(tool_calls=[("remove_layer", {"layer": "parcels"})]), Turn(content="I kept the parcels."))
    send(plugin, "Remove the parcels layer")
    conversation = plugin.runtime.panel.conversation
    assert process_until(lambda: any(isinstance(w, AskUserWidget) for w in conversation.items()), 30), chat(plugin)
    card = next(w for w in conversation.items() if isinstance(w, AskUserWidget))
    assert process_until(lambda: card.question.isVisible() and card.details.isVisible(), 5)  # on screen, laid out
    assert card.question.text() == ("Remove layer 'parcels' (4 features) from the project? "
                                    "Undo in the chat brings it back.")
    assert card.details.text() == (
        "This will change:\n"
        "• takes layer 'parcels' (4 features) off the map and out of the Layers panel\n"
        "• 'parcels' is a memory layer: its features are in no file, so only the chat's Undo can bring them back")
    assert clipped_texts(plugin.dock) == [], clipped_texts(plugin.dock)

    QTest.mouseClick(next(b for b in card.buttons if b.text() == "No"), Qt.MouseButton.LeftButton)
    wait_turn(plugin, 30)
    assert [(lyr.name(), lyr.featureCount()) for lyr in QgsProject.instance().mapLayers().values()] == [("parcels", 4)]
    refusal = json.loads(tool_messages(emu.chat_requests()[-1], "remove_layer")[-1]["content"])["error"]
    assert "did not approve" in refusal
