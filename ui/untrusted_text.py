"""Text from a model, a catalog or a tool, shown without loading anything and with only web links opening.

Qt's rich text reads what a document points at: `![z](file:///dev/zero)` froze QGIS, and a clicked
`file:` link replaced an answer with a local file's content. Here documents load no resource at all
(only images the plugin decoded in memory and added itself show), labels and tooltips show such text
as plain text, and a link opens only when it is http(s), in the system browser, after the analyst has
read the full address and agreed. The one other thing that opens: a file the plugin itself wrote in its
outputs folder (an exported page, a report, a chart), named by a tool's result, never by text; a file of a
kind the system might run (a script) opens as its folder.
"""

from __future__ import annotations

import html
import os
from pathlib import Path

from qgis.PyQt.QtCore import Qt, QUrl
from qgis.PyQt.QtGui import QDesktopServices, QTextDocument
from qgis.PyQt.QtWidgets import QMessageBox, QWidget

from ..tools.engine.fetched_urls import link_to_open
from .i18n import tr

WEB_SCHEMES = ("http", "https")
DOCUMENT_SUFFIXES = (".pdf", ".png", ".jpg", ".jpeg", ".svg", ".gif", ".mp4", ".html", ".csv", ".tif", ".tiff")


class InertDocument(QTextDocument):
    """A document that never fetches: no local file, no remote URL, no stylesheet. QTextDocument's own
    loader would read any local path (a FIFO blocks, /dev/zero never ends); resources added with
    addResource are served from the document's cache before this is asked."""

    def loadResource(self, _type: int, _name: QUrl):  # noqa: N802 (Qt's name)
        return None


def plain_tooltip(text: str) -> str:
    """A tooltip shows rich text whenever Qt guesses it is; escaped, the text reads as it is written."""
    return f"<p style='white-space:pre-wrap'>{html.escape(text)}</p>"


def link_confirmation(url: QUrl, parent: QWidget | None = None) -> QMessageBox:
    """Asks before a link leaves QGIS, showing the address exactly as it will be opened (encoded, so a
    look-alike host shows as its xn-- form)."""
    box = QMessageBox(QMessageBox.Icon.Question, tr("Open link in your browser?"), "", parent=parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(tr("The assistant's answer links to:") + "\n\n" + address(url) +
                "\n\n" + tr("Open it in your web browser?"))
    box.setStandardButtons(QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    return box


def address(url: QUrl) -> str:
    return bytes(url.toEncoded()).decode("ascii")


def refusal(url: QUrl, parent: QWidget | None = None) -> QMessageBox:
    box = QMessageBox(QMessageBox.Icon.Information, tr("Link not opened"), "", parent=parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(tr("This link was not opened: {address}").format(address=address(url)[:200]) + "\n\n"
                + tr("Only web addresses (http or https) open from the chat. Copy the text if you want to use it "
                     "elsewhere."))
    return box


def open_link(url: QUrl, parent: QWidget | None = None) -> bool:
    """What a click on a link in model or catalog text does; True when the browser was asked to open it."""
    if url.scheme().lower() not in WEB_SCHEMES or not url.host():
        refusal(url, parent).exec()
        return False
    if link_confirmation(url, parent).exec() != QMessageBox.StandardButton.Open:
        return False
    # the address the analyst read, through the one guard of fetched URLs (tools/engine/fetched_urls.py)
    return QDesktopServices.openUrl(QUrl(link_to_open(address(url))))


def output_file(path: str, outputs: Path | None) -> Path | None:
    """`path` when it is a file the plugin wrote: inside its outputs folder (links resolved) and there now."""
    if outputs is None or not path:
        return None
    try:
        real, folder = Path(os.path.realpath(path)), Path(os.path.realpath(outputs))
    except (OSError, ValueError):
        return None
    return real if folder in real.parents and real.is_file() else None


def open_output(path: str, outputs: Path | None, folder: bool = False) -> bool:
    """Opens a file of the plugin's outputs folder with the system's viewer (a PDF, a picture, the report), or
    its folder; True when the system was asked. Anything else (outside the folder, gone, a script) stays shut."""
    real = output_file(path, outputs)
    if real is None:
        return False
    target = real if not folder and real.suffix.lower() in DOCUMENT_SUFFIXES else real.parent
    return QDesktopServices.openUrl(QUrl.fromLocalFile(str(target)))
