"""The chat renders agent events the way a user reads them: bubbles, Markdown, feed, questions."""

from __future__ import annotations

import pytest
from qgis.PyQt.QtCore import QBuffer, QByteArray, QIODevice, Qt, QUrl
from qgis.PyQt.QtGui import QColor, QImage, QTextDocument, QTextFormat
from qgis.PyQt.QtTest import QTest
from qgis.PyQt.QtWidgets import QApplication, QLabel

from stacgis_agent.agent.events import (
    AskUser,
    Content,
    Done,
    Error,
    IterationLimit,
    Notice,
    ProviderSwitched,
    Thinking,
    ToolError,
    ToolResult,
    ToolStart,
    Usage,
)
from stacgis_agent.agent.turn_stats import format_usage
from stacgis_agent.ui.activity_feed import ActivityFeed
from stacgis_agent.ui.ask_user_widget import AskUserWidget
from stacgis_agent.ui.conversation_view import ConversationView
from stacgis_agent.ui.event_bridge import EventBridge
from stacgis_agent.ui.message_input import MessageInput
from stacgis_agent.ui.streamed_markdown import SEGMENT_CHARS


@pytest.fixture
def view(qgis_app):
    bridge = EventBridge()
    conversation, feed = ConversationView(), ActivityFeed()
    conversation.connect_bridge(bridge)
    feed.connect_bridge(bridge)
    conversation.resize(500, 400)
    feed.resize(500, 200)
    conversation.show()
    feed.show()
    yield bridge, conversation, feed
    conversation.close()
    feed.close()


def test_streamed_answer_renders_as_markdown_in_one_bubble_and_feed_in_order(view):
    bridge, conversation, feed = view
    conversation.add_user_message("Mean NDVI over the parcel?")
    for event in [
        Thinking(1, "The user wants "), Thinking(1, "NDVI."),
        ToolStart(1, "c1", "raster_stats", {"layer": "ndvi", "band": 1}),
        ToolResult(1, "c1", "raster_stats", {"mean": 0.61}, 41.6),
        Thinking(2, "Now answer."),
        Content("## NDVI\n\n| stat | value |\n|---|---|\n"), Content("| mean | 0.61 |\n\n- healthy "),
        Content("[source](https://example.org)"),
        Done("s1", "m1", "", 1.0, Usage(prompt_tokens=1690, eval_tokens=120, eval_ms=4000,
                                       wall_ms=5200, context_window=16384, steps=2, tool_calls=1)),
    ]:
        bridge.emit_event(event)

    bubbles = conversation.bubbles()
    assert [b.role for b in bubbles] == ["user", "assistant"]
    answer = bubbles[1]
    assert answer.text().startswith("## NDVI") and answer.message_id == "m1"
    shown = "".join(segment.document().toMarkdown() for segment in answer.body.segments)  # as Qt laid it out
    assert "|stat|value|" in shown and "- healthy" in shown and "(https://example.org)" in shown, shown
    assert "stat\nvalue\nmean\n0.61" in answer.rendered_text()
    assert feed.entries() == [
        "Thinking (1)", "Calling raster_stats", "raster_stats completed (42 ms)", "Thinking (2)",
        "Done · " + format_usage(Usage(prompt_tokens=1690, eval_tokens=120, eval_ms=4000, wall_ms=5200,
                                       context_window=16384, steps=2, tool_calls=1)),
    ]
    thinking = feed.topLevelItem(0).child(0)
    assert thinking.text(0) == "The user wants NDVI." and thinking.font(0).italic()
    assert '"layer": "ndvi"' in feed.topLevelItem(1).child(0).text(0)


def test_turn_stats_show_tokens_speed_context_and_wall_time():
    text = format_usage(Usage(prompt_tokens=1690, eval_tokens=120, eval_ms=4000, wall_ms=5200,
                              context_window=16384, steps=1, tool_calls=0))
    assert text == ("1\u202f690 tokens in · 120 out · 30.0 tokens/s · context 1\u202f810 / 16\u202f384 (11%)"
                    " · 5.2 s · 1 step")
    # several steps: the window holds the last step's prompt and answer, not the sum over the steps
    text = format_usage(Usage(prompt_tokens=5000, eval_tokens=90, wall_ms=8000, context_window=16384, steps=3,
                              tool_calls=2, context_used=1900))
    assert text == ("5\u202f000 tokens in · 90 out · context 1\u202f900 / 16\u202f384 (12%) · 8.0 s · 3 steps"
                    " · 2 tool calls")
    # a session saved before the last step was recorded: no made-up share
    assert "context" not in format_usage(Usage(prompt_tokens=5000, context_window=16384, steps=3))


def test_errors_are_red_in_feed_and_in_chat(view):
    bridge, conversation, feed = view
    bridge.emit_event(ToolError(1, "c1", "buffer", "layer 'roads' not found"))
    bridge.emit_event(Error("Ollama stopped answering at http://127.0.0.1:1. Start it with `ollama serve`."))
    said = "Ollama stopped answering at http://127.0.0.1:1. Start it with `ollama serve`."
    assert feed.entries()[:2] == ["buffer failed: layer 'roads' not found",
                                  "Error: what happened and what to do is in the chat"]
    assert feed.topLevelItem(1).child(0).text(0) == said  # folded under the line, not said a second time
    assert feed.topLevelItem(0).foreground(0).color().red() > 150
    assert feed.topLevelItem(1).foreground(0).color().red() > 150
    status = conversation.items()[-1]
    assert "ollama serve" in status.text() and "be1e1e" in status.styleSheet()


def test_complete_content_replaces_streamed_fragments(view):
    bridge, conversation, _feed = view
    bridge.emit_event(Content("Hel"))
    bridge.emit_event(Content("Hello, world.", is_complete=True))
    bridge.emit_event(Done("s", "m", "Hello, world.", 0.0))
    assert [b.text() for b in conversation.bubbles()] == ["Hello, world."]


def test_unclosed_code_fence_while_streaming_does_not_swallow_the_rest(view):
    bridge, conversation, _feed = view
    bridge.emit_event(Content("Run:\n```python\nprint('x')\n"))
    document = conversation.bubbles()[0].body.segments[0].document()
    code = document.findBlock(document.toPlainText().index("print"))
    assert code.text() == "print('x')"
    assert code.blockFormat().stringProperty(QTextFormat.Property.BlockCodeLanguage) == "python"
    bridge.emit_event(Content("```\nThen **check** it."))
    document = conversation.bubbles()[0].body.segments[0].document()
    after = document.findBlock(document.toPlainText().index("Then"))
    assert after.text() == "Then check it."
    assert after.blockFormat().stringProperty(QTextFormat.Property.BlockCodeLanguage) == ""


def test_ask_user_shows_details_and_options_and_a_click_answers(view):
    bridge, conversation, feed = view
    answers = []
    conversation.answered.connect(lambda rid, choice: answers.append((rid, choice)))
    bridge.emit_event(AskUser("r1", "Delete layer 'roads'?", ("Delete", "Keep"),
                              details=("layer roads", "/data/roads.gpkg")))
    widget = conversation.items()[-1]
    assert isinstance(widget, AskUserWidget)
    assert "roads.gpkg" in widget.details.text() and widget.free_text is None
    assert [b.text() for b in widget.buttons] == ["Delete", "Keep"]
    widget.buttons[1].click()
    assert answers == [("r1", "Keep")]
    assert not widget.buttons[0].isEnabled() and widget.outcome.text() == "You answered: Keep"
    assert feed.entries()[-1] == "Asking you: Delete layer 'roads'?"


def test_ask_user_free_text_answer(view):
    bridge, conversation, _feed = view
    answers = []
    conversation.answered.connect(lambda rid, choice: answers.append((rid, choice)))
    bridge.emit_event(AskUser("r2", "Which year?", ("2023",), allow_free_text=True))
    widget = conversation.items()[-1]
    widget.free_text.setText("2021")
    widget.free_text.returnPressed.emit()
    assert answers == [("r2", "2021")]


def test_stopped_turn_says_so_and_expires_open_questions(view):
    bridge, conversation, _feed = view
    bridge.emit_event(AskUser("r3", "Go on?", ("Yes", "No")))
    bridge.emit_event(Done("s", "m", "", 0.0, stopped=True))
    question = [w for w in conversation.items() if isinstance(w, AskUserWidget)][0]
    assert not question.buttons[0].isEnabled()
    assert conversation.items()[-1].text().startswith("Stopped.")


def test_copy_puts_the_markdown_on_the_clipboard(view):
    bridge, conversation, _feed = view
    bridge.emit_event(Content("**bold** answer"))
    conversation.bubbles()[0].copy_button.click()
    assert QApplication.clipboard().text() == "**bold** answer"


def test_undo_button_only_on_the_turn_that_changed_the_map(view):
    bridge, conversation, _feed = view
    undone = []
    conversation.undo_requested.connect(undone.append)
    for mid in ("m1", "m2"):
        bridge.emit_event(Content(f"answer {mid}"))
        bridge.emit_event(Done("s", mid, "", 0.0))
    conversation.show_undo("m2")
    first, second = conversation.bubbles()
    assert first.undo_button.isHidden() and not second.undo_button.isHidden()
    second.undo_button.click()
    assert undone == ["m2"]


def _scroll_state(feed, qt_process_until):
    """Scroll value and maximum once layout has settled (it takes longer on a loaded machine)."""
    bar = feed.verticalScrollBar()
    seen = []

    def settled():
        seen.append((bar.value(), bar.maximum()))
        return len(seen) > 5 and seen[-1][1] > 0 and len(set(seen[-5:])) == 1

    qt_process_until(settled, timeout=3)
    return bar.value(), bar.maximum()


def test_feed_follows_newest_entry_until_user_scrolls_up_and_resumes_at_bottom(view, qt_process_until):
    _bridge, _conversation, feed = view
    for i in range(40):
        feed.add_entry(f"entry {i}")
    value, maximum = _scroll_state(feed, qt_process_until)
    assert maximum > 0 and value == maximum

    feed.verticalScrollBar().setValue(0)  # the user scrolls up to read
    for i in range(10):
        feed.add_entry(f"more {i}")
    value, maximum = _scroll_state(feed, qt_process_until)
    assert value == 0 and maximum > 0

    feed.verticalScrollBar().setValue(maximum)  # back to the bottom: following again
    for i in range(10):
        feed.add_entry(f"again {i}")
    value, new_maximum = _scroll_state(feed, qt_process_until)
    assert new_maximum > maximum and value == new_maximum


def test_conversation_follows_streamed_text_unless_scrolled_up(view, qt_process_until):
    bridge, conversation, _feed = view
    for i in range(15):
        conversation.add_user_message(f"question {i}\nwith\nseveral\nlines")
    value, maximum = _scroll_state(conversation, qt_process_until)
    assert maximum > 0 and value == maximum
    conversation.verticalScrollBar().setValue(0)
    bridge.emit_event(Content("line\n\n" * 30))
    value, maximum2 = _scroll_state(conversation, qt_process_until)
    assert value == 0 and maximum2 > maximum



def test_long_streamed_answer_renders_the_same_as_in_one_piece_but_in_segments(view):
    bridge, conversation, _feed = view
    answer = "".join(f"## Site {i}\n\n| band | mean |\n|---|---|\n| NDVI | 0.{i} |\n\n```\ncode {i}\n\n"
                     f"still code\n```\n\n- item {i}\n\n" for i in range(60))
    for start in range(0, len(answer), 7):
        bridge.emit_event(Content(answer[start:start + 7]))
    streamed = conversation.bubbles()[0]
    whole = conversation.add_assistant_message(answer)
    assert len(streamed.body.segments) > 3  # only the last segment was being re-rendered
    assert all(len(s.markdown) < 2 * SEGMENT_CHARS for s in streamed.body.segments)
    assert all(not s.markdown.count("```") % 2 for s in streamed.body.segments)  # never cut inside code
    assert streamed.text() == answer
    assert streamed.rendered_text().split() == whole.rendered_text().split()
    bridge.emit_event(Content("A different, complete answer.", is_complete=True))
    assert [s.markdown for s in streamed.body.segments] == ["A different, complete answer."]


def test_inline_chart_images_render_in_the_answer(view):
    bridge, conversation, _feed = view
    image = QImage(40, 20, QImage.Format.Format_RGB32)
    image.fill(QColor("green"))
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    encoded = bytes(data.toBase64()).decode()
    bridge.emit_event(Content(f"NDVI over time:\n\n![chart](data:image/png;base64,{encoded})\n"))
    document = conversation.bubbles()[0].body.segments[0].document()
    names = [f.charFormat().toImageFormat().name() for f in _fragments(document) if f.charFormat().isImageFormat()]
    assert names == ["stacgis-inline-1.png"]
    shown = document.resource(QTextDocument.ResourceType.ImageResource, QUrl(names[0]))
    assert shown.width() == 40 and shown.pixelColor(5, 5) == QColor("green")


def _fragments(document):
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            yield it.fragment()
            it += 1
        block = block.next()


def test_provider_switches_limits_and_notices_are_shown_as_notices(view):
    bridge, conversation, feed = view
    bridge.emit_event(ProviderSwitched("ollama qwen3:8b @ laptop", "ollama qwen3:8b @ gpu-box", "laptop unreachable"))
    bridge.emit_event(Notice("Tool embeddings are unavailable; choosing tools by keywords."))
    bridge.emit_event(IterationLimit(15, 15))
    assert feed.entries() == ["Switched from ollama qwen3:8b @ laptop to ollama qwen3:8b @ gpu-box",
                              "Tool embeddings are unavailable; choosing tools by keywords.",
                              "Stopped after 15 steps (limit 15)"]
    assert feed.topLevelItem(0).child(0).text(0) == "laptop unreachable"
    assert "raise 'Max steps' in the settings" in conversation.items()[-1].text()


def test_message_box_enter_sends_shift_enter_breaks_the_line_up_recalls(qgis_app):
    box = MessageInput()
    sent = []
    box.submitted.connect(sent.append)
    box.show()
    QTest.keyClicks(box, "first line")
    QTest.keyClick(box, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    QTest.keyClicks(box, "second line")
    assert sent == [] and box.toPlainText() == "first line\nsecond line"
    QTest.keyClick(box, Qt.Key.Key_Return)
    assert sent == ["first line\nsecond line"]
    box.last_sent = sent[-1]  # what the panel does once the message is taken
    box.clear()
    QTest.keyClick(box, Qt.Key.Key_Up)
    assert box.toPlainText() == "first line\nsecond line"
    QTest.keyClick(box, Qt.Key.Key_Enter)  # the keypad's Enter sends too
    assert len(sent) == 2
    box.close()


def test_a_chart_a_tool_made_is_shown_in_the_answer(view, tmp_path):
    bridge, conversation, _feed = view
    chart = tmp_path / "chart.png"
    image = QImage(300, 200, QImage.Format.Format_RGB32)
    image.fill(QColor("#2e7d32"))
    assert image.save(str(chart))
    bridge.emit_event(ToolResult(1, "c1", "generate_chart", {"chart_file": str(chart), "chart_type": "bar"}, 12.0))
    bridge.emit_event(ToolResult(1, "c2", "search_items", {"chart_file": "/nowhere/missing.png"}, 3.0))
    bridge.emit_event(Content("Here is the change per date."))
    bridge.emit_event(Done("s1", "m1", "Here is the change per date.", 0.0))
    answer = conversation.bubbles()[-1]
    assert answer.images() == [str(chart)]
    label = [w for w in answer.findChildren(QLabel) if w.property("image_path")][0]
    assert label.pixmap().width() == 300  # narrower than the chat width: shown at its own size

    bridge.emit_event(Content("Next answer, no chart."))
    bridge.emit_event(Done("s1", "m2", "Next answer, no chart.", 0.0))
    assert conversation.bubbles()[-1].images() == []  # images belong to the turn that made them


def test_an_exported_page_is_a_link_that_opens_the_file_or_its_folder_and_nothing_else(qgis_app, tmp_path,
                                                                                      monkeypatch):
    """Issue 42.10: under the answer, each file a tool wrote in the outputs folder is named with links that open
    it (or its folder) through the guard; a path outside the outputs folder gets no link and never opens."""
    from stacgis_agent.ui import untrusted_text

    opened: list[str] = []
    monkeypatch.setattr(untrusted_text.QDesktopServices, "openUrl", lambda url: opened.append(url.toLocalFile()) or True)
    outputs = tmp_path / "outputs"
    outputs.mkdir()
    pdf, thumbnail = outputs / "Client map.pdf", outputs / "Client map page 1.png"
    pdf.write_bytes(b"%PDF-1.4 exported page")
    QImage(40, 30, QImage.Format.Format_RGB32).save(str(thumbnail))
    secret = tmp_path / "elsewhere" / "secret.pdf"
    secret.parent.mkdir()
    secret.write_bytes(b"%PDF not ours")
    bridge = EventBridge()
    conversation = ConversationView(outputs=outputs)
    conversation.connect_bridge(bridge)
    for event in [ToolResult(1, "c1", "export_print_layout", {"path": str(pdf), "thumbnail_file": str(thumbnail)}, 9.0),
                  ToolResult(2, "c2", "export_print_layout", {"path": str(secret)}, 9.0),
                  Content("Exported.", is_complete=True), Done("s1", "m1", "", 1.0)]:
        bridge.emit_event(event)
    [answer] = conversation.bubbles()
    assert answer.files() == [str(pdf)]  # the file outside the outputs folder is not offered
    [row] = [w for w in answer.findChildren(QLabel) if w.property("file_path")]
    assert "Client map.pdf" in row.text()
    row.linkActivated.emit("open")
    row.linkActivated.emit("folder")
    assert opened == [str(pdf), str(outputs)]
    assert not untrusted_text.open_output(str(secret), outputs)  # and the guard refuses it when asked directly
    script = outputs / "run me.py"
    script.write_text("print('hi')")
    assert untrusted_text.open_output(str(script), outputs) and opened[-1] == str(outputs)  # a script: its folder
