"""The dock in the analyst's language: Qt Linguist catalogs (i18n/stacgis_agent_<lang>.qm) chosen from QGIS's
locale setting, and `tr()` for every string the dock shows.

Source strings are constant English; a placeholder is filled after translation:
tr("Calling {tool}").format(tool=name). Text for the model and the tools stays English.
scripts/i18n_strings.py collects the tr("…") and translatable("…") literals of ui/ and plugin/ into the .ts
catalogs, and those of the core (agent/, host/, tools/), which is handed `tr` (agent/dock_text.py).
"""

from __future__ import annotations

import logging
from pathlib import Path

from qgis.PyQt.QtCore import QCoreApplication, QLocale, QTranslator

log = logging.getLogger(__name__)

CONTEXT = "StacGisAgent"
CATALOG = "stacgis_agent_{lang}.qm"


def tr(text: str) -> str:
    """`text` in the installed catalog's language; `text` itself when there is none or no entry."""
    return QCoreApplication.translate(CONTEXT, text)


def said(words, english: str) -> str:
    """What the core said (an agent.dock_text.Said, e.g. the error that ended a turn) in the dock's language;
    `english` when it was written as plain text (an empty Said: an older session log, a tool's own words)."""
    return words.text(tr) if words.template else english


def translatable(text: str) -> str:
    """Marks a module-level constant for the catalog without translating it yet (no translator is installed
    when a module is imported): show it with tr(CONSTANT)."""
    return text


def ui_language() -> str:
    """The two-letter language QGIS's interface uses: "Override system locale" (Settings ▸ Options ▸
    General) with its chosen language when it is on, else the system's (as QGIS does)."""
    from qgis.core import QgsSettings  # here: the ui/ widget tests also run under Qt 6 without qgis.core

    settings = QgsSettings()
    override = str(settings.value("locale/overrideFlag", False)).lower() in ("true", "1")
    chosen = settings.value("locale/userLocale", "", type=str) or ""
    code = chosen if override and chosen else QLocale.system().name()
    return (code or "en")[:2].lower()


def install_translator(plugin_dir: str | Path, language: str | None = None) -> QTranslator | None:
    """Loads and installs the catalog of `language` (default: QGIS's, ui_language()); None when the plugin ships
    none for it (English: the source texts). The caller removes it at unload (remove_translator)."""
    lang = language or ui_language()
    path = Path(plugin_dir) / "i18n" / CATALOG.format(lang=lang)
    if not path.is_file():
        return None
    translator = QTranslator()
    if not translator.load(str(path)):
        log.warning("could not load the translation %s", path)
        return None
    QCoreApplication.installTranslator(translator)
    return translator


def remove_translator(translator: QTranslator | None) -> None:
    if translator is not None:
        QCoreApplication.removeTranslator(translator)
