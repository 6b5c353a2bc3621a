"""The dock in the analyst's language: with QGIS's locale set to German or French (Settings ▸ Options ▸ General ▸
Override system locale), the plugin installs its catalog and every text the dock and the settings show is
translated; in English the source texts show, and unloading the plugin takes its translator away."""

from __future__ import annotations

import re
import socket
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from qgis.core import QgsSettings
from qgis.PyQt.QtCore import QLocale
from qgis.PyQt.QtWidgets import (
    QAbstractButton,
    QAction,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTableWidget,
    QTabWidget,
    QWidget,
)

import stacgis_agent
from stacgis_agent.agent.config import Settings
from stacgis_agent.ui import i18n
from stacgis_agent.ui.settings_dialog import SettingsDialog

REPO = Path(stacgis_agent.__file__).resolve().parent
EXPECTED = {  # a few texts an analyst sees first, as the catalogs translate them
    "de": {"send": "Senden", "new": "Neuer Chat", "tabs": ["Chat", "Sitzungen", "Verlauf"],
           "settings": "Einstellungen von STAC GIS Agent", "chip": "Karte:", "settings_tab": "Kataloge",
           "placeholder": "Fragen Sie zu Ihrer Karte oder einem STAC-Katalog…"},
    "fr": {"send": "Envoyer", "new": "Nouvelle discussion", "tabs": ["Discussion", "Sessions", "Historique"],
           "settings": "Paramètres de STAC GIS Agent", "chip": "Carte\u00a0:", "settings_tab": "Catalogues",
           "placeholder": "Posez une question sur votre carte ou un catalogue STAC…"},
    "en": {"send": "Send", "new": "New chat", "tabs": ["Chat", "Sessions", "History"],
           "settings": "STAC GIS Agent settings", "chip": "Map:", "settings_tab": "Catalogs",
           "placeholder": "Ask about your map or a STAC catalog…"},
}


def catalog(lang: str) -> dict[str, str]:
    """source -> translation of i18n/stacgis_agent_<lang>.ts."""
    root = ET.parse(REPO / "i18n" / f"stacgis_agent_{lang}.ts").getroot()
    return {m.findtext("source"): m.findtext("translation") or "" for m in root.iter("message")
            if m.find("translation").get("type") != "vanished"}


def _pattern(source: str) -> re.Pattern:
    """A source text as it shows once its {placeholders} are filled."""
    parts = re.split(r"\{\w+\}", source)
    return re.compile(".+".join(re.escape(p) for p in parts), re.DOTALL)


def shown_texts(root: QWidget) -> list[str]:
    """What the analyst can read in `root` and its children: texts, titles, tooltips, placeholders, tab and
    header names, actions (hidden pages included: they show as soon as the chat gets there)."""
    texts = []
    for widget in [root, *root.findChildren(QWidget)]:
        texts += [widget.toolTip(), widget.windowTitle()]
        if isinstance(widget, (QLabel, QAbstractButton)):
            texts.append(widget.text())
        if isinstance(widget, (QLineEdit, QPlainTextEdit)):
            texts.append(widget.placeholderText())
        if isinstance(widget, QGroupBox):
            texts.append(widget.title())
        if isinstance(widget, QTabWidget):
            texts += [widget.tabText(i) for i in range(widget.count())]
            texts += [widget.tabToolTip(i) for i in range(widget.count())]
        if isinstance(widget, QTableWidget):
            for column in range(widget.columnCount()):
                item = widget.horizontalHeaderItem(column)
                texts += [item.text(), item.toolTip()] if item is not None else []
    for action in root.findChildren(QAction):
        texts += [action.text(), action.toolTip()]
    pieces = []
    for text in filter(None, texts):
        plain = re.sub(r"<[^>]+>", "", text.replace("<br>", "\n"))  # rich text: its words
        pieces += [plain, *plain.split("\n"), *plain.split(" · ")]
    return [p.strip() for p in pieces if p.strip()]


def untranslated(texts: list[str], lang: str) -> list[str]:
    """The texts that are still a catalog source whose translation differs from it (English left behind)."""
    sources = [s for s, t in catalog(lang).items() if t and t != s]
    patterns = [(s, _pattern(s)) for s in sources]
    return sorted({f"{text!r} (source {source!r})" for text in texts for source, pattern in patterns
                   if pattern.fullmatch(text)})


@pytest.fixture
def locale():
    """Sets QGIS's interface language as the Options dialog does; restores the profile's afterwards."""
    settings = QgsSettings()
    before = {key: settings.value(key) for key in ("locale/overrideFlag", "locale/userLocale")}

    def choose(code: str) -> None:
        settings.setValue("locale/overrideFlag", True)
        settings.setValue("locale/userLocale", code)

    yield choose
    for key, value in before.items():
        if value is None:
            settings.remove(key)
        else:
            settings.setValue(key, value)


@pytest.fixture
def plugin_in(qgis_iface, monkeypatch, tmp_path, locale):
    """Starts the plugin with QGIS's language set to `code`; unloads it afterwards."""
    with socket.socket() as s:  # nobody answers there: the chat is built, the status line says Ollama is down
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("STACGIS_OLLAMA_URL", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("STACGIS_DATA_DIR", str(tmp_path))
    started = []

    def start(code: str):
        locale(code)
        plugin = stacgis_agent.classFactory(qgis_iface)
        plugin.initGui()
        started.append(plugin)
        return plugin

    yield start
    for plugin in started:
        if plugin.dock is not None:
            plugin.unload()


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
