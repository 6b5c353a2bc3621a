"""Markdown that grows while it streams, re-rendering only its unsettled end.

Rendering the whole answer on every update costs O(length) each time; here the text is cut at
blank lines into segments of about SEGMENT_CHARS, and only the last, growing one is re-rendered.
"""

from __future__ import annotations

from qgis.PyQt.QtCore import QSize, Qt
from qgis.PyQt.QtGui import QTextDocument
from qgis.PyQt.QtWidgets import QFrame, QSizePolicy, QTextBrowser, QVBoxLayout, QWidget

from .markdown import set_markdown, settled_length
from .untrusted_text import InertDocument, open_link

SEGMENT_CHARS = 800


class FittedBrowser(QTextBrowser):
    """A read-only rich text view exactly as tall as its text, so the chat scrolls, not it. It shows model
    text: its documents load nothing, and a clicked link goes through untrusted_text.open_link, never
    through QTextBrowser, which would show a file: link's content or hand any scheme to the desktop."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(lambda url: open_link(url, self))
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setStyleSheet("background: transparent;")
        self.markdown = ""
        self._width = -1
        self._document: QTextDocument | None = None

    def show_markdown(self, text: str) -> None:
        # Built detached and swapped in: parsing into a document that a widget already lays out
        # re-lays it out block by block, 3-10x slower (see bench/bench_ui_stall.py).
        self.markdown = text
        document = InertDocument(self)
        document.setDefaultFont(self.font())
        document.setTextWidth(max(self.viewport().width(), 1))
        set_markdown(document, text)
        previous, self._document = self._document, document
        self.setDocument(document)
        if previous is not None:
            previous.deleteLater()
        self._fit()

    def _fit(self) -> None:
        # Fitted once per render, never from documentSizeChanged: that signal fires for every
        # block while a document lays out, and resizing from it feeds back into a new layout.
        height = int(self.document().size().height()) + 2 * self.frameWidth() + 4
        if height != self.height():
            self.setFixedHeight(height)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        width = self.viewport().width()
        if width != self._width:
            self._width = width
            self.document().setTextWidth(width)
            self._fit()

    def sizeHint(self) -> QSize:
        return QSize(200, self.height())


class StreamedMarkdownView(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(0)
        self.segments: list[FittedBrowser] = []
        self._settled = 0  # characters held by every segment but the last
        self._new_segment()

    def _new_segment(self) -> FittedBrowser:
        segment = FittedBrowser()
        self.segments.append(segment)
        self._layout.addWidget(segment)
        return segment

    def set_text(self, text: str) -> None:
        settled_text = "".join(s.markdown for s in self.segments[:-1])
        if not text.startswith(settled_text):  # replaced, not appended: start again
            for segment in self.segments:
                self._layout.removeWidget(segment)
                segment.deleteLater()
            self.segments, self._settled = [], 0
            self._new_segment()
        tail = text[self._settled:]
        while True:
            cut = settled_length(tail, SEGMENT_CHARS)
            if not cut:
                break
            self.segments[-1].show_markdown(tail[:cut])
            self._settled += cut
            tail = tail[cut:]
            self._new_segment()
        self.segments[-1].show_markdown(tail)

    def plain_text(self) -> str:
        return "\n".join(s.toPlainText() for s in self.segments if s.markdown)
