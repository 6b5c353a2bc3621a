"""The dock in the analyst's language: with QGIS's locale set to German or French (Settings ▸ Options ▸ General ▸
Override system locale), the plugin installs its catalog and every text the dock and the settings show is
translated; in English the source texts show, and unloading the plugin takes its translator away. That holds for
the texts the core (agent/, host/, tools/: no Qt, handed the dock's translation) writes for the dock too: the
settings checks and validation, the catalog test, a store's fallback notice, the History tab's rows and what a
step back did, and the locator bar's entry; and a turn that goes wrong (a failed tool call, the model's server
gone) and the report exported from the Sessions tab. (The scan of the widgets: testkit/qgis_drivers/dock_language.)"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from osgeo import gdal
from qgis.core import QgsLocator, QgsLocatorContext, QgsProject, QgsSettings, QgsVectorLayer
from qgis.PyQt.QtCore import QLocale
from qgis.PyQt.QtWidgets import QLabel, QTabWidget

import stacgis_agent
from stacgis_agent.agent.catalog_presets import PRESETS
from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.agent.events import UserMessage
from stacgis_agent.tools.session.chat_report import report_html
from stacgis_agent.tools.stac.catalog_check import check_catalog_access
from stacgis_agent.ui import i18n
from stacgis_agent.ui.settings_dialog import SettingsDialog
from testkit.llm.ollama_emulator import OllamaEmulator, Turn
from testkit.qgis_drivers import dock_language
from testkit.qgis_drivers.dock_language import shown_texts, untranslated
from testkit.qgis_drivers.plugin_driver import run_coroutine, send, wait_turn
from testkit.servers.loopback import free_port

REPO = Path(stacgis_agent.__file__).resolve().parent
locale, plugin_in = dock_language.locale, dock_language.plugin_in  # the fixtures: QGIS's language, the plugin under it
EXPECTED = {  # a few texts an analyst sees first, as the catalogs translate them
    "de": {"send": "Senden", "new": "Neuer Chat", "tabs": ["Chat", "Sitzungen", "Verlauf", "Erinnerungen"],
           "settings": "Einstellungen von STAC GIS Agent", "chip": "Karte:", "settings_tab": "Kataloge",
           "placeholder": "Fragen Sie zu Ihrer Karte oder einem STAC-Katalog…"},
    "fr": {"send": "Envoyer", "new": "Nouvelle discussion", "tabs": ["Discussion", "Sessions", "Historique", "Souvenirs"],
           "settings": "Paramètres de STAC GIS Agent", "chip": "Carte\u00a0:", "settings_tab": "Catalogues",
           "placeholder": "Posez une question sur votre carte ou un catalogue STAC…"},
    "en": {"send": "Send", "new": "New chat", "tabs": ["Chat", "Sessions", "History", "Memories"],
           "settings": "STAC GIS Agent settings", "chip": "Map:", "settings_tab": "Catalogs",
           "placeholder": "Ask about your map or a STAC catalog…"},
}


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_the_dock_and_the_settings_speak_the_chosen_language(plugin_in, lang):
    plugin = plugin_in(lang)
    assert plugin.translator is not None
    dock, panel = plugin.dock, plugin.runtime.panel
    dialog = SettingsDialog(Settings())
    try:
        left = untranslated(shown_texts(dock) + shown_texts(dialog) + [plugin.action.toolTip()], lang)
        assert left == [], f"English left in the {lang} dock:\n" + "\n".join(left)
        expected = EXPECTED[lang]
        assert panel.send_button.text() == expected["send"]
        assert panel.new_button.text() == expected["new"]
        assert [panel.tabs.tabText(i) for i in range(panel.tabs.count())] == expected["tabs"]
        assert panel.map_chip.text().startswith(expected["chip"])
        assert panel.input.placeholderText().startswith(expected["placeholder"])
        assert dialog.windowTitle() == expected["settings"]
        assert expected["settings_tab"] in [t.tabText(1) for t in dialog.findChildren(QTabWidget)]
    finally:
        dialog.deleteLater()


NAMES = {"STAC GIS Agent", "Earth Search (Element 84)", "Microsoft Planetary Computer", "Copernicus Data Space Ecosystem"}
SAME_WORD = {"de": {"Chat", "Name", "Port"}, "fr": {"Port", "Sessions"}}  # the language's own word is the English one


def _plugins_texts(plugin_in, lang: str) -> set[str]:
    plugin = plugin_in(lang)
    dialog = SettingsDialog(Settings())
    try:
        return set(shown_texts(plugin.dock, plugins_own=True) + shown_texts(dialog, plugins_own=True)
                   + [plugin.action.toolTip()])
    finally:
        dialog.deleteLater()
        plugin.unload()
        plugin.dock = None


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_no_english_text_outside_the_catalogs(qgis_new_project, plugin_in, lang):
    """The catalog scan above finds English left for texts the catalogs know; this finds a text never put
    through tr() at all: whatever reads the same in English and in `lang` is a name, an example address, or
    a word both languages share (QGIS's and Qt's own widgets inside the dock are translated by QGIS). A new
    project: no layer name of an earlier test in the map chip."""
    english, translated = _plugins_texts(plugin_in, "en"), _plugins_texts(plugin_in, lang)
    assert len(english) > 60  # the walk finds the dock's and the settings' texts
    worded = {t for t in english & translated if re.search(r"[A-Za-z]{3}", t)}  # not "45.76°N 4.83°E" or "OK"
    same = {t for t in worded if t not in NAMES | SAME_WORD[lang] and "://" not in t}
    assert same == set(), f"shown in English under {lang}: {sorted(same)}"


def test_in_english_the_source_texts_show_and_unload_takes_the_translator_away(plugin_in, locale):
    german = plugin_in("de")
    assert i18n.tr("Send") == "Senden"
    german.unload()
    assert i18n.tr("Send") == "Send"  # nothing left installed in QGIS by the plugin

    plugin = plugin_in("en")
    assert plugin.translator is None  # English is the source: no catalog to load
    panel = plugin.runtime.panel
    expected = EXPECTED["en"]
    assert panel.send_button.text() == expected["send"]
    assert [panel.tabs.tabText(i) for i in range(panel.tabs.count())] == expected["tabs"]
    assert panel.map_chip.text().startswith(expected["chip"])
    assert SettingsDialog(Settings()).windowTitle() == expected["settings"]
    english = untranslated(shown_texts(plugin.dock), "de")  # the walk does find the dock's texts
    assert len(english) > 40 and any("'Send'" in line for line in english)


def test_the_language_follows_qgis_override_setting(locale):
    locale("fr_BE")
    assert i18n.ui_language() == "fr"
    QgsSettings().setValue("locale/overrideFlag", False)  # "Override system locale" off: QGIS speaks the system's
    assert i18n.ui_language() == (QLocale.system().name() or "en")[:2].lower()
    assert i18n.install_translator(REPO, "xx") is None  # a language the plugin does not ship: the English texts


def test_the_dock_words_for_the_core_texts_match_the_core():
    """Where the core (agent/, no Qt) writes a text the dock shows, the dock says the same in English."""
    from stacgis_agent.agent.catalog_presets import ACCESS_METHODS
    from stacgis_agent.agent.chat_slot import QueuePlace
    from stacgis_agent.ui.catalogs_editor import ACCESS_LABELS
    from stacgis_agent.ui.chat_panel import queue_text

    assert ACCESS_LABELS == ACCESS_METHODS
    for place in (QueuePlace(3, 2), QueuePlace(0, 0), QueuePlace(0, 1), QueuePlace(0, 4)):
        assert queue_text(place) == place.text


SAID = {  # what each text reads in the chosen language: a piece of every sentence, none of them English
    "de": {"invalid_url": "ist keine http(s)-URL", "no_name": "Katalog 1 braucht einen Namen.",
           "redis": "Redis hat unter", "preset_needs": "Ihr AWS-Konto zahlt für die Lesezugriffe", "postgres": "PostgreSQL hat die Verbindung abgelehnt",
           "catalog": "„Demo catalog“ hat geantwortet (statisch).", "asset": "Header von Asset „data“",
           "outage": "bleiben Gespräche und Chat-Plätze auf diesem Rechner",
           "row": "Antwort 1 · Layer „parcels“ hinzugefügt",
           "outcome": "Zurück zum Stand vor der ersten Antwort. Antwort 1 zurückgenommen: Layer „parcels“ entfernt.",
           "kept": "Ihre eigenen Änderungen bleiben: Layer „mine“ (Sie haben ihn hinzugefügt).",
           "undo_refused": "Nur die letzte Antwort, die die Karte geändert hat, kann so zurückgenommen werden; gehen "
                           "Sie im Reiter Verlauf weiter zurück.",
           "locator": ("STAC GIS Agent fragen", "Den Assistenten fragen: NDVI über Lyon")},
    "fr": {"invalid_url": "n’est pas une URL http(s)", "no_name": "Le catalogue 1 a besoin d’un nom.",
           "redis": "Redis n’a pas répondu", "preset_needs": "Votre compte AWS paie les lectures", "postgres": "PostgreSQL a refusé la connexion",
           "catalog": "«\u00a0Demo catalog\u00a0» a répondu (statique).", "asset": "en-tête de l’asset «\u00a0data\u00a0»",
           "outage": "les conversations et les places de discussion restent sur cet ordinateur",
           "row": "Tour 1 · couche «\u00a0parcels\u00a0» ajoutée",
           "outcome": "Retour à l’état d’avant le premier tour. Tour 1 annulé\u00a0: couche «\u00a0parcels\u00a0» retirée.",
           "kept": "Vos propres modifications sont conservées\u00a0: la couche «\u00a0mine\u00a0» (vous l’avez ajoutée).",
           "undo_refused": "Seul le dernier tour qui a modifié la carte peut être annulé ainsi\u00a0; utilisez l’onglet "
                           "Historique pour remonter plus loin.",
           "locator": ("Demander à STAC GIS Agent", "Demander à l’assistant\u00a0: NDVI über Lyon")},
}


def _static_catalog(folder) -> str:
    """A catalog on disk with one item whose asset is a small GeoTIFF: what the Test reads."""
    tif = folder / "b.tif"
    ds = gdal.GetDriverByName("GTiff").Create(str(tif), 8, 8, 1, gdal.GDT_Byte)
    ds.SetGeoTransform((4.8, 0.01, 0, 45.8, 0, -0.01))
    ds = None
    item = {"type": "Feature", "stac_version": "1.0.0", "id": "one", "geometry": None, "bbox": [4.8, 45.7, 4.9, 45.8],
            "properties": {"datetime": "2024-06-01T00:00:00Z"}, "links": [],
            "assets": {"data": {"href": str(tif), "type": "image/tiff; application=geotiff"}}}
    (folder / "item.json").write_text(json.dumps(item))
    (folder / "catalog.json").write_text(json.dumps({
        "type": "Catalog", "id": "demo", "title": "Demo catalog", "stac_version": "1.0.0", "description": "d",
        "links": [{"rel": "root", "href": "./catalog.json"}, {"rel": "item", "href": "./item.json"}]}))
    return str(folder / "catalog.json")


def _on_the_plugins_loop(plugin, coro, process_until) -> None:
    """Runs `coro` as the dock runs its work: a task on the plugin's loop, which Qt's events drive."""
    task = plugin.runtime.tasks.start(coro, name="test")
    assert process_until(task.done, timeout=30)
    task.result()  # its assertion, if one failed


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_the_settings_checks_and_the_catalog_test_speak_the_chosen_language(plugin_in, qt_process_until, lang, tmp_path):
    plugin = plugin_in(lang)
    dialog = SettingsDialog(Settings(ollama_url="nope", catalogs=[CatalogConfig("", "", "api")]),
                            check_access=check_catalog_access)
    try:
        _on_the_plugins_loop(plugin, _settings_checks(dialog, SAID[lang], tmp_path), qt_process_until)
        left = untranslated(shown_texts(dialog), lang)
        assert left == [], f"English left in the {lang} settings:\n" + "\n".join(left)
    finally:
        dialog.deleteLater()


async def _settings_checks(dialog, said: dict, tmp_path) -> None:
    dialog.accept()  # refused: the problems are listed
    problems = dialog.problems.text()
    assert said["invalid_url"] in problems and said["no_name"] in problems, problems
    dialog.redis_url.setText(f"redis://127.0.0.1:{free_port()}/0")
    await dialog.test_redis()
    assert dialog.redis_result.text().startswith(said["redis"]), dialog.redis_result.text()
    dialog.postgres_dsn.setText(f"postgresql://someone@127.0.0.1:{free_port()}/db")
    await dialog.test_postgres()
    assert dialog.postgres_result.text().startswith(said["postgres"]), dialog.postgres_result.text()
    dialog.catalogs.add_preset(next(p for p in PRESETS if p.config.preset == "usgs-landsat"))
    assert dialog.catalogs.needs.text().startswith(said["preset_needs"]), dialog.catalogs.needs.text()
    await dialog.test_catalog(CatalogConfig("demo", _static_catalog(tmp_path), "static"))
    result = dialog.catalog_result.text()
    assert result.startswith("demo") and said["catalog"] in result and said["asset"] in result, result


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_store_notices_and_the_history_speak_the_chosen_language(qgis_new_project, plugin_in, qt_process_until,
                                                                            monkeypatch, lang):
    monkeypatch.setenv("STACGIS_REDIS_URL", f"redis://127.0.0.1:{free_port()}/0")  # nobody answers there
    plugin = plugin_in(lang)
    runtime, said = plugin.runtime, SAID[lang]
    _on_the_plugins_loop(plugin, runtime.stores.sessions.list("analyst"), qt_process_until)  # the embedded store answers
    feed = [runtime.panel.feed.topLevelItem(i).text(0) for i in range(runtime.panel.feed.topLevelItemCount())]
    assert any(said["outage"] in line for line in feed), feed

    project = QgsProject.instance()
    runtime.turns.begin(UserMessage("add the parcels", "m1"))  # a turn of the chat adds a layer
    parcels = QgsVectorLayer("Polygon?crs=EPSG:4326", "parcels", "memory")
    project.addMapLayer(parcels)
    runtime.history.layer_added(parcels)
    runtime.turns.busy_changed(False)
    view = runtime.history_view
    assert qt_process_until(lambda: bool(view.rows) and said["row"] in view.rows[0].title.text(), timeout=10), \
        [row.title.text() for row in view.rows]
    project.addMapLayer(QgsVectorLayer("Point?crs=EPSG:4326", "mine", "memory"))  # the analyst, by hand
    view.rows[-1].button.click()  # "Back to here" on "Before the first turn"
    assert qt_process_until(lambda: bool(view.outcome.text()), timeout=10)
    assert view.outcome.text() == f"{said['outcome']} {said['kept']}"
    left = untranslated(shown_texts(plugin.dock), lang)
    runtime.panel.undo_requested.emit("not-the-last-turn")  # an answer's Undo on an older turn: refused, in words
    assert qt_process_until(lambda: view.outcome.text() == said["undo_refused"], timeout=10), view.outcome.text()
    left += untranslated(shown_texts(plugin.dock), lang)
    assert left == [], f"English left in the {lang} dock:\n" + "\n".join(left)


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_the_locator_entry_speaks_the_chosen_language(plugin_in, qgis_iface, monkeypatch, qt_process_until, lang):
    locator = QgsLocator()  # QGIS's own: it searches with a clone of the filter on a worker thread
    monkeypatch.setattr(qgis_iface, "registerLocatorFilter", locator.registerFilter, raising=False)
    monkeypatch.setattr(qgis_iface, "deregisterLocatorFilter", locator.deregisterFilter, raising=False)
    plugin = plugin_in(lang)
    found = []
    locator.foundResult.connect(lambda result: found.append(result.displayString))
    locator.fetchResults("ask NDVI über Lyon", QgsLocatorContext())
    assert qt_process_until(lambda: not locator.isRunning() and bool(found), timeout=10)
    assert [plugin.locator_filter.displayName()] + found == list(SAID[lang]["locator"])


TURN_SAID = {  # a failed turn, a piece of each line, none of them English
    "de": {"unknown": "buffer_everything fehlgeschlagen: Unbekanntes Werkzeug „buffer_everything“.",
           "invalid": "zoom_to_location fehlgeschlagen: Ungültige Argumente für „zoom_to_location“: ",
           "down": "Ollama ist unter {url} nicht erreichbar: unter dieser Adresse antwortet niemand. Starten Sie es",
           "feed_error": "Fehler: Was passiert ist und was zu tun ist, steht im Chat", "ended": "Durch den Fehler oben beendet",
           "report": ("Verwendete Werkzeuge: buffer_everything, zoom_to_location", "Herkunft der Daten")},
    "fr": {"unknown": "Échec de buffer_everything\u00a0: Outil inconnu «\u00a0buffer_everything\u00a0».",
           "invalid": "Échec de zoom_to_location\u00a0: Arguments non valides pour «\u00a0zoom_to_location\u00a0»\u00a0: ",
           "down": "Ollama est injoignable à {url}\u00a0: rien ne répond à cette adresse. Lancez-le",
           "feed_error": "Erreur\u00a0: ce qui s’est passé et que faire sont dans la discussion",
           "ended": "Terminé par l’erreur ci-dessus",
           "report": ("Outils utilisés\u00a0: buffer_everything, zoom_to_location", "Provenance des données")},
}


def _feed_texts(feed) -> list[str]:
    """Every line of the activity feed and what is folded under it."""
    texts = []
    for i in range(feed.topLevelItemCount()):
        item = feed.topLevelItem(i)
        texts.append(item.text(0))
        texts += [item.child(j).text(0) for j in range(item.childCount())]
    return texts


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_a_turn_that_fails_speaks_the_chosen_language(plugin_in, monkeypatch, tmp_path, lang):
    said = TURN_SAID[lang]
    with OllamaEmulator() as emu:
        monkeypatch.setenv("STACGIS_OLLAMA_URL", emu.url)
        plugin = plugin_in(lang)
        panel = plugin.runtime.panel
        # The model calls a tool that does not exist, then one with an argument of the wrong type, then answers.
        emu.script(Turn(tool_calls=[("buffer_everything", {"distance": 10})]),
                   Turn(tool_calls=[("zoom_to_location", {"lon": 4.8, "lat": "north"})]), Turn(content="OK."))
        send(plugin, "Puffer um alles")
        wait_turn(plugin)
        url = emu.url
    # The emulator is gone: the next turn finds nothing at the model's address.
    send(plugin, "Noch einmal")
    wait_turn(plugin)

    feed = _feed_texts(panel.feed)
    assert any(line.startswith(said["unknown"]) for line in feed), feed
    assert any(line.startswith(said["invalid"]) for line in feed), "\n".join(feed)
    down = said["down"].format(url=url)
    chat = [label.text() for label in panel.conversation.findChildren(QLabel)]
    assert any(text.startswith(down) for text in chat), chat  # in the chat, in red
    assert said["feed_error"] in feed and any(text.startswith(down) for text in feed), feed  # folded in the feed
    assert any(line.startswith(said["ended"]) for line in feed), feed
    left = untranslated(shown_texts(plugin.dock) + feed, lang)
    assert left == [], f"English left in the {lang} dock:\n" + "\n".join(left)
    answer = [bubble for bubble in panel.conversation.bubbles() if bubble.role == "assistant"][-1]
    panel.conversation.show_undo(answer.message_id)  # its Undo and Copy: the widest buttons of the chat
    assert answer.undo_button.isVisibleTo(panel.conversation)
    narrowest = panel.conversation.widget().minimumSizeHint().width()
    assert narrowest <= 240, narrowest  # the chat fits a narrow dock: its lines wrap, none is cut on the right

    # The report the Sessions tab exports says its headings in the dock's language too.
    record = run_coroutine(plugin.runtime.stores.sessions.history(plugin.runtime.session.session_id))
    page, _pictures = report_html(record, tmp_path, i18n.tr)
    assert all(words in page for words in said["report"]), page
    assert "Tools used" not in page and "Provenance</h2>" not in page
