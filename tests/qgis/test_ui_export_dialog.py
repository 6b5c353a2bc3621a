"""The export dialog proposes a sensible place and name: the folder of the last export (else Documents,
else home) and the conversation's whole title, with only what a file system refuses replaced."""

from __future__ import annotations

import pytest
from qgis.core import QgsSettings
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest
from qgis.PyQt.QtWidgets import QFileDialog

from stacgis_agent.agent.events import Content, Done, event_to_dict
from stacgis_agent.agent.stores.sqlite import SqliteSessionStore
from stacgis_agent.ui.chat_panel import ChatPanel
from stacgis_agent.ui.chat_session import ChatSession
from stacgis_agent.ui.export_paths import SETTING, file_name_for
from testkit.qgis_drivers.plugin_driver import until

TITLE = "Compare NDVI June/September 2025 over Lyon: fields north of the Rhône?"


@pytest.fixture
async def panel(qgis_app, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home" / "Documents").mkdir(parents=True)
    QgsSettings().remove(SETTING)
    store = SqliteSessionStore(tmp_path / "sessions.sqlite")
    await store.get_or_create("s1")
    await store.save("s1", {"messages": []}, [{"type": "user", "text": "NDVI?"}] + [
        event_to_dict(e) for e in (Content("Higher in June."), Done("s1", "m1", "Higher in June.", 1.0))])
    await store.rename("s1", TITLE)
    panel = ChatPanel(ChatSession(lambda sid: None), store)
    panel.show()
    await panel.sessions.refresh()
    panel.sessions.select("s1")
    yield panel
    panel.close()
    QgsSettings().remove(SETTING)
    await store.aclose()


def _dialog_answers(monkeypatch, answer_with):
    proposed = []

    def fake(parent, caption, directory, kind):
        proposed.append(directory)
        return answer_with(directory), kind

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(fake))
    return proposed


async def test_first_export_proposes_documents_and_the_whole_title(panel, tmp_path, monkeypatch):
    proposed = _dialog_answers(monkeypatch, lambda directory: directory)
    QTest.mouseClick(panel.sessions.buttons["markdown"], Qt.MouseButton.LeftButton)
    await until(lambda: panel.sessions.message.text().startswith("Saved"))
    name = "Compare NDVI June - September 2025 over Lyon - fields north of the Rhône.md"
    assert proposed == [str(tmp_path / "home" / "Documents" / name)]
    assert (tmp_path / "home" / "Documents" / name).read_text().startswith(f"# {TITLE}\n")


async def test_the_next_export_proposes_the_folder_chosen_last_time(panel, tmp_path, monkeypatch):
    chosen = tmp_path / "projects" / "lyon"
    chosen.mkdir(parents=True)
    proposed = _dialog_answers(monkeypatch, lambda directory: str(chosen / "notes.md"))
    QTest.mouseClick(panel.sessions.buttons["markdown"], Qt.MouseButton.LeftButton)
    await until(lambda: panel.sessions.message.text().startswith("Saved"))
    panel.sessions.message.clear()
    QTest.mouseClick(panel.sessions.buttons["pyqgis"], Qt.MouseButton.LeftButton)
    await until(lambda: panel.sessions.message.text().startswith("Saved"))
    assert proposed[1].startswith(str(chosen) + "/") and proposed[1].endswith("Rhône.py")
    assert "a script that rebuilds the map" in panel.sessions.message.text()


def test_names_keep_the_title_and_drop_only_what_file_systems_refuse():
    assert file_name_for("Lyon NDVI — juin 2025") == "Lyon NDVI — juin 2025"
    assert file_name_for('a/b\\c:d*e?f"g<h>i|j') == "a - b - c - d - e - f - g - h - i - j"
    assert file_name_for("  ...  ") == "conversation" and file_name_for("CON") == "CON (conversation)"
    long = " ".join(["word"] * 60)
    assert len(file_name_for(long)) <= 150 and file_name_for(long).endswith("word")
