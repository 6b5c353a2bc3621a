"""Small states of the dock an analyst stumbles on, driven as a person does (type, Enter, click):
an empty Enter says what to do, a turn that failed does not end on "Done · 0 tokens in", a long call
that was stopped does not keep promising "~900 s left", the catalogs table's column titles are whole,
and a proposed export file name never ends in "…"."""

from __future__ import annotations

from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest

from stacgis_agent.agent.events import Done, ToolProgress, ToolStart
from stacgis_agent.ui.export_paths import file_name_for
from testkit.llm.ollama_emulator import Turn
from testkit.qgis_drivers.analyst_view import feed
from testkit.qgis_drivers.plugin_driver import process_until, send, wait_turn


def test_enter_on_an_empty_box_sends_nothing_and_says_what_to_do(plugin, emu):
    panel = plugin.runtime.panel
    panel.input.setFocus()
    QTest.keyClicks(panel.input, "   ")
    QTest.keyClick(panel.input, Qt.Key.Key_Return)
    assert process_until(lambda: "Type a question first" in panel.stats.text(), 5), panel.stats.text()
    assert emu.chat_requests() == [] and not plugin.runtime.session.busy


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


def test_a_proposed_export_name_never_ends_in_an_ellipsis():
    assert file_name_for("Find Sentinel-2 over Lyon in June and compute the mean NDVI of every parcel in the…") == \
        "Find Sentinel-2 over Lyon in June and compute the mean NDVI of every parcel in the"
