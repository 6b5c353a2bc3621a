"""A tool's own reason for failing, in the analyst's language: with QGIS set to German or French, a real tool call
that the tool refuses (zoom_to_location with nowhere to zoom, then with a layer the project does not have) shows
in the activity feed as the tool's sentence translated (ui/tool_messages.py, the catalogs), the names it holds as
written and none of its English; what the assistant was told to do next stays folded under it, in the English the
model read. (The model is the Ollama emulator scripting the calls; the dock: testkit/qgis_drivers/dock_language.)"""

from __future__ import annotations

import pytest
from qgis.core import QgsProject, QgsVectorLayer

from testkit.llm.ollama_emulator import OllamaEmulator, Turn
from testkit.qgis_drivers import dock_language
from testkit.qgis_drivers.dock_language import shown_texts, untranslated
from testkit.qgis_drivers.plugin_driver import send, wait_turn

locale, plugin_in = dock_language.locale, dock_language.plugin_in  # the fixtures: QGIS's language, the plugin under it
ENGLISH = ("Say where to zoom", "a place name", "No layer named", "Layers in the project")  # the tools' own words
SAID = {
    "de": {"nowhere": "zoom_to_location fehlgeschlagen: Sagen Sie, wohin gezoomt werden soll: lon und lat, ein "
                      "Begrenzungsrahmen (bbox), ein Layer (optional feature_id) oder ein Ortsname.",
           "no_layer": "zoom_to_location fehlgeschlagen: Kein Layer namens „Flurstücke 2024“. Layer im Projekt: parcels",
           "told": "Dem Assistenten gesagt: Fix the arguments or try another tool."},
    "fr": {"nowhere": "Échec de zoom_to_location\u00a0: Dites où zoomer\u00a0: lon et lat, une emprise (bbox), une "
                      "couche (éventuellement feature_id) ou un nom de lieu.",
           "no_layer": "Échec de zoom_to_location\u00a0: Aucune couche nommée «\u00a0Flurstücke 2024\u00a0». "
                       "Couches du projet\u00a0: parcels",
           "told": "Indiqué à l’assistant\u00a0: Fix the arguments or try another tool."},
}


def _feed(feed) -> list[tuple[str, list[str]]]:
    """Each line of the activity feed with what is folded under it."""
    return [(feed.topLevelItem(i).text(0), [feed.topLevelItem(i).child(j).text(0)
                                            for j in range(feed.topLevelItem(i).childCount())])
            for i in range(feed.topLevelItemCount())]


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_a_tools_reason_for_failing_is_said_in_the_chosen_language(qgis_new_project, plugin_in, monkeypatch, lang):
    QgsProject.instance().addMapLayer(QgsVectorLayer("Polygon?crs=EPSG:4326", "parcels", "memory"))
    said = SAID[lang]
    with OllamaEmulator() as emu:
        monkeypatch.setenv("STACGIS_OLLAMA_URL", emu.url)
        plugin = plugin_in(lang)
        emu.script(Turn(tool_calls=[("zoom_to_location", {})]),
                   Turn(tool_calls=[("zoom_to_location", {"layer": "Flurstücke 2024"})]), Turn(content="OK."))
        send(plugin, "Zoom bitte")
        wait_turn(plugin)
        model_read = [m for m in emu.chat_requests()[-1]["messages"] if m.get("role") == "tool"]
    assert any("Say where to zoom: lon and lat" in m["content"] for m in model_read), model_read  # English for it

    feed = _feed(plugin.runtime.panel.feed)
    lines = {line: folded for line, folded in feed}
    assert said["nowhere"] in lines, "\n".join(lines)
    assert said["no_layer"] in lines, "\n".join(lines)
    assert lines[said["no_layer"]] == [said["told"]]  # the instruction to the model, as it read it
    shown = [text for line, folded in feed for text in (line, *folded)]
    english = [text for text in shown for words in ENGLISH if words in text]
    assert english == [], english
    left = untranslated(shown_texts(plugin.dock) + shown, lang)
    assert left == [], f"English left in the {lang} dock:\n" + "\n".join(left)
