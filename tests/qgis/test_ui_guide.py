"""The plugin's Help: *Plugins ▸ STAC GIS Agent ▸ User guide* and the dock's "?" open the user guide shipped in
the plugin folder, offline, at its contents, in the dock's language where a translation exists (English pages
where none does); links between pages and to sections stay in the window, pictures show, web links go to the
system browser, and the window reads nothing outside the plugin's docs folder. It works before the plugin's
packages are installed, when Troubleshooting is what the analyst needs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from qgis.PyQt.QtCore import QUrl
from qgis.PyQt.QtGui import QTextDocument
from qgis.PyQt.QtWidgets import QAction

import stacgis_agent
from stacgis_agent.host import requirements
from stacgis_agent.ui.guide_viewer import GuideWindow
from testkit.qgis_drivers.plugin_driver import process_until
from testkit.qgis_drivers.plugin_loader import dock_into_main_window, unload_plugin

DOCS = Path(stacgis_agent.__file__).resolve().parent / "docs"
GUIDE = DOCS / "guide"


@pytest.fixture
def plugin(qgis_iface, monkeypatch, tmp_path):
    """The plugin as QGIS starts it, before its packages are installed (the dock shows the install panel)."""
    dock_into_main_window(qgis_iface, monkeypatch)
    monkeypatch.setenv("STACGIS_DATA_DIR", str(tmp_path))
    missing = requirements.Requirement("stacgis_probe_absent", "stacgis-probe-absent", "stacgis-probe-absent>=1")
    real_check = requirements.check_requirements
    monkeypatch.setattr(requirements, "check_requirements",
                        lambda *a, **k: real_check((*requirements.REQUIREMENTS, missing)))
    loaded = stacgis_agent.classFactory(qgis_iface)
    loaded.initGui()
    yield loaded
    unload_plugin(loaded)


def test_the_menu_action_and_the_docks_question_mark_open_the_guide_before_the_packages_are_there(plugin, qgis_iface):
    assert plugin.runtime is None  # the install panel is showing
    actions = [a for a in qgis_iface.mainWindow().findChildren(QAction) if a.objectName() == "StacGisAgentHelp"]
    assert actions == [plugin.help_action]
    plugin.help_action.trigger()
    window = plugin.guide
    assert window is not None and window.isVisible()
    assert window.page.resolve() in (GUIDE / "README.md", GUIDE / "de" / "README.md", GUIDE / "fr" / "README.md")
    assert window.windowTitle().startswith("STAC GIS Agent user guide")
    window.hide()
    plugin.dock.help_button.click()
    assert plugin.guide is window and window.isVisible()


def test_unload_closes_the_guide_and_removes_the_help_action(qgis_iface, monkeypatch, tmp_path):
    dock_into_main_window(qgis_iface, monkeypatch)
    monkeypatch.setenv("STACGIS_DATA_DIR", str(tmp_path))
    loaded = stacgis_agent.classFactory(qgis_iface)
    loaded.initGui()
    loaded.show_guide()
    window = loaded.guide
    unload_plugin(loaded)
    assert not window.isVisible()
    process_until(lambda: False, 0.2)
    assert not [a for a in qgis_iface.mainWindow().findChildren(QAction) if a.objectName() == "StacGisAgentHelp"]


def test_in_german_the_contents_are_german_and_an_untranslated_page_is_english(qgis_app):
    opened = []
    window = GuideWindow(DOCS, "de", open_web=lambda url: opened.append(url.toString()) or True)
    window.show_contents()
    assert window.page == GUIDE / "de" / "README.md"
    assert window.browser.document().firstBlock().text() == "Benutzerhandbuch von STAC GIS Agent"
    window.follow(QUrl("../dock.md#language"))
    assert window.page == GUIDE / "dock.md"
    assert "language" in window.sections and window.note.text() == ""
    window.show()
    process_until(lambda: False, 0.1)
    assert window.browser.verticalScrollBar().value() > 0  # at the section, not the top of the page
    window.back()
    assert window.page == GUIDE / "de" / "README.md"
    window.follow(QUrl("https://ollama.com/download"))
    assert opened == ["https://ollama.com/download"] and window.page == GUIDE / "de" / "README.md"


def test_a_language_without_a_translation_gets_the_english_guide(qgis_app):
    window = GuideWindow(DOCS, "ja")
    window.show_contents()
    assert window.page == GUIDE / "README.md"
    assert window.browser.document().firstBlock().text() == "STAC GIS Agent user guide"


def test_pictures_show_and_nothing_outside_the_docs_folder_is_read(qgis_app, tmp_path):
    window = GuideWindow(DOCS, "en")
    window.open(GUIDE / "dock.md")
    names = [image.name() for _position, _length, image in window.pictures()]
    assert "../screenshot-chat.png" in names and len(names) >= 10
    for name in names:
        picture = window.browser.document().resource(QTextDocument.ResourceType.ImageResource, QUrl(name))
        assert picture is not None and not picture.isNull(), name
    secret = tmp_path / "secret.png"
    secret.write_bytes((DOCS / "screenshot-chat.png").read_bytes())
    for outside in (QUrl("https://example.org/tracker.png"), QUrl.fromLocalFile(str(secret)),
                    QUrl("../../../" + os.path.relpath(secret, GUIDE))):
        assert window.browser.loadResource(QTextDocument.ResourceType.ImageResource, outside) is None
    window.follow(QUrl("../../tests/conftest.py"))
    assert window.page == GUIDE / "dock.md"
    assert "outside the user guide" in window.note.text()
