"""Issue 46.4: the memories the analyst can see and edit are the model's own. A fact the model remembered shows in
the Memories tab with the chat and message it was learned from; edited there, it is what the model is given next
time (recalled with the message, and found by its memory tool), in the emulator's recorded requests; exported to
Markdown, deleted, and imported back."""

from __future__ import annotations

from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest

from testkit.llm.ollama_emulator import Turn
from testkit.llm.reactive_emulator import parse_tool_text, tool_messages
from testkit.qgis_drivers.plugin_driver import process_until, send, wait_turn
from testkit.qgis_drivers.screen_checks import clipped_texts, save_shot, show_dock_at

OLD, NEW = "I work in EPSG:2154", "I work in EPSG:3035 for maps of Europe"


def open_tab(plugin, widget) -> None:
    bar = plugin.runtime.panel.tabs.tabBar()
    index = plugin.runtime.panel.tabs.indexOf(widget)
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    assert process_until(lambda: plugin.runtime.panel.tabs.currentWidget() is widget, 5)


def click(button) -> None:
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)


def test_a_memory_edited_in_the_list_is_what_the_model_gets_next_time(plugin, emu, tmp_path):
    show_dock_at(plugin, 320)
    emu.script(Turn(tool_calls=[("add_memory", {"content": OLD, "kind": "preference"})]), Turn(content="Noted."))
    send(plugin, "Remember that I work in EPSG:2154")
    wait_turn(plugin, 30)

    memories = plugin.runtime.memories_view
    open_tab(plugin, memories)
    assert process_until(lambda: memories.list.count() == 1, 10)
    shown = memories.list.item(0).text()
    assert shown.startswith(OLD + "\npreference · ")
    assert shown.endswith("learned from chat “Remember that I work in EPSG:2154”, message 1")

    item = memories.list.item(0)
    QTest.mouseClick(memories.list.viewport(), Qt.MouseButton.LeftButton, pos=memories.list.visualItemRect(item).center())
    click(memories.edit_button)
    assert memories.editor.isVisible() and memories.editor.toPlainText() == OLD
    memories.editor.selectAll()
    QTest.keyClicks(memories.editor, NEW)
    assert clipped_texts(plugin.dock) == [], clipped_texts(plugin.dock)
    save_shot(plugin, "memories-edit")
    show_dock_at(plugin, 720)
    save_shot(plugin, "memories-edit")
    click(memories.save_button)
    assert process_until(lambda: memories.texts() == [NEW], 10), memories.texts()
    assert memories.list.item(0).text().endswith("message 1")  # where it was learned is kept

    open_tab(plugin, plugin.runtime.panel.tabs.widget(0))
    emu.script(Turn(tool_calls=[("search_memories", {"query": "which CRS do I work in"})]),
               Turn(content="EPSG:3035."))
    send(plugin, "Which CRS do I work in?")
    wait_turn(plugin, 30)
    asked = emu.chat_requests()[-2]
    user = [m for m in asked["messages"] if m["role"] == "user"][-1]["content"]
    assert "[memories]" in user and f"(preference) {NEW}" in user and "2154" not in user
    found = parse_tool_text(tool_messages(emu.chat_requests()[-1], "search_memories")[-1]["content"])
    assert [hit["content"] for hit in found["results"]] == [NEW]

    # Markdown out, deleted, and back in
    target = tmp_path / "memories.md"
    memories.ask_export_path = lambda _suggested: str(target)
    open_tab(plugin, memories)
    click(memories.export_button)
    assert process_until(target.exists, 10)
    text = target.read_text(encoding="utf-8")
    assert "## preference · " in text and NEW in text
    assert "_Learned from: chat “Remember that I work in EPSG:2154”, message 1 · memory " in text
    QTest.mouseClick(memories.list.viewport(), Qt.MouseButton.LeftButton,
                     pos=memories.list.visualItemRect(memories.list.item(0)).center())
    memories.confirm_delete = lambda _content: True
    click(memories.delete_button)
    assert process_until(lambda: memories.list.count() == 0, 10)
    memories.ask_import_path = lambda: str(target)
    click(memories.import_button)
    assert process_until(lambda: memories.texts() == [NEW], 10)
    assert memories.list.item(0).text().endswith("learned from an imported Markdown file")
    click(memories.import_button)  # the same file again adds nothing
    assert process_until(lambda: "Imported 0 new memories" in memories.message.text(), 10)
    assert memories.list.count() == 1
