"""The dock in a chosen language, for the tests that judge it: QGIS's locale set as the Options dialog sets it
(`locale`), the plugin started under it (`plugin_in`), every text a widget shows (`shown_texts`) and those that
are still a catalog's English source (`untranslated`). Used by tests/qgis/test_ui_translations.py."""

from __future__ import annotations

import re
import socket
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from qgis.core import QgsSettings
from qgis.PyQt.QtWidgets import (
    QAbstractButton,
    QAction,
    QDialogButtonBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTableWidget,
    QTabWidget,
    QWidget,
)

import stacgis_agent

REPO = Path(stacgis_agent.__file__).resolve().parent


def catalog(lang: str) -> dict[str, str]:
    """source -> translation of i18n/stacgis_agent_<lang>.ts."""
    root = ET.parse(REPO / "i18n" / f"stacgis_agent_{lang}.ts").getroot()
    return {m.findtext("source"): m.findtext("translation") or "" for m in root.iter("message")
            if m.find("translation").get("type") != "vanished"}


def _pattern(source: str) -> re.Pattern:
    """A source text as it shows once its {placeholders} are filled."""
    parts = re.split(r"\{\w+\}", source)
    return re.compile(".+".join(re.escape(p) for p in parts), re.DOTALL)


def qgis_own(widget: QWidget, root: QWidget) -> bool:
    """A widget QGIS or Qt words itself (a QGIS widget such as the authentication selector or the message bar,
    or a dialog's standard OK/Cancel): QGIS's and Qt's own catalogs translate it in a running QGIS."""
    while widget is not None and widget is not root:
        kind = type(widget)
        if kind.__name__.startswith("Qgs") and kind.__module__.startswith("qgis."):
            return True
        if isinstance(widget.parentWidget(), QDialogButtonBox):
            return True
        widget = widget.parentWidget()
    return False


def shown_texts(root: QWidget, plugins_own: bool = False) -> list[str]:
    """What the analyst can read in `root` and its children: texts, titles, tooltips, placeholders, tab and
    header names, actions (hidden pages included: they show as soon as the chat gets there). `plugins_own`:
    only the texts the plugin words, not those of QGIS's and Qt's own widgets inside it."""
    texts = []
    for widget in [root, *root.findChildren(QWidget)]:
        if plugins_own and qgis_own(widget, root):
            continue
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
        if not (plugins_own and isinstance(action.parent(), QWidget) and qgis_own(action.parent(), root)):
            texts += [action.text(), action.toolTip()]
    pieces = []
    for text in filter(None, texts):
        plain = re.sub(r"<[^>]+>", "", text.replace("<br>", "\n"))  # rich text: its words
        pieces += [plain, *plain.split("\n"), *plain.split(" · ")]
    return [p.strip() for p in pieces if p.strip()]


def _judged(source: str) -> bool:
    """A source with placeholders is looked for only when its own words say something ("{tool} failed: {text}"
    and "{first} and {last}" would also fit a server's English error, shown as it wrote it)."""
    words = re.findall(r"[A-Za-z]{3,}", re.sub(r"\{\w+\}", " ", source))
    return "{" not in source or len(words) >= 2


def untranslated(texts: list[str], lang: str) -> list[str]:
    """The texts that are still a catalog source whose translation differs from it (English left behind)."""
    sources = [s for s, t in catalog(lang).items() if t and t != s and _judged(s)]
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
