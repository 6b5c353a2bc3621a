"""The agent's reasoning, live: thinking, tool calls, results, errors and notices."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from qgis.PyQt.QtCore import QSize, Qt
from qgis.PyQt.QtGui import QBrush, QColor, QFont, QFontMetrics, QPixmap, QTextLayout, QTextOption
from qgis.PyQt.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QProgressBar,
    QStyledItemDelegate,
    QTreeWidget,
    QTreeWidgetItem,
)

from ..agent.events import (
    AskUser,
    Done,
    Error,
    IterationLimit,
    Notice,
    ProviderSwitched,
    Thinking,
    ToolError,
    ToolProgress,
    ToolResult,
    ToolStart,
)
from ..agent.turn_stats import format_usage
from .autoscroll import StickToBottom
from .event_bridge import EventBridge
from .i18n import said, tr, translatable
from .tool_error_text import needs_a_choice, tool_failure
from .untrusted_text import plain_tooltip

ERROR_COLOR = QColor(190, 30, 30)
NOTICE_COLOR = QColor(110, 110, 110)
# Results can be whole GeoJSON documents; the feed shows their start.
DETAIL_CHARS = 600
# Short: the feed is a few lines high beside the welcome card; the whole story is in the tooltip.
EMPTY_TEXT = translatable("The assistant's steps will appear here.")
EMPTY_TOOLTIP = translatable("How the assistant works on your request: its reasoning, each tool it calls with the "
                              "arguments and the result, and the tokens and time each answer took.")


PICTURE_WIDTH = 200  # the map picture the model saw, as a thumbnail in the feed


def picture_seen(result: Any) -> str:
    """The PNG a result sent to the model (get_map_view's `png_file` when `picture_for_model`), or ""."""
    if not isinstance(result, dict) or not result.get("picture_for_model"):
        return ""
    path = result.get("png_file")
    return path if isinstance(path, str) and path.lower().endswith(".png") and Path(path).is_file() else ""


def _pretty(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, indent=1, default=str)
    except (TypeError, ValueError):
        text = str(value)
    return text if len(text) <= DETAIL_CHARS else text[:DETAIL_CHARS] + " …"


class _WrappingDelegate(QStyledItemDelegate):
    """Rows as tall as their wrapped text: QTreeView sizes rows without knowing the column width."""

    def sizeHint(self, option, index) -> QSize:
        base = super().sizeHint(option, index)
        view = self.parent()
        depth, parent = 1, index.parent()
        while parent.isValid():
            depth, parent = depth + 1, parent.parent()
        # the text's room: the row less its indentation and the item's margins, and less the scroll bar even
        # before it shows (it appears without a resize event, and the rows would keep a line too few)
        room = view.viewport().width()
        if not view.verticalScrollBar().isVisible():
            room -= view.verticalScrollBar().sizeHint().width()
        width = max(room - view.indentation() * depth - 12, 50)
        text = index.data(Qt.ItemDataRole.DisplayRole) or ""
        # one line of room more than the layout needs: Qt's item drawing drops a last line that does not fit
        # whole, and on long rows it came out one short (seen at 320 px: "…or set the Ollama URL with the")
        line = QFontMetrics(option.font).lineSpacing()
        height = _wrapped_height(text, option.font, width)
        return QSize(base.width(), max(base.height(), height + (line if height > 1.5 * line else 0) + 6))


def _wrapped_height(text: str, font: QFont, width: int) -> int:
    """The height of `text` wrapped at `width`, laid out line by line as the style lays it out."""
    total = 0
    for paragraph in text.split("\n"):
        layout = QTextLayout(paragraph, font)
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        layout.setTextOption(option)
        layout.beginLayout()
        while True:
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(width)
            total += line.height() + QFontMetrics(font).leading()
        layout.endLayout()
    return round(total)


class ActivityFeed(QTreeWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setHeaderHidden(True)
        self.setColumnCount(1)
        self.setWordWrap(True)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.setItemDelegate(_WrappingDelegate(self))
        self._width = -1
        self._failed = False  # an error ended this turn: its Done line says so instead of "0 tokens"
        self.setUniformRowHeights(False)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.autoscroll = StickToBottom(self.verticalScrollBar())
        self._thinking: dict[int, tuple[QTreeWidgetItem, QTreeWidgetItem]] = {}
        self._progress: dict[str, tuple[QTreeWidgetItem, QProgressBar]] = {}  # call id -> line and bar
        self._ended: set[str] = set()  # calls that finished or were stopped: a late notification changes nothing
        self.placeholder = QLabel(tr(EMPTY_TEXT), self.viewport())
        self.placeholder.setWordWrap(True)
        self.placeholder.setToolTip(tr(EMPTY_TOOLTIP))
        self.placeholder.setStyleSheet("color: #6e6e6e; padding: 8px;")
        for signal in (self.model().rowsInserted, self.model().rowsRemoved, self.model().modelReset):
            signal.connect(self._show_placeholder_if_empty)

    def _show_placeholder_if_empty(self, *_args) -> None:
        self.placeholder.setVisible(self.topLevelItemCount() == 0)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        width = self.viewport().width()
        self.placeholder.setFixedSize(width, self.placeholder.heightForWidth(width))  # every line, none cut
        if self.viewport().width() != self._width:  # re-wrap every row for the new width
            self._width = self.viewport().width()
            self.doItemsLayout()

    def connect_bridge(self, bridge: EventBridge) -> None:
        bridge.thinking.connect(self.add_thinking)
        bridge.tool_start.connect(self.add_tool_start)
        bridge.tool_result.connect(self.add_tool_result)
        bridge.tool_error.connect(self.add_tool_error)
        bridge.ask_user.connect(self.add_ask_user)
        bridge.provider_switched.connect(self.add_provider_switched)
        bridge.notice.connect(self.add_notice)
        bridge.iteration_limit.connect(self.add_iteration_limit)
        bridge.error.connect(self.add_error)
        bridge.done.connect(self.add_done)
        bridge.tool_progress.connect(self.show_progress)

    def entries(self) -> list[str]:
        """The top-level lines as the user reads them, oldest first."""
        return [self.topLevelItem(i).text(0) for i in range(self.topLevelItemCount())]

    def add_entry(self, text: str, detail: str = "", *, color: QColor | None = None,
                  expanded: bool = False, italic_detail: bool = False) -> QTreeWidgetItem:
        item = QTreeWidgetItem([text])
        item.setToolTip(0, plain_tooltip(text))  # tool and model text: never rich
        if color is not None:
            item.setForeground(0, QBrush(color))
        self.addTopLevelItem(item)
        if detail:
            child = QTreeWidgetItem([detail])
            if italic_detail:
                font = QFont(child.font(0))
                font.setItalic(True)
                child.setFont(0, font)
            if color is not None:
                child.setForeground(0, QBrush(color))
            child.setFlags(child.flags() | Qt.ItemFlag.ItemIsSelectable)
            item.addChild(child)
            item.setExpanded(expanded)
        return item

    def add_thinking(self, event: Thinking) -> None:
        if event.step in self._thinking:
            _item, child = self._thinking[event.step]
            child.setText(0, child.text(0) + event.text)
            return
        item = self.add_entry(tr("Thinking ({step})").format(step=event.step), event.text or " ", expanded=True,
                              italic_detail=True, color=None)
        self._thinking[event.step] = (item, item.child(0))

    def add_tool_start(self, event: ToolStart) -> None:
        self._ended.discard(event.call_id)  # a provider may number calls afresh each turn
        self.add_entry(tr("Calling {tool}").format(tool=event.tool_name), _pretty(event.tool_args))

    def show_progress(self, event: ToolProgress) -> None:
        """One line and one bar per running call, updated in place: "37 / 412 items, 2.1 MB read, ~40 s left"."""
        if event.call_id in self._ended:
            return  # a read that was in flight when the analyst pressed Stop: its line keeps saying stopped
        message = event.message or tr("{amount} done").format(amount=f"{event.progress:g}")
        text = f"{event.tool_name}: {message}"
        if event.call_id not in self._progress:
            item = self.add_entry(text)
            bar = QProgressBar()
            bar.setMaximumHeight(14)
            holder = QTreeWidgetItem([""])
            item.addChild(holder)
            item.setExpanded(True)
            self.setItemWidget(holder, 0, bar)
            self._progress[event.call_id] = (item, bar)
        item, bar = self._progress[event.call_id]
        item.setText(0, text)
        item.setToolTip(0, plain_tooltip(text))  # tool and model text: never rich
        if event.total:
            bar.setRange(0, 1000)
            bar.setValue(round(1000 * min(1.0, event.progress / event.total)))
        else:
            bar.setRange(0, 0)  # busy, no total known

    def progress_of(self, call_id: str) -> tuple[str, int] | None:
        """(line, percent) shown for a call, or None."""
        if call_id not in self._progress:
            return None
        item, bar = self._progress[call_id]
        return item.text(0), round(100 * bar.value() / max(1, bar.maximum()))

    def _finish_progress(self, call_id: str, completed: bool) -> None:
        self._ended.add(call_id)
        item_bar = self._progress.pop(call_id, None)
        if item_bar is not None and completed:
            item_bar[1].setRange(0, 1000)
            item_bar[1].setValue(1000)

    def add_tool_result(self, event: ToolResult) -> None:
        self._finish_progress(event.call_id, completed=True)
        line = tr("{tool} completed ({ms} ms)").format(tool=event.tool_name, ms=f"{event.duration_ms:.0f}")
        self.add_entry(line, _pretty(event.result))
        picture = picture_seen(event.result)
        if picture:
            self._add_picture(picture)

    def _add_picture(self, path: str) -> None:
        """The picture the model was sent with a result (get_map_view), small, on a line of its own."""
        item = self.add_entry(tr("The picture the assistant looked at:"))
        holder = QTreeWidgetItem([""])
        item.addChild(holder)
        label = QLabel()
        label.setPixmap(QPixmap(path).scaledToWidth(PICTURE_WIDTH, Qt.TransformationMode.SmoothTransformation))
        label.setStyleSheet("border: 1px solid #c8c8c8;")  # a white map on the white feed still shows its edges
        label.setToolTip(tr("The picture the assistant was sent to check its work: {file}").format(file=path))
        holder.setSizeHint(0, label.sizeHint())  # the row as tall as the picture
        self.setItemWidget(holder, 0, label)
        item.setExpanded(True)

    def add_tool_error(self, event: ToolError) -> None:
        self._finish_progress(event.call_id, completed=False)
        # What happened, in the dock's language when one of the tools' templates wrote it (ui/tool_messages.py);
        # what the assistant was told to do, folded, in the English the model read.
        told, hints = tool_failure(event.error, tr)
        told = said(event.said, told)  # the runner's or host's words, said whole
        detail = tr("Told the assistant: {hints}").format(hints=hints) if hints else ""
        if needs_a_choice(event.error):  # not a failure: the assistant asks which one next
            self.add_entry(tr("{tool} needs your choice: {text}").format(tool=event.tool_name, text=told), detail,
                           color=NOTICE_COLOR)
        else:
            self.add_entry(tr("{tool} failed: {text}").format(tool=event.tool_name, text=told), detail, color=ERROR_COLOR)

    def add_ask_user(self, event: AskUser) -> None:
        self.add_entry(tr("Asking you: {question}").format(question=event.question), "\n".join(event.details))

    def add_provider_switched(self, event: ProviderSwitched) -> None:
        self.add_entry(tr("Switched from {old} to {new}").format(old=event.from_provider, new=event.to_provider),
                       said(event.said, event.reason),
                       color=NOTICE_COLOR, expanded=True)

    def add_notice(self, event: Notice) -> None:
        self.add_entry(said(event.said, event.text), color=NOTICE_COLOR)

    def add_error(self, event: Error) -> None:
        # The chat shows the whole sentence; the feed marks where it happened, with the sentence folded in
        # (a 320 px dock had the same five-line message in the chat, here and in the status line).
        self._failed = True
        self.add_entry(tr("Error: what happened and what to do is in the chat"), said(event.said, event.message),
                       color=ERROR_COLOR)

    def add_iteration_limit(self, event: IterationLimit) -> None:
        line = tr("Stopped after {steps} steps (limit {limit})").format(steps=event.steps, limit=event.limit)
        self.add_entry(line, color=NOTICE_COLOR)

    def add_done(self, event: Done) -> None:
        self._thinking.clear()  # the next turn numbers its steps from 1 again
        self._ended.update(self._progress)
        for item, bar in self._progress.values():  # a call still showing "~900 s left" did not finish
            if bar.maximum() == 0 or bar.value() < bar.maximum():
                done = f"{round(100 * bar.value() / bar.maximum())} %" if bar.maximum() else tr("part")
                item.setText(0, f"{item.text(0).split(':', 1)[0]}: "
                             + tr("stopped ({amount} done)").format(amount=done))
                bar.setRange(0, max(1, bar.maximum()))
        self._progress.clear()
        failed, self._failed = self._failed, False
        measured = event.usage.prompt_tokens or event.usage.eval_tokens
        if failed and not event.stopped:
            label = tr("Ended by the error above") + (f" · {format_usage(event.usage, tr)}" if measured else "")
        elif event.stopped:
            label = tr("Stopped") + (f" · {format_usage(event.usage, tr)}" if measured else "")
        else:
            label = tr("Done") + f" · {format_usage(event.usage, tr)}"
        self.add_entry(label, color=NOTICE_COLOR)
