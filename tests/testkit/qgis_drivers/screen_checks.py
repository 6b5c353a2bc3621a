"""Judging the dock as a person sees it: text that does not fit its widget (a button reading "Springfield,
Massachus", a column title "ers (Key: valu") and pictures of the dock at a given width, saved when
STACGIS_SCREENSHOTS names a folder (offscreen or Xvfb; QT_SCALE_FACTOR=2 for HiDPI)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from qgis.PyQt.QtWidgets import QAbstractButton, QLabel, QTabBar, QWidget

from .plugin_driver import process_until


def show_dock_at(plugin, width: int, height: int = 760) -> None:
    """The dock floating at `width` logical pixels, laid out."""
    dock = plugin.dock
    dock.setFloating(True)
    dock.resize(width, height)
    dock.show()
    process_until(lambda: False, 0.3)


def clipped_texts(root: QWidget) -> list[str]:
    """Visible buttons, single-line labels and tabs whose text is wider than the room the widget has, and
    wrapped labels cut at the bottom; once the layouts have settled (a label whose text just changed is
    laid out on the next pass of the event loop)."""
    process_until(lambda: False, 0.3)
    found = []
    for widget in [root, *root.findChildren(QWidget)]:
        if not widget.isVisibleTo(root) or widget.width() <= 0:
            continue
        if isinstance(widget, QLabel) and widget.wordWrap() and widget.text():
            if widget.heightForWidth(widget.width()) > widget.height() + 1:  # wrapped lines cut at the bottom
                found.append(f"label {widget.text()[:40]!r}: needs {widget.heightForWidth(widget.width())} px "
                             f"high, has {widget.height()}")
        elif isinstance(widget, QAbstractButton) and QAbstractButton.text(widget):  # text Qt draws itself
            qt_class = next(c for c in type(widget).__mro__ if c.__module__.startswith(("PyQt", "qgis")))
            needed = qt_class.sizeHint(widget).width()  # the text as drawn plus the style's padding (Qt's own)
            if needed > widget.width():
                found.append(f"button {widget.text()!r}: needs {needed} px, has {widget.width()}")
        elif isinstance(widget, QLabel) and not widget.wordWrap() and widget.text() and \
                not re.search(r"<\w", widget.text()):
            needed = widget.fontMetrics().horizontalAdvance(widget.text())
            room = widget.contentsRect().width()
            if needed > room:
                found.append(f"label {widget.text()!r}: needs {needed} px, has {room}")
        elif isinstance(widget, QTabBar):
            for index in range(widget.count()):
                needed = widget.fontMetrics().horizontalAdvance(widget.tabText(index))
                if needed > widget.tabRect(index).width():
                    found.append(f"tab {widget.tabText(index)!r}: needs {needed} px")
    return found


def outside_parent(root: QWidget) -> list[str]:
    """Visible widgets that reach past the right edge of their parent (cut off by it)."""
    found = []
    for widget in root.findChildren(QWidget):
        parent = widget.parentWidget()
        if parent is None or not widget.isVisibleTo(root) or widget.isWindow():
            continue
        if isinstance(widget, (QAbstractButton, QLabel)) and widget.geometry().right() > parent.width() + 1:
            found.append(f"{type(widget).__name__} {getattr(widget, 'text', lambda: '')()!r}: right edge "
                         f"{widget.geometry().right()} > {parent.width()}")
    return found


def save_shot(plugin, name: str) -> Path | None:
    folder = os.environ.get("STACGIS_SCREENSHOTS")
    if not folder:
        return None
    process_until(lambda: False, 0.3)
    scale = os.environ.get("QT_SCALE_FACTOR", "1")
    path = Path(folder) / f"{name}-{plugin.dock.width()}px-x{scale}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    plugin.dock.grab().save(str(path))
    return path
