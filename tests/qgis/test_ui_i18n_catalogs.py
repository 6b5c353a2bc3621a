"""The compiled catalogs load in Qt 5 and Qt 6 alike (this file runs in `make test-qt6` too): widgets built while
one is installed speak its language, and removing it brings the English source texts back."""

from __future__ import annotations

from pathlib import Path

import pytest

import stacgis_agent
from stacgis_agent.ui import i18n
from stacgis_agent.ui.activity_feed import ActivityFeed
from stacgis_agent.ui.undo_history import UndoHistoryView

REPO = Path(stacgis_agent.__file__).resolve().parent


@pytest.mark.parametrize(("lang", "send", "history"), [
    ("de", "Senden", "Dieser Verlauf wird mit dem Projekt gespeichert."),
    ("fr", "Envoyer", "Cet historique est enregistré avec le projet."),
])
def test_a_catalog_translates_the_widgets_built_under_it(qgis_app, lang, send, history):
    translator = i18n.install_translator(REPO, lang)
    assert translator is not None
    try:
        assert i18n.tr("Send") == send
        assert UndoHistoryView().limits.text() == history
        assert ActivityFeed().placeholder.text() != i18n.translatable("The assistant's steps will appear here.")
    finally:
        i18n.remove_translator(translator)
    assert i18n.tr("Send") == "Send"
    assert UndoHistoryView().limits.text() == "This history is saved with the project."
