"""The Memories tab: what the assistant remembers across chats, the same memories its memory tools read and
write (agent/memory_book.py), each with what it was learned from and when. The analyst searches them, edits one
in place (the assistant then recalls it by its new text), deletes one, and exports or imports them as Markdown."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any, Callable

from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import (
    QFileDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..agent.memory_book import LearnedFrom, MemoryBook, when
from ..agent.stores.base import MemoryHit
from .export_paths import remember_export_folder, suggested_export_path
from .flow_layout import FlowLayout, fixed_height_for_width
from .i18n import tr, translatable
from .untrusted_text import plain_tooltip

log = logging.getLogger(__name__)
EMPTY = translatable("Nothing remembered yet. Ask the assistant to remember something (“remember that I work in "
                     "EPSG:2154”), or import a Markdown file of memories.")


def _buttons(*pairs: tuple[str, Callable[[], Any]]) -> tuple[QWidget, list[QPushButton]]:
    holder = QWidget()  # the buttons wrap in a narrow dock instead of holding it wide
    row = FlowLayout(holder)
    buttons = []
    for label, handler in pairs:
        button = QPushButton(label)
        button.clicked.connect(handler)
        row.addWidget(button)
        buttons.append(button)
    fixed_height_for_width(holder)
    return holder, buttons


class MemoriesPanel(QWidget):
    def __init__(self, book: MemoryBook, parent=None):
        super().__init__(parent)
        self.book = book
        self.hits: list[MemoryHit] = []
        self.editing: MemoryHit | None = None
        layout = QVBoxLayout(self)
        self.search = QLineEdit()
        self.search.setPlaceholderText(tr("Search memories"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(lambda _text: self._start(self.refresh()))
        layout.addWidget(self.search)
        self.list = QListWidget()
        self.list.setWordWrap(True)
        self.list.currentRowChanged.connect(lambda _row: self._show_selection())
        layout.addWidget(self.list, 1)
        holder, (self.edit_button, self.delete_button, self.export_button, self.import_button) = _buttons(
            (tr("Edit"), self.start_editing), (tr("Delete…"), lambda: self._start(self.delete_selected())),
            (tr("Export Markdown…"), lambda: self._start(self.export())),
            (tr("Import Markdown…"), lambda: self._start(self.import_())))
        layout.addWidget(holder)
        self.editor = QPlainTextEdit()
        self.editor.setMaximumHeight(90)
        self.kind = QLineEdit()
        self.kind.setPlaceholderText(tr("kind: fact, preference, place, method…"))
        self.edit_row, (self.save_button, self.cancel_button) = _buttons(
            (tr("Save"), lambda: self._start(self.save_edit())), (tr("Discard"), self.stop_editing))
        for widget in (self.editor, self.kind, self.edit_row):
            layout.addWidget(widget)
        self.message = QLabel()
        self.message.setTextFormat(Qt.TextFormat.PlainText)  # memory text and store errors shown as written
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        self.stop_editing()
        self._show_selection()
        # Dialog seams: modal dialogs cannot be clicked in offscreen tests.
        self.confirm_delete: Callable[[str], bool] = self._confirm_delete
        self.ask_export_path: Callable[[Path], str | None] = self._ask_export_path
        self.ask_import_path: Callable[[], str | None] = self._ask_import_path

    def _start(self, coro) -> asyncio.Task:
        return asyncio.ensure_future(self.run_reporting_errors(coro))

    async def run_reporting_errors(self, coro) -> Any:
        try:
            return await coro
        except Exception as exc:  # a store or an embedding model that went away must not break the dock
            log.exception("memory action failed")
            self.message.setText(tr("The memories could not be changed: {error}").format(error=exc))
            return None

    def refresh_soon(self) -> None:
        """Reads the memories again (the tab was opened; the assistant may have learned something)."""
        self._start(self.refresh())

    def selected(self) -> MemoryHit | None:
        row = self.list.currentRow()
        return self.hits[row] if 0 <= row < len(self.hits) else None

    def texts(self) -> list[str]:
        """The memories as the list shows them (their first line), top first."""
        return [item.text().partition("\n")[0] for item in map(self.list.item, range(self.list.count()))]

    async def refresh(self) -> None:
        current = self.selected()
        self.hits = await self.book.entries(self.search.text())
        self.list.clear()
        for hit in self.hits:
            origin = tr("learned from {origin}").format(origin=LearnedFrom.of(hit).words(tr))
            item = QListWidgetItem(f"{hit.content}\n{hit.kind} · {when(hit)} · {origin}")
            item.setToolTip(plain_tooltip(hit.content))
            self.list.addItem(item)
        if current is not None:
            self.list.setCurrentRow(next((i for i, h in enumerate(self.hits) if h.id == current.id), -1))
        if not self.hits:
            self.message.setText(tr(EMPTY) if not self.search.text().strip() else tr("No memory matches."))
        self._show_selection()

    def _show_selection(self) -> None:
        chosen = self.selected() is not None
        self.edit_button.setEnabled(chosen)
        self.delete_button.setEnabled(chosen)

    # -- edit in place
    def start_editing(self) -> None:
        hit = self.selected()
        if hit is None:
            return
        self.editing = hit
        self.editor.setPlainText(hit.content)
        self.kind.setText(hit.kind)
        for widget in (self.editor, self.kind, self.edit_row):
            widget.show()
        self.editor.setFocus()

    def stop_editing(self) -> None:
        self.editing = None
        for widget in (self.editor, self.kind, self.edit_row):
            widget.hide()

    async def save_edit(self) -> None:
        hit = self.editing
        if hit is None:
            return
        text = self.editor.toPlainText().strip()
        if not text:
            self.message.setText(tr("A memory needs some text; use Delete to forget it."))
            return
        if not await self.book.edit(hit, text, self.kind.text()):
            self.message.setText(tr("That memory is no longer stored; the list was refreshed."))
        else:
            self.message.setText(tr("Saved. The assistant now recalls it by what it says now."))
        self.stop_editing()
        await self.refresh()

    # -- delete, export, import
    async def delete_selected(self) -> None:
        hit = self.selected()
        if hit is None or not self.confirm_delete(hit.content):
            return
        await self.book.forget(hit)
        self.message.setText(tr("Forgotten: the assistant no longer recalls it."))
        await self.refresh()

    async def export(self) -> Path | None:
        path = self.ask_export_path(suggested_export_path("memories", ".md"))
        if not path:
            return None
        target = Path(path)
        text = await self.book.export_markdown(tr)
        await asyncio.to_thread(target.write_text, text, encoding="utf-8")
        remember_export_folder(target.parent)
        self.message.setText(tr("Saved the memories to {path}.").format(path=target))
        return target

    async def import_(self) -> int:
        path = self.ask_import_path()
        if not path:
            return 0
        text = await asyncio.to_thread(Path(path).read_text, encoding="utf-8")
        added = await self.book.import_markdown(text)
        self.message.setText(tr("Imported {count} new memories from {path}.").format(count=added, path=path))
        await self.refresh()
        return added

    # -- dialogs
    def _confirm_delete(self, content: str) -> bool:
        box = QMessageBox(QMessageBox.Icon.Question, tr("Delete memory"),
                          tr("Forget “{memory}” for good? Later chats no longer recall it.").format(memory=content),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self)
        box.setTextFormat(Qt.TextFormat.PlainText)  # the model wrote it: text, never markup
        return box.exec() == QMessageBox.StandardButton.Yes

    def _ask_export_path(self, suggested: Path) -> str | None:
        path, _filter = QFileDialog.getSaveFileName(self, tr("Export memories"), str(suggested), tr("Markdown (*.md)"))
        return path or None

    def _ask_import_path(self) -> str | None:
        path, _filter = QFileDialog.getOpenFileName(self, tr("Import memories"), "", tr("Markdown (*.md)"))
        return path or None
