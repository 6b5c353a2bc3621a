"""The conversation: user and assistant bubbles, streamed Markdown, inline questions."""

from __future__ import annotations

import html
from pathlib import Path

from qgis.PyQt.QtCore import Qt, pyqtSignal
from qgis.PyQt.QtGui import QPixmap
from qgis.PyQt.QtWidgets import (
    QApplication,
    QFrame,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ..agent.events import AskUser, Content, Done, Error, IterationLimit, ToolError, ToolResult
from ..agent.trust import READ_ONLY_REFUSAL
from .ask_user_widget import AskUserWidget
from .autoscroll import StickToBottom
from .event_bridge import EventBridge
from .flow_layout import FlowLayout, fixed_height_for_width
from .i18n import said, tr
from .streamed_markdown import StreamedMarkdownView
from .untrusted_text import open_output, output_file, plain_tooltip

USER_STYLE = "background: #dceefc; border-radius: 8px;"
ASSISTANT_STYLE = "background: #f4f4f4; border-radius: 8px;"
IMAGE_WIDTH = 420  # px; charts and map views are shown at most this wide in the chat
IMAGE_KEYS = ("chart_file", "png_file", "thumbnail_file")  # charts, map views, exported pages and animations
FILE_KEYS = ("path", "file", "csv_file", "files")  # files a tool wrote: exported pages, reports, tables


class MessageBubble(QFrame):
    undo_requested = pyqtSignal(str)  # message_id

    def __init__(self, role: str, text: str = "", parent=None):
        super().__init__(parent)
        self.role = role
        self.message_id = ""
        self._text = ""
        self.setObjectName(f"{role}Bubble")
        self.setStyleSheet(f"#{role}Bubble {{ {USER_STYLE if role == 'user' else ASSISTANT_STYLE} }}")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 4)
        if role == "user":
            self.body: QWidget = QLabel()
            self.body.setWordWrap(True)
            self.body.setTextFormat(Qt.TextFormat.PlainText)
            self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        else:
            self.body = StreamedMarkdownView()
        layout.addWidget(self.body)
        holder = QWidget()  # the buttons wrap in a narrow dock ("Änderungen zurücknehmen" and "Kopieren" did not fit)
        actions = FlowLayout(holder)
        fixed_height_for_width(holder)
        self.undo_button = QPushButton(tr("Undo last turn"))
        self.undo_button.setToolTip(tr("Revert what this answer changed on the map"))
        self.undo_button.clicked.connect(lambda: self.undo_requested.emit(self.message_id))
        self.undo_button.hide()
        self.copy_button = QPushButton(tr("Copy"))
        self.copy_button.setToolTip(tr("Copy this message as Markdown"))
        self.copy_button.clicked.connect(self.copy_to_clipboard)
        for button in (self.undo_button, self.copy_button):
            button.setFlat(True)
            actions.addWidget(button)
        layout.addWidget(holder)
        self.set_text(text)

    def text(self) -> str:
        return self._text

    def append(self, fragment: str) -> None:
        self.set_text(self._text + fragment)

    def set_text(self, text: str) -> None:
        self._text = text
        if isinstance(self.body, QLabel):
            self.body.setText(text)
        else:
            self.body.set_text(text)

    def add_image(self, path: str, width: int = IMAGE_WIDTH) -> QLabel | None:
        """A picture a tool made during this turn (a chart, a map view), shown under the text."""
        pixmap = QPixmap(path)
        if pixmap.isNull():
            return None
        label = QLabel()
        label.setPixmap(pixmap.scaledToWidth(min(width, pixmap.width()),
                                             Qt.TransformationMode.SmoothTransformation))
        label.setToolTip(plain_tooltip(path))
        label.setProperty("image_path", path)
        self.layout().insertWidget(self.layout().count() - 1, label)
        return label

    def images(self) -> list[str]:
        return [w.property("image_path") for w in self.findChildren(QLabel) if w.property("image_path")]

    def add_file(self, path: Path, outputs: Path | None) -> QLabel:
        """A file a tool wrote this turn: its name, a link that opens it and one that shows its folder. The
        links carry no address: a click opens this path, through the guard, whatever the text says."""
        label = QLabel()
        label.setTextFormat(Qt.TextFormat.RichText)
        label.setText(f"{html.escape(path.name)} — <a href=\"open\">{html.escape(tr('Open'))}</a> · "
                      f"<a href=\"folder\">{html.escape(tr('Show in folder'))}</a>")
        label.setWordWrap(True)
        label.setOpenExternalLinks(False)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
        label.setToolTip(plain_tooltip(str(path)))
        label.setProperty("file_path", str(path))
        label.linkActivated.connect(lambda which: open_output(str(path), outputs, folder=which == "folder"))
        self.layout().insertWidget(self.layout().count() - 1, label)
        return label

    def files(self) -> list[str]:
        return [w.property("file_path") for w in self.findChildren(QLabel) if w.property("file_path")]

    def rendered_text(self) -> str:
        return self.body.text() if isinstance(self.body, QLabel) else self.body.plain_text()

    def copy_to_clipboard(self) -> None:
        QApplication.clipboard().setText(self._text)


class ConversationView(QScrollArea):
    answered = pyqtSignal(str, str)  # request_id, choice (from an inline question)
    undo_requested = pyqtSignal(str)  # message_id of the turn to revert

    def __init__(self, parent=None, outputs: Path | None = None):
        super().__init__(parent)
        self.outputs = outputs  # the plugin's outputs folder: the only files the chat opens
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        inner = QWidget()
        self._layout = QVBoxLayout(inner)
        self._layout.setContentsMargins(6, 6, 6, 6)
        self._layout.addStretch(1)
        self.setWidget(inner)
        self.autoscroll = StickToBottom(self.verticalScrollBar())
        self._streaming: MessageBubble | None = None
        self._questions: list[AskUserWidget] = []
        self._turn_images: list[str] = []
        self._turn_files: list[Path] = []

    def connect_bridge(self, bridge: EventBridge) -> None:
        bridge.content.connect(self.on_content)
        bridge.ask_user.connect(self.on_ask_user)
        bridge.error.connect(self.on_error)
        bridge.iteration_limit.connect(self.on_iteration_limit)
        bridge.done.connect(self.on_done)
        bridge.tool_result.connect(self.on_tool_result)
        bridge.tool_error.connect(self.on_tool_error)

    # -- what the conversation holds, for tests and exports
    def items(self) -> list[QWidget]:
        return [self._layout.itemAt(i).widget() for i in range(self._layout.count() - 1)]

    def bubbles(self) -> list[MessageBubble]:
        return [w for w in self.items() if isinstance(w, MessageBubble)]

    def clear(self) -> None:
        for widget in self.items():
            self._layout.removeWidget(widget)
            widget.deleteLater()
        self._streaming = None
        self._questions.clear()

    def _add(self, widget: QWidget) -> QWidget:
        self._layout.insertWidget(self._layout.count() - 1, widget)
        return widget

    # -- rendering
    def add_user_message(self, text: str) -> MessageBubble:
        self._streaming = None
        return self._add(MessageBubble("user", text))

    def add_assistant_message(self, text: str, message_id: str = "") -> MessageBubble:
        bubble = MessageBubble("assistant", text)
        bubble.message_id = message_id
        bubble.undo_requested.connect(self.undo_requested)
        return self._add(bubble)

    def add_status(self, text: str, *, error: bool = False) -> QLabel:
        label = QLabel(text)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setStyleSheet("color: #be1e1e;" if error else "color: #6e6e6e; font-style: italic;")
        return self._add(label)

    def on_content(self, event: Content) -> None:
        if self._streaming is None:
            self._streaming = self.add_assistant_message("")
        if event.is_complete:
            self._streaming.set_text(event.text)
        else:
            self._streaming.append(event.text)

    def on_ask_user(self, event: AskUser) -> None:
        self._streaming = None  # text after the answer starts a new bubble
        widget = AskUserWidget(event)
        widget.answered.connect(self.answered)
        self._questions.append(widget)
        self._add(widget)

    def on_error(self, event: Error) -> None:
        self.add_status(said(event.said, event.message), error=True)

    def on_iteration_limit(self, event: IterationLimit) -> None:
        self.add_status(tr("The agent stopped after {steps} steps (limit {limit}). Ask it to continue, or raise "
                           "'Max steps' in the settings.").format(steps=event.steps, limit=event.limit))

    def on_tool_error(self, event: ToolError) -> None:
        if event.said.template == READ_ONLY_REFUSAL:  # the analyst's own choice: said where they read
            self.add_status(said(event.said, event.error))

    def on_tool_result(self, event: ToolResult) -> None:
        self._turn_images.extend(image_files(event.result))
        for path in written_files(event.result, self.outputs):
            if path not in self._turn_files:
                self._turn_files.append(path)

    def on_done(self, event: Done) -> None:
        bubble = self._streaming
        if bubble is None and (event.content or self._turn_images or self._turn_files) and not event.stopped:
            bubble = self.add_assistant_message(event.content)
        if bubble is not None:
            bubble.message_id = event.message_id
            for path in self._turn_images:
                bubble.add_image(path)
            for path in self._turn_files:
                bubble.add_file(path, self.outputs)
        self._turn_images, self._turn_files = [], []
        for question in self._questions:
            question.expire()
        self._questions.clear()
        self._streaming = None
        if event.stopped:
            self.add_status(tr("Stopped. Nothing more will be done for this message."))

    def show_undo(self, message_id: str) -> None:
        for bubble in self.bubbles():
            bubble.undo_button.setVisible(bool(message_id) and bubble.message_id == message_id)


def image_files(result: object) -> list[str]:
    """PNG files a tool result points at (generate_chart's chart_file, get_map_view's png_file, the thumbnail
    of an exported layout page or animation)."""
    if not isinstance(result, dict):
        return []
    found = []
    for key in IMAGE_KEYS:
        path = result.get(key)
        if isinstance(path, str) and path.lower().endswith(".png") and Path(path).is_file():
            found.append(path)
    return found


def written_files(result: object, outputs: Path | None) -> list[Path]:
    """Files a tool result names that the plugin wrote in its outputs folder (an exported PDF, a report, a CSV)."""
    if not isinstance(result, dict):
        return []
    named = []
    for key in FILE_KEYS:
        value = result.get(key)
        named += [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)]
    found = []
    for path in named:
        real = output_file(path, outputs)
        if real is not None and real not in found:
            found.append(real)
    return found
