"""The plugin's Help: the user guide (docs/guide/*.md, shipped inside the plugin) in a window of its own, offline,
in the dock's language where the guide has a translation (docs/guide/<language>/<page>.md), else in English.

Qt renders the Markdown itself (QTextBrowser, Qt 5.14 and later). The browser reads only files under the plugin's
docs/ folder: no network, nothing else on disk. Links between pages and to their sections stay in the window
(sections are found by their GitHub anchors, so the same links work on the repository's web page); web links open
in the system browser; anything else is not followed and the window says so.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from qgis.PyQt.QtCore import Qt, QUrl
from qgis.PyQt.QtGui import (
    QDesktopServices,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextImageFormat,
)
from qgis.PyQt.QtWidgets import QDialog, QHBoxLayout, QLabel, QPushButton, QTextBrowser, QVBoxLayout

from .i18n import tr

INDEX = "README.md"
WEB_SCHEMES = ("http", "https")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".svg")


def heading_anchor(text: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def page_in_language(page: Path, guide: Path, language: str) -> Path:
    """`page` of the English guide in `language` when the guide has that translation; else `page` itself."""
    try:
        relative = page.relative_to(guide)
    except ValueError:
        return page
    if len(relative.parts) != 1:  # already a translated page (or a folder below the guide)
        return page
    translated = guide / language / relative
    return translated if language and translated.is_file() else page


class GuideBrowser(QTextBrowser):
    """A browser whose documents and images come only from `root` (the plugin's docs/ folder)."""

    def __init__(self, root: Path, parent=None):
        super().__init__(parent)
        self.root = root.resolve()
        self.setOpenLinks(False)  # every click goes through GuideWindow.follow

    def inside(self, url: QUrl) -> Path | None:
        if url.scheme() not in ("", "file"):
            return None
        base = self.source()
        path = Path(url.toLocalFile() if url.isLocalFile() else base.resolved(url).toLocalFile())
        try:
            path = path.resolve()
            path.relative_to(self.root)
        except (ValueError, OSError):
            return None
        return path if path.is_file() else None

    def loadResource(self, kind: int, name: QUrl):  # noqa: N802 (Qt's name)
        if self.inside(name) is None:
            return None  # a web address or a file outside the guide: never read
        return super().loadResource(kind, name)


class GuideWindow(QDialog):
    """The guide, one page at a time, with Back, Forward and Contents."""

    def __init__(self, docs: Path, language: str = "", parent=None,
                 open_web: Callable[[QUrl], bool] = QDesktopServices.openUrl):
        super().__init__(parent)
        self.setObjectName("StacGisAgentGuide")
        self.guide = docs / "guide"
        self.language = language
        self._open_web = open_web
        self._back: list[tuple[Path, str]] = []
        self._forward: list[tuple[Path, str]] = []
        self.page: Path | None = None
        self.sections: list[str] = []  # the anchors of the page's headings
        self.browser = GuideBrowser(docs, self)
        self.browser.anchorClicked.connect(self.follow)
        self.note = QLabel()
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setWordWrap(True)
        self.back_button = QPushButton(tr("Back"))
        self.forward_button = QPushButton(tr("Forward"))
        self.contents_button = QPushButton(tr("Contents"))
        self.back_button.clicked.connect(self.back)
        self.forward_button.clicked.connect(self.forward)
        self.contents_button.clicked.connect(self.show_contents)
        buttons = QHBoxLayout()
        for button in (self.back_button, self.forward_button, self.contents_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(buttons)
        layout.addWidget(self.browser, 1)
        layout.addWidget(self.note)
        self.resize(900, 720)

    # ---- navigation ---------------------------------------------------------------------------------------
    def show_contents(self) -> None:
        self.open(self.guide / INDEX)

    def open(self, page: Path, section: str = "") -> None:
        """Shows `page` (in the dock's language when translated) at `section`, remembering where we were."""
        if self.page is not None:
            self._back.append((self.page, ""))
        self._forward.clear()
        self._show(page, section)

    def back(self) -> None:
        if self._back and self.page is not None:
            self._forward.append((self.page, ""))
            self._show(*self._back.pop())

    def forward(self) -> None:
        if self._forward and self.page is not None:
            self._back.append((self.page, ""))
            self._show(*self._forward.pop())

    def follow(self, url: QUrl) -> None:
        """A clicked link: a page or section of the guide here, a web page in the browser, nothing else."""
        self.note.clear()
        if url.scheme().lower() in WEB_SCHEMES and url.host():
            self._open_web(url)
            return
        if not url.path() and url.hasFragment():  # a section of this page
            self._scroll_to(url.fragment())
            return
        target = self._resolve(url)
        if target is None:
            self.note.setText(tr("This link leads outside the user guide installed with the plugin: {link}")
                              .format(link=url.toString()))
        elif target.suffix.lower() in IMAGE_SUFFIXES:
            self._show_picture(target)
        else:
            self.open(target, url.fragment())

    def _resolve(self, url: QUrl) -> Path | None:
        """The file a relative link names, from the page's own folder (as on the repository's web page)."""
        if url.scheme() not in ("", "file") or self.page is None:
            return None
        path = Path(url.toLocalFile()) if url.isLocalFile() else self.page.parent / url.path()
        try:
            path = path.resolve()
            path.relative_to(self.browser.root)
        except (ValueError, OSError):
            return None
        return path if path.is_file() else None

    # ---- showing ------------------------------------------------------------------------------------------
    def _show(self, page: Path, section: str = "") -> None:
        shown = page_in_language(page, self.guide, self.language)
        self.page = shown
        self.browser.setSource(QUrl.fromLocalFile(str(shown)))
        self._name_sections()
        self._fit_pictures()
        first = self.browser.document().firstBlock().text().strip()
        self.setWindowTitle(tr("STAC GIS Agent user guide") + (f" — {first}" if first else ""))
        self.back_button.setEnabled(bool(self._back))
        self.forward_button.setEnabled(bool(self._forward))
        if section:
            self._scroll_to(section)
        else:
            self.browser.verticalScrollBar().setValue(0)

    def _show_picture(self, picture: Path) -> None:
        if self.page is not None:
            self._back.append((self.page, ""))
        self.browser.clear()  # the picture alone, inserted as an image: no HTML is made (tests/unit/test_sinks_html.py)
        image = QTextImageFormat()
        image.setName(QUrl.fromLocalFile(str(picture)).toString())
        self.browser.textCursor().insertImage(image)
        self.page = picture
        self.sections = []
        self._fit_pictures()
        self.back_button.setEnabled(True)

    def _headings(self):
        block = self.browser.document().begin()
        while block.isValid():
            if block.blockFormat().headingLevel():
                yield block
            block = block.next()

    def _name_sections(self) -> None:
        """Gives each heading its GitHub anchor (repeated headings get -1, -2…), so links to sections work."""
        seen: dict[str, int] = {}
        self.sections = []
        for block in self._headings():
            anchor = heading_anchor(block.text())
            count = seen.get(anchor, 0)
            seen[anchor] = count + 1
            self.sections.append(f"{anchor}-{count}" if count else anchor)
            cursor = QTextCursor(block)
            cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
            named = QTextCharFormat()
            named.setAnchor(True)
            named.setAnchorNames([self.sections[-1]])
            cursor.mergeCharFormat(named)

    def _scroll_to(self, section: str) -> None:
        if section in self.sections:
            self.browser.scrollToAnchor(section)
        else:
            self.note.setText(tr("The section “{section}” is not on this page.").format(section=section))

    def pictures(self) -> list[tuple[int, int, QTextImageFormat]]:
        """(position, length, format) of every picture on the page."""
        found = []
        block = self.browser.document().begin()
        while block.isValid():
            for part in block.textFormats():  # runs of one format: no fragment iterator (its += differs in PyQt6)
                if part.format.isImageFormat():
                    found.append((block.position() + part.start, part.length, part.format.toImageFormat()))
            block = block.next()
        return found

    def _fit_pictures(self) -> None:
        """Screenshots wider than the window are shown at its width (the file keeps its size)."""
        document = self.browser.document()
        widest = max(200, self.browser.viewport().width() - 24)
        for position, length, image in self.pictures():
            cursor = QTextCursor(document)
            cursor.setPosition(position)
            table = cursor.currentTable()  # pictures side by side share the width
            room = widest // table.columns() - 12 if table is not None else widest
            picture = document.resource(QTextDocument.ResourceType.ImageResource, QUrl(image.name()))
            natural = picture.width() if hasattr(picture, "width") else 0
            if natural > room or image.width() > 0:
                image.setWidth(min(natural, room) if natural else room)
                image.clearProperty(QTextFormat.Property.ImageHeight)  # keeps the aspect ratio
                cursor.setPosition(position + length, QTextCursor.MoveMode.KeepAnchor)
                cursor.setCharFormat(image)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        if self.page is not None:
            self._fit_pictures()
