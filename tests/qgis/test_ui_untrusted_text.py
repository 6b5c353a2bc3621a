"""Model and catalog text in the chat loads nothing and opens only web links, after the analyst has seen
the address: real widgets (the conversation's answer bubbles, the ask-user card, the activity feed's
tooltips), a FIFO whose opening would be seen (a reader unblocks the writer), a file whose content must never
appear, and URL handlers registered with QDesktopServices that record what reaches the desktop."""

from __future__ import annotations

import os
import subprocess

import pytest
from qgis.PyQt.QtCore import QEvent, QObject, Qt, QTimer, QUrl, pyqtSlot
from qgis.PyQt.QtGui import QDesktopServices, QHelpEvent, QTextCursor
from qgis.PyQt.QtTest import QTest
from qgis.PyQt.QtWidgets import QApplication, QMessageBox

from stacgis_agent.agent.events import AskUser, Content, ToolError
from stacgis_agent.ui.activity_feed import ActivityFeed
from stacgis_agent.ui.ask_user_widget import AskUserWidget
from stacgis_agent.ui.conversation_view import ConversationView

SECRET = "SECRET-CONTENT-4471"


class WatchedFifo:
    """A FIFO with a writer process waiting on it: the writer gets past its open() only when someone opens the
    FIFO to read; it then writes SECRET, counts the read in a file and waits for the next reader (so a widget
    that opens it twice does not hang the test). A process, not a thread: a GUI thread blocked in open()
    holds Python's lock, and a writer thread could never run."""

    def __init__(self, path):
        self.path = path
        self.reads = f"{path}.reads"
        os.mkfifo(path)
        self._writer = subprocess.Popen(["sh", "-c", 'while :; do printf %s "$1" > "$2"; echo read >> "$3"; done',
                                         "sh", SECRET, path, self.reads])

    def release(self) -> bool:
        """Whether anyone opened it to read; the writer is stopped."""
        for _ in range(3):
            QApplication.processEvents()
        self._writer.kill()
        self._writer.wait(timeout=10)
        return os.path.exists(self.reads)


class DesktopRecorder(QObject):
    def __init__(self):
        super().__init__()
        self.opened: list[str] = []

    @pyqtSlot(QUrl)
    def record(self, url: QUrl) -> None:
        self.opened.append(url.toString())


@pytest.fixture
def desktop(qgis_app):
    """What reaches the desktop (QDesktopServices.openUrl, from Python or from Qt's C++), by scheme."""
    recorder = DesktopRecorder()
    schemes = ("http", "https", "file", "javascript", "ftp", "data")
    for scheme in schemes:
        QDesktopServices.setUrlHandler(scheme, recorder, "record")
    yield recorder
    for scheme in schemes:
        QDesktopServices.unsetUrlHandler(scheme)


@pytest.fixture
def fifo(tmp_path):
    watched = WatchedFifo(str(tmp_path / "pipe.png"))
    yield watched
    watched.release()


def _shown(widget):
    widget.resize(420, 600)
    widget.show()
    for _ in range(3):
        QApplication.processEvents()
    widget.grab()  # painted, so every image is asked for
    return widget


def _answer(view: ConversationView, text: str):
    view.on_content(Content(text=text, is_complete=True))
    _shown(view)
    return view.bubbles()[-1]


def _click_link(bubble, label: str) -> None:
    for browser in bubble.body.segments:
        found = browser.document().find(label)
        if not found.isNull():
            cursor = QTextCursor(found)
            cursor.setPosition(found.selectionStart() + 1)
            browser.setTextCursor(cursor)
            point = browser.cursorRect(cursor).center()
            QTest.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
            return
    raise AssertionError(f"no link {label!r} in {bubble.rendered_text()!r}")


def _answer_dialog(button: QMessageBox.StandardButton, seen: list[str]) -> None:
    """Answers the next modal box once it is up, keeping its text."""
    def answer():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, answer)
            return
        seen.append(box.text())
        box.button(button).click()
    QTimer.singleShot(20, answer)


def test_images_in_an_answer_read_no_file(qgis_app, fifo, tmp_path):
    view = ConversationView()
    bubble = _answer(view, f"Here is the chart:\n\n![z](file://{fifo.path})\n\nAnd the rest of the answer, "
                           f"with <img src=\"{fifo.path}\"> inline.")
    assert "And the rest of the answer, with" in bubble.rendered_text()
    assert not fifo.release()


def test_a_file_link_neither_replaces_the_answer_nor_opens(qgis_app, desktop, tmp_path):
    secret = tmp_path / "hostname"
    secret.write_text(SECRET)
    view = ConversationView()
    bubble = _answer(view, f"The answer is 42. See [the notes](file://{secret}) or [this](javascript:alert(1)).")
    seen: list[str] = []
    for label in ("the notes", "this"):
        _answer_dialog(QMessageBox.StandardButton.Ok, seen)
        _click_link(bubble, label)
        QApplication.processEvents()
    assert bubble.rendered_text().startswith("The answer is 42.")
    assert all(SECRET not in segment.toHtml() for segment in bubble.body.segments)
    assert desktop.opened == []
    assert [text.split(":")[0] for text in seen] == ["This link was not opened"] * 2


def test_a_web_link_opens_only_after_the_analyst_agrees(qgis_app, desktop):
    url = "https://example.org/ndvi?collection=sentinel-2&bbox=4.8,45.7"
    view = ConversationView()
    bubble = _answer(view, f"Read [the guide]({url}).")
    seen: list[str] = []
    _answer_dialog(QMessageBox.StandardButton.Cancel, seen)
    _click_link(bubble, "the guide")
    assert desktop.opened == [] and url in seen[0]
    _answer_dialog(QMessageBox.StandardButton.Open, seen)
    _click_link(bubble, "the guide")
    assert desktop.opened == [url] and url in seen[1]


def test_the_ask_user_card_shows_markup_as_written_and_reads_no_file(qgis_app, fifo):
    question = f'Which one? <img src="{fifo.path}"> <a href="file:///etc/hostname">here</a>'
    card = AskUserWidget(AskUser(request_id="r1", question=question, options=(f"<img src={fifo.path}>", "Lyon"),
                                 details=(f"<img src='{fifo.path}'> replaces 'parcels'",)))
    _shown(card)
    card.buttons[0].click()
    _shown(card)
    assert card.question.text() == question and card.question.textFormat() == Qt.TextFormat.PlainText
    assert card.outcome.text() == f"You answered: <img src={fifo.path}>"
    assert not fifo.release()


def test_a_tooltip_in_the_activity_feed_reads_no_file(qgis_app, fifo):
    feed = _shown(ActivityFeed())
    feed.add_tool_error(ToolError(step=1, call_id="c1", tool_name="load_stac_asset", error=f'<img src="{fifo.path}">'))
    _shown(feed)
    rect = feed.visualItemRect(feed.topLevelItem(0))
    event = QHelpEvent(QEvent.Type.ToolTip, rect.center(), feed.viewport().mapToGlobal(rect.center()))
    QApplication.sendEvent(feed.viewport(), event)
    for _ in range(5):
        QApplication.processEvents()
    tip = [w for w in QApplication.topLevelWidgets() if w.inherits("QTipLabel") and w.isVisible()]
    assert tip, "no tooltip shown"
    tip[0].grab()
    assert not fifo.release()


def test_titles_and_server_text_in_labels_are_shown_as_written(qgis_app, tmp_path):
    """A conversation title or a server's message holding markup is text: no picture is loaded from it."""
    from qgis.PyQt.QtCore import Qt

    from stacgis_agent.ui.dock import StacAgentDock
    from stacgis_agent.ui.settings_dialog import _result_label

    dock = StacAgentDock(None)
    hostile = f'<img src="file://{tmp_path}/x.png"> Lyon'
    dock.set_status(hostile)
    label = _result_label()
    for widget in (dock.status, label):
        assert widget.textFormat() == Qt.TextFormat.PlainText
    dock.deleteLater()
