"""The whole chat the dock embeds: conversation, activity feed, input, map chip, turn stats."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any, Coroutine

from qgis.PyQt.QtCore import Qt, pyqtSignal
from qgis.PyQt.QtGui import QTextCursor
from qgis.PyQt.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ..agent.events import EVENT_KINDS, Done, Notice, UserMessage
from ..agent.mentions import find_mentions, with_mentions
from ..agent.session_history import history_items
from ..agent.stores.base import SessionRecord, SessionStore
from ..agent.turn_stats import format_usage
from ..host.qt_asyncio import TaskRegistry
from .activity_feed import ActivityFeed
from .chat_session import ChatSession
from .conversation_view import ConversationView
from .event_bridge import EventBridge
from .i18n import tr
from .map_context_chip import CanvasWatcher, MapContextChip, glance
from .message_input import MessageInput
from .outside_calls_bar import OutsideCallsBar
from .sessions_panel import SessionsPanel
from .trust_button import TrustButton
from .voice import AnswerSpeaker
from .welcome_card import WelcomeCard

log = logging.getLogger(__name__)


def queue_text(place) -> str:
    """The waiting line (agent.chat_slot.QueuePlace, whose `text` is the English form) in the dock's language."""
    if place.ahead > 0:
        return tr("Waiting for a free slot ({ahead} ahead)").format(ahead=place.ahead)
    if place.running <= 0:
        return tr("Waiting for a free slot: you are next")
    if place.running == 1:
        return tr("Waiting for a free slot: 1 chat running, you are next")
    return tr("Waiting for a free slot: {running} chats running, you are next").format(running=place.running)


class ChatPanel(QWidget):
    settings_requested = pyqtSignal()
    undo_requested = pyqtSignal(str)  # message_id of the turn whose map changes to revert
    voice_install_requested = pyqtSignal()  # the Speak button offered to install the offline recogniser
    connection_check_requested = pyqtSignal()  # the user asked to check the connection to Ollama again

    def __init__(self, session: ChatSession, store: SessionStore | None = None, *, user: str = "default",
                 tasks: TaskRegistry | None = None, outputs: Path | None = None,
                 parent=None):
        super().__init__(parent)
        self.session = session
        self._failed = False  # an error ended this turn: the stats line says so, not "0 tokens in"
        self._tasks = tasks  # the plugin's registry, so unload cancels what is still running
        self._replaying = False
        self._canvas_watcher: CanvasWatcher | None = None
        self._canvas = None
        self._outputs = outputs  # the plugin's outputs folder: files the chat may open
        self.tabs = QTabWidget()
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.tabs)
        self.tabs.addTab(self._build_chat_tab(), tr("Chat"))
        self.sessions: SessionsPanel | None = None
        if store is not None:
            self.sessions = SessionsPanel(store, user, map_script=self.map_script, outputs=outputs)
            self.sessions.session_opened.connect(lambda record: self._start(self.restore(record), "restore-session"))
            self.sessions.new_session_requested.connect(lambda: self._start(self.new_session(), "new-session"))
            self.sessions.session_deleted.connect(self._on_session_deleted)
            self.tabs.addTab(self.sessions, tr("Sessions"))
            self.tabs.currentChanged.connect(self._on_tab_changed)
        self._connect_session()

    def _build_chat_tab(self) -> QWidget:
        tab = QWidget()
        layout = QVBoxLayout(tab)
        layout.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        self.new_button = QPushButton(tr("New chat"))
        self.new_button.clicked.connect(lambda: self._start(self.new_session(), "new-session"))
        self.speak_box = QCheckBox(tr("Speak answers"))
        self.speaker = AnswerSpeaker()
        self.speak_box.setVisible(self.speaker.available)
        self.settings_button = QPushButton(tr("Settings…"))
        self.settings_button.clicked.connect(self.settings_requested)
        top.addWidget(self.new_button)
        top.addStretch(1)
        top.addWidget(self.speak_box)
        top.addWidget(self.settings_button)
        layout.addLayout(top)

        self.conversation = ConversationView(outputs=self._outputs)
        self.welcome = WelcomeCard()
        self.welcome.example_chosen.connect(self._send_example)
        self.welcome.retry_requested.connect(self._retry_connection)
        self.chat_pages = QStackedWidget()  # the welcome card until the chat has a message
        self.chat_pages.addWidget(self.welcome)
        self.chat_pages.addWidget(self.conversation)
        self.feed = ActivityFeed()
        self.splitter = splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.chat_pages)
        splitter.addWidget(self.feed)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([850, 150])  # the welcome card needs the room; the empty feed only says what comes
        self._outside_slot = QVBoxLayout()  # the outside clients' running calls, once the plugin hands them over
        self._outside_slot.setContentsMargins(0, 0, 0, 0)
        self.outside_calls: OutsideCallsBar | None = None
        layout.addLayout(self._outside_slot)
        layout.addWidget(splitter, 1)

        self.stats = QLabel()
        self.stats.setStyleSheet("color: #6e6e6e;")
        self.stats.setWordWrap(True)
        self.trust_button = TrustButton()  # the chat's trust level, beside the stats line that wraps to make room
        stats_row = QHBoxLayout()
        stats_row.addWidget(self.stats, 1)
        stats_row.addWidget(self.trust_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(stats_row)

        context_row = QHBoxLayout()
        self.map_chip = MapContextChip()
        self.queue_label = QLabel()
        self.cancel_wait_button = QPushButton(tr("Cancel wait"))
        self.cancel_wait_button.clicked.connect(self.session.stop)
        context_row.addWidget(self.map_chip)
        context_row.addStretch(1)
        context_row.addWidget(self.queue_label)
        context_row.addWidget(self.cancel_wait_button)
        self.show_queue(None)
        layout.addLayout(context_row)

        input_row = QHBoxLayout()
        self.input = MessageInput()
        self.input.submitted.connect(self.send)
        self.input.empty_submitted.connect(self.stats.setText)  # Enter on an empty box says what to do
        self.send_button = QPushButton(tr("Send"))
        self.send_button.clicked.connect(self._send_or_stop)
        self.mic_button = QPushButton(tr("Speak"))
        self.mic_button.setCheckable(True)  # push to talk: pressed = listening, pressed again = recognise
        self.mic_button.setToolTip(tr("Speak a request (recognised on this computer); it lands in the box to check"))
        self.mic_button.setVisible(False)  # until plugin/ hands the panel a voice input
        self.mic_button.toggled.connect(self._toggle_listening)
        self.voice = None
        self._voice_install_offered = False
        input_row.addWidget(self.input, 1)
        buttons = QVBoxLayout()
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.mic_button)
        buttons.addStretch(1)
        input_row.addLayout(buttons)
        layout.addLayout(input_row)
        return tab

    def _connect_session(self) -> None:
        """The widgets render `self.view`: the session's live stream, forwarded, and a stored session's
        events replayed (restore). What follows the live turn (undo history, the plugin's checks) listens
        to `session.bridge` itself and so never sees a replay."""
        session, self.view = self.session, EventBridge(self)
        for kind in EVENT_KINDS:
            getattr(session.bridge, kind).connect(getattr(self.view, kind))
        view = self.view
        self.conversation.connect_bridge(view)
        self.feed.connect_bridge(view)
        view.user_message.connect(self._on_user_message)
        view.done.connect(self._on_done)
        view.error.connect(self._on_error)
        self.conversation.answered.connect(session.answer)
        self.conversation.undo_requested.connect(self.undo_requested)
        session.busy_changed.connect(self._on_busy)
        session.map_changed.connect(self.conversation.show_undo)
        session.queue_changed.connect(self.show_queue)
        session.trust_changed.connect(self.trust_button.show_trust)
        self.trust_button.show_trust(session.trust)

    def _start(self, coro: Coroutine, name: str) -> asyncio.Task:
        """Every task the panel starts is held (a task nobody holds can vanish, and its error with it)."""
        if self._tasks is None:
            self._tasks = TaskRegistry(asyncio.get_event_loop())
        return self._tasks.start(coro, name=name)

    # -- intent
    def send(self, text: str) -> None:
        if self.session.busy:
            return
        context = self.session.map_context()  # read once: the chip shows what the model is sent
        self.map_chip.show_context(context)
        mentions = find_mentions(text, [layer.name for layer in context.layers] if context is not None else [])
        self.session.send(text, with_mentions(context, mentions, self.map_chip.include))

    def _send_or_stop(self) -> None:
        if self.session.busy:
            self.session.stop()
        else:
            self.input.submit()

    def refresh_map_context(self) -> None:
        """Updates the chip from the canvas as it is now."""
        self.map_chip.show_context(self.session.map_context())

    def watch_canvas(self, iface) -> None:
        """Keeps the map chip in step with the canvas (extent, CRS, layers, active layer, selection)."""
        self._canvas = canvas = iface.mapCanvas()
        self._canvas_watcher = CanvasWatcher(canvas, lambda: self.map_chip.show_context(glance(canvas, iface)),
                                             iface, parent=self)
        self.refresh_map_context()

    def map_script(self, title: str) -> str:
        """The map as it is now (project layers, styles, the canvas view) as a PyQGIS script."""
        # qgis.core, kept out of the widget's import: the ui/ widget tests also run under Qt 6 alone
        from .project_script import project_to_pyqgis

        return project_to_pyqgis(title, canvas=self._canvas, tr=tr)

    def _show_page(self, page: QWidget) -> None:
        if page is self.chat_pages.currentWidget():
            return
        self.chat_pages.setCurrentWidget(page)
        total = sum(self.splitter.sizes())
        share = 0.85 if page is self.welcome else 0.6  # without it the feed's long content takes the whole height
        self.splitter.setSizes([int(total * share), total - int(total * share)])

    def _send_example(self, text: str) -> None:
        self.input.setPlainText(text)
        self.input.submit()

    def _retry_connection(self) -> None:
        self.welcome.show_checking()
        self.connection_check_requested.emit()

    def show_connection(self, state, model: str) -> None:
        """The result of a connection check (`agent.health.ConnectionState`), on the welcome card."""
        self.welcome.show_connection(state, model)

    # Voice input ---------------------------------------------------------------------------
    def set_voice_input(self, voice) -> None:
        """`voice`: a ui.voice_input.PushToTalk; the Speak button appears and drives it."""
        self.voice = voice
        voice.listening.connect(self._show_listening)
        voice.heard.connect(self._insert_transcript)
        voice.problem.connect(self._voice_problem)
        voice.install_needed.connect(self._offer_voice_install)
        self.mic_button.setVisible(True)

    def _offer_voice_install(self) -> None:
        self.mic_button.setText(tr("Install voice input"))
        self._voice_install_offered = True

    def voice_ready(self) -> None:
        """After the recogniser was installed: the button speaks again."""
        self._voice_install_offered = False
        self.mic_button.setText(tr("Speak"))
        self.stats.setText(tr("Voice input is ready: press Speak, say your request, press Stop."))

    def _toggle_listening(self, pressed: bool) -> None:
        if self.voice is None:
            return
        if pressed and self._voice_install_offered:
            self.mic_button.setChecked(False)
            self.voice_install_requested.emit()
            return
        if pressed:
            if not self.voice.start():
                self.mic_button.setChecked(False)
        else:
            self.voice.stop()

    def _show_listening(self, on: bool) -> None:
        self.mic_button.blockSignals(True)
        self.mic_button.setChecked(on)
        self.mic_button.blockSignals(False)
        self.mic_button.setText(tr("Stop") if on else tr("Speak"))
        self.stats.setText(tr("Listening… press Stop when you have said your request.") if on
                           else tr("Recognising what you said…"))

    def _insert_transcript(self, text: str) -> None:
        before = self.input.toPlainText().rstrip()
        self.input.setPlainText(f"{before} {text}" if before else text)
        cursor = self.input.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        self.input.setTextCursor(cursor)
        self.input.setFocus()
        self.stats.setText(tr("Heard you: check the text in the box, correct it if needed, then press Enter."))

    def _voice_problem(self, text: str) -> None:
        self.mic_button.blockSignals(True)
        self.mic_button.setChecked(False)
        self.mic_button.blockSignals(False)
        self.mic_button.setText(tr("Speak"))
        self.stats.setText(text)

    def watch_outside_calls(self, calls: Any) -> OutsideCallsBar:
        """Shows the calls outside MCP clients are running (tools.outside.running_calls.OutsideCalls), each
        with a Stop."""
        self.outside_calls = OutsideCallsBar(calls)
        self._outside_slot.addWidget(self.outside_calls)
        return self.outside_calls

    def show_notice(self, text: str, *, in_chat: bool = False) -> None:
        """Something that happened (a store fell back, an undo): into the feed, and the chat when
        the user's eyes are there; the dock's status line keeps saying whether the model can answer."""
        self.feed.add_notice(Notice(text))
        if in_chat:
            self.conversation.add_status(text)

    async def new_session(self) -> None:
        await self.session.open(None)
        self.conversation.clear()
        self.feed.clear()
        self.stats.clear()
        self._show_page(self.welcome)
        self.tabs.setCurrentIndex(0)

    async def restore(self, record: SessionRecord) -> None:
        """Opens a stored session: its history into the view, its id into the agent."""
        await self.session.open(record.info.session_id)
        self.conversation.clear()
        self.feed.clear()
        self.stats.clear()
        self._show_page(self.conversation)
        self._replaying = True
        try:
            for item in history_items(record):
                self.view.emit_event(item)
        finally:
            self._replaying = False
        self.tabs.setCurrentIndex(0)

    def show_queue(self, place) -> None:
        """`None` hides the waiting line; otherwise where this chat waits (agent.chat_slot.QueuePlace)."""
        waiting = place is not None
        self.queue_label.setText(queue_text(place) if waiting else "")
        self.queue_label.setVisible(waiting)
        self.cancel_wait_button.setVisible(waiting)

    # -- rendering
    def _on_user_message(self, event: UserMessage) -> None:
        self._show_page(self.conversation)
        self.conversation.add_user_message(event.text)
        if not self._replaying:
            self.input.last_sent = event.text
            self.input.clear()

    def _on_busy(self, busy: bool) -> None:
        self.send_button.setText(tr("Stop") if busy else tr("Send"))
        self.send_button.setToolTip(tr("Stop the agent") if busy else tr("Send (Enter)"))
        if busy:
            self._failed = False
            self.stats.setText(tr("Working…"))
        else:
            self.show_queue(None)

    def _on_error(self, _event) -> None:
        self._failed = True

    def _on_done(self, event: Done) -> None:
        measured = event.usage.steps or event.usage.wall_ms  # a turn cut before its first step has no numbers
        answered = event.usage.prompt_tokens or event.usage.eval_tokens
        failed, self._failed = self._failed, False
        if failed and not event.stopped:  # not "0 tokens in · 0 out", as if the model had answered nothing
            self.stats.setText(tr("Ended by an error: see above.")
                               + (f" {format_usage(event.usage, tr)}" if answered else ""))
        else:
            stopped = tr("Stopped") + " · " if event.stopped else ""
            self.stats.setText(stopped + format_usage(event.usage, tr) if measured
                               else tr("Stopped before the model answered.") if event.stopped else "")
        if self._replaying:
            return
        if self.speak_box.isChecked() and not event.stopped:
            self.speaker.speak(event.content)
        if self.sessions is not None:
            self._start(self.sessions.run_reporting_errors(self.sessions.refresh()), "refresh-sessions")

    def _on_tab_changed(self, index: int) -> None:
        if self.sessions is not None and self.tabs.widget(index) is self.sessions:
            self._start(self.sessions.run_reporting_errors(self.sessions.refresh()), "refresh-sessions")

    def _on_session_deleted(self, session_id: str) -> None:
        if session_id == self.session.session_id:
            self._start(self.new_session(), "new-session")
