"""The session list (newest first): new, open, rename, delete, export."""

from __future__ import annotations

import asyncio
import datetime
import logging
from pathlib import Path
from typing import Any, Callable

from qgis.PyQt.QtCore import Qt, pyqtSignal
from qgis.PyQt.QtWidgets import (
    QFileDialog,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..agent.stores.base import SessionInfo, SessionStore
from .export_paths import remember_export_folder, suggested_export_path
from .exports import session_to_markdown
from .flow_layout import FlowLayout, fixed_height_for_width
from .i18n import tr

log = logging.getLogger(__name__)
SESSION_ID_ROLE = Qt.ItemDataRole.UserRole


def _when(timestamp: float) -> str:
    return datetime.datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")


class SessionsPanel(QWidget):
    session_opened = pyqtSignal(object)  # SessionRecord
    new_session_requested = pyqtSignal()
    session_deleted = pyqtSignal(str)

    def __init__(self, store: SessionStore, user: str = "default",
                 map_script: Callable[[str], str] | None = None, outputs: Path | None = None, parent=None):
        """`map_script(title)`: the map as it is now as a PyQGIS script (ui.project_script); `outputs`: the
        tools' output folder, the only place a report takes pictures from."""
        super().__init__(parent)
        self._outputs = outputs
        self.store = store
        self.user = user
        self._map_script = map_script
        self.sessions: list[SessionInfo] = []
        layout = QVBoxLayout(self)
        self.list = QListWidget()
        self.list.itemDoubleClicked.connect(lambda _item: self._start(self.open_selected()))
        layout.addWidget(self.list)
        self.message = QLabel()
        self._said = ""  # what the last action said (saved, gone): a refresh of the list leaves it showing
        self.message.setTextFormat(Qt.TextFormat.PlainText)  # titles and store errors are shown as written
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        holders = [QWidget(), QWidget()]  # the buttons wrap in a narrow dock instead of holding it wide
        rows = [FlowLayout(holder) for holder in holders]
        self.buttons: dict[str, QPushButton] = {}
        for row, (key, label, handler) in zip((0, 0, 0, 0, 1, 1, 1, 1), (
            ("new", tr("New"), self.new_session_requested.emit),
            ("open", tr("Open"), lambda: self._start(self.open_selected())),
            ("rename", tr("Rename…"), lambda: self._start(self.rename_selected())),
            ("delete", tr("Delete…"), lambda: self._start(self.delete_selected())),
            ("markdown", tr("Export Markdown…"), lambda: self._start(self.export_selected("markdown"))),
            ("pyqgis", tr("Export map (PyQGIS)…"), lambda: self._start(self.export_selected("pyqgis"))),
            ("report", tr("Export report (PDF)…"), lambda: self._start(self.export_selected("report"))),
            ("model", tr("Export model (.model3)…"), lambda: self._start(self.export_selected("model"))),
        )):
            button = QPushButton(label)
            if key == "report":
                button.setToolTip(tr("The conversation as a PDF report: questions, answers, charts, exported map "
                                     "pages and every STAC item and parameter used (an .html name writes HTML)"))
            if key == "model":
                button.setToolTip(tr("The chat's analysis as a Processing model: each tool call Processing can "
                                     "repeat is a step with its parameters; open it in the Graphical Modeler"))
            if key == "pyqgis":
                button.setToolTip(tr("A script that rebuilds the map as it is now in QGIS (groups, layers, styles, "
                                     "view), named after the selected conversation"))
                button.setVisible(map_script is not None)
            button.clicked.connect(handler)
            rows[row].addWidget(button)
            self.buttons[key] = button
        for holder in holders:
            fixed_height_for_width(holder)
            layout.addWidget(holder)
        # Dialog seams: modal dialogs cannot be clicked in offscreen tests.
        self.ask_title: Callable[[str], str | None] = self._ask_title
        self.confirm_delete: Callable[[str], bool] = self._confirm_delete
        self.ask_export_path: Callable[[Path, str], str | None] = self._ask_export_path

    def _start(self, coro) -> asyncio.Task:
        return asyncio.ensure_future(self.run_reporting_errors(coro))

    async def run_reporting_errors(self, coro) -> Any:
        try:
            return await coro
        except Exception as exc:  # a store that went away must not break the dock
            log.exception("session action failed")
            self.message.setText(tr("The session store failed: {error}. Check the Redis URL in the settings, "
                                    "or clear it to use the embedded store.").format(error=exc))
            return None

    def selected_id(self) -> str | None:
        item = self.list.currentItem()
        return item.data(SESSION_ID_ROLE) if item is not None else None

    def select(self, session_id: str) -> None:
        for i in range(self.list.count()):
            if self.list.item(i).data(SESSION_ID_ROLE) == session_id:
                self.list.setCurrentRow(i)

    def titles(self) -> list[str]:
        return [self.list.item(i).text().split("\n")[0] for i in range(self.list.count())]

    async def refresh(self) -> None:
        sessions = await self.store.list(self.user)
        # the row picked now, after the store answered: one the analyst picked meanwhile stays picked
        current = self.selected_id()
        self.sessions = sessions
        self.list.clear()
        for info in self.sessions:
            title = info.title or tr("(untitled)")
            messages = tr("{count} messages").format(count=info.message_count)
            item = QListWidgetItem(f"{title}\n{_when(info.updated_at)} · {messages}")
            item.setData(SESSION_ID_ROLE, info.session_id)
            self.list.addItem(item)
        if current:
            self.select(current)
        if not self.sessions:
            self.message.setText(tr("No saved conversations yet."))
        elif self.message.text() != self._said:  # the empty-list note or a store error goes; an action's result stays
            self.message.setText("")

    def _say(self, text: str) -> None:
        """An action's result, shown until the next action says something."""
        self._said = text
        self.message.setText(text)

    async def open_selected(self) -> None:
        session_id = self.selected_id()
        if session_id is None:
            return
        record = await self.store.history(session_id)
        if record is None:
            self._say(tr("That session no longer exists; the list was refreshed."))
            await self.refresh()
            return
        self.session_opened.emit(record)

    async def rename_selected(self) -> None:
        session_id = self.selected_id()
        if session_id is None:
            return
        title = self.ask_title(self.list.currentItem().text().split("\n")[0])
        if title and title.strip():
            await self.store.rename(session_id, title.strip())
            await self.refresh()

    async def delete_selected(self) -> None:
        session_id = self.selected_id()
        if session_id is None:
            return
        if not self.confirm_delete(self.list.currentItem().text().split("\n")[0]):
            return
        await self.store.delete(session_id)
        self.session_deleted.emit(session_id)
        await self.refresh()

    async def export_selected(self, kind: str) -> Path | None:
        session_id = self.selected_id()
        if session_id is None:
            return None
        record = await self.store.history(session_id)
        if record is None:
            return None
        suffix = {"markdown": ".md", "pyqgis": ".py", "report": ".pdf", "model": ".model3"}[kind]
        title = record.info.title or "conversation"
        path = self.ask_export_path(suggested_export_path(title, suffix), suffix)
        if not path:
            return None
        target = Path(path)
        empty = ""
        if kind == "report":
            from .session_report import write_report  # qgis.PyQt's PDF writer, only when asked

            write_report(record, self._outputs or target.parent / ".no-pictures", target, tr)
        elif kind == "model":
            from .model_export import write_model  # QGIS's Processing classes, only when asked

            if not write_model(record, target):
                empty = " " + tr("It is empty: this chat made no call that Processing can repeat (statistics over "
                                 "an area, a STAC search, loading STAC items, a spectral index of an item, a "
                                 "Processing algorithm).")
        else:
            text = session_to_markdown(record, tr) if kind == "markdown" else self._map_script(title)
            target.write_text(text, encoding="utf-8")
        remember_export_folder(target.parent)
        saved = {"markdown": tr("Saved the conversation to {path}."),
                 "pyqgis": tr("Saved a script that rebuilds the map as it is now to {path}."),
                 "report": tr("Saved the report to {path}."),
                 "model": tr("Saved the Processing model to {path}.")}[kind]
        self._say(saved.format(path=target) + empty)
        return target

    # -- dialogs
    def _ask_title(self, current: str) -> str | None:
        title, ok = QInputDialog.getText(self, tr("Rename conversation"), tr("New title:"), text=current)
        return title if ok else None

    def _confirm_delete(self, title: str) -> bool:
        box = QMessageBox(QMessageBox.Icon.Question, tr("Delete conversation"),
                          tr("Delete “{title}” and its history? This cannot be undone.").format(title=title),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self)
        box.setTextFormat(Qt.TextFormat.PlainText)  # a title is text, never markup that loads a picture
        return box.exec() == QMessageBox.StandardButton.Yes

    def _ask_export_path(self, suggested: Path, suffix: str) -> str | None:
        kind = {".md": tr("Markdown (*.md)"), ".py": tr("Python script (*.py)"),
                ".pdf": tr("PDF report (*.pdf);;HTML report (*.html)"),
                ".model3": tr("Processing model (*.model3)")}[suffix]
        caption = {".md": tr("Export conversation"), ".py": tr("Export map as PyQGIS script"),
                   ".pdf": tr("Export report"), ".model3": tr("Export Processing model")}[suffix]
        path, _filter = QFileDialog.getSaveFileName(self, caption, str(suggested), kind)
        return path or None
