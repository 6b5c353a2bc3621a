"""Small states of the dock an analyst stumbles on, driven as a person does (type, Enter, click):
an empty Enter says what to do, a turn that failed does not end on "Done · 0 tokens in", a long call
that was stopped does not keep promising "~900 s left", the catalogs table's column titles are whole,
and exporting a chat whose first question is long proposes a name of whole words, never ending in "…"."""

from __future__ import annotations

from pathlib import Path

import pytest
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest
from qgis.PyQt.QtWidgets import QFileDialog

from stacgis_agent.agent.events import Done, ToolProgress, ToolStart
from testkit.llm.ollama_emulator import Turn
from testkit.qgis_drivers.analyst_view import feed
from testkit.qgis_drivers.plugin_driver import process_until, send, wait_turn
from testkit.qgis_drivers.screen_checks import clipped_texts, save_shot, show_dock_at


def test_enter_on_an_empty_box_sends_nothing_and_says_what_to_do(plugin, emu):
    show_dock_at(plugin, 320)  # a narrow dock: the message is read whole there too
    panel = plugin.runtime.panel
    panel.input.setFocus()
    QTest.keyClicks(panel.input, "   ")
    QTest.keyClick(panel.input, Qt.Key.Key_Return)
    assert process_until(lambda: "Type a question first" in panel.stats.text(), 5), panel.stats.text()
    assert emu.chat_requests() == [] and not plugin.runtime.session.busy
    assert clipped_texts(plugin.dock) == [], clipped_texts(plugin.dock)
    save_shot(plugin, "empty-message")


def test_a_failed_turn_ends_on_the_error_not_on_zero_tokens(plugin, emu):
    emu.script(Turn(http_status=500, http_error="model runner crashed"))
    send(plugin, "What data do I have?")
    wait_turn(plugin, 30)
    last = feed(plugin)[-1]
    assert last.startswith("Ended by the error above"), feed(plugin)
    assert "0 tokens in" not in last


def test_a_stopped_long_call_says_stopped_not_seconds_left(plugin):
    bridge = plugin.runtime.panel.session.bridge  # what the agent's events reach the dock through
    events = [ToolStart(1, "c1", "collection_statistics", {}),
              ToolProgress(1, "c1", "collection_statistics", 3, 412, "3 / 412 items, 0.2 MB read, ~926 s left"),
              Done("s", "m", "", 0.0, stopped=True)]
    for event in events:
        bridge.emit_event(event)
    line = next(e for e in feed(plugin) if e.startswith("collection_statistics:"))
    assert "s left" not in line and "stopped (1 % done)" in line, line


def test_the_catalogs_table_column_titles_are_whole(plugin, qgis_iface):
    from stacgis_agent.agent.config import Settings
    from stacgis_agent.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(Settings(ollama_url="http://127.0.0.1:11434"))
    try:
        dialog.resize(640, 600)
        dialog.show()
        table = dialog.catalogs.table
        header = table.horizontalHeader()
        for column in range(table.columnCount()):
            text = table.horizontalHeaderItem(column).text()
            assert "…" not in text and "(" not in text, text
            assert header.fontMetrics().horizontalAdvance(text) < header.sectionSize(column) + 4 or column == 1, text
    finally:
        dialog.close()
        dialog.deleteLater()


LONG_QUESTION = ("Find the Sentinel-2 scenes over Lyon in June 2025 and compute the mean NDVI of every parcel "
                 "in my study area")


@pytest.fixture
def home(tmp_path, monkeypatch):
    """The analyst's home with a Documents folder, and no export made yet: the dialog proposes Documents."""
    from qgis.core import QgsSettings

    from stacgis_agent.ui.export_paths import SETTING

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home" / "Documents").mkdir(parents=True)
    QgsSettings().remove(SETTING)
    yield tmp_path / "home"
    QgsSettings().remove(SETTING)


def test_exporting_a_chat_with_a_long_first_question_proposes_whole_words_and_saves_under_that_name(
        plugin, emu, home, monkeypatch):
    emu.script(Turn(content="The mean NDVI of your parcels in June 2025 is 0.62."))
    send(plugin, LONG_QUESTION)
    wait_turn(plugin, 30)
    panel = plugin.runtime.panel
    panel.tabs.setCurrentWidget(panel.sessions)
    assert process_until(lambda: panel.sessions.list.count() == 1, 5)
    panel.sessions.list.setCurrentRow(0)
    proposed = []

    def press_save(parent, caption, directory, kind):  # the analyst keeps the proposed name and presses Save
        proposed.append(directory)
        return directory, kind.split(";;")[0]

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(press_save))
    QTest.mouseClick(panel.sessions.buttons["markdown"], Qt.MouseButton.LeftButton)
    assert process_until(lambda: panel.sessions.message.text().startswith("Saved"), 10), \
        panel.sessions.message.text()

    path = Path(proposed[0])
    assert path.parent == home / "Documents" and path.suffix == ".md", path
    assert "…" not in path.name and "..." not in path.name, path.name
    words = path.stem.split(" ")
    assert len(words) >= 6 and words == LONG_QUESTION.split(" ")[:len(words)], path.stem  # the question's words
    assert len(words) < len(LONG_QUESTION.split(" "))  # the question is long: the name is cut, between words
    written = path.read_text(encoding="utf-8")
    assert LONG_QUESTION in written and "0.62" in written, written
    assert str(path) in panel.sessions.message.text()
