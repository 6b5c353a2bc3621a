"""Markdown (as models write it, possibly half-streamed) into a QTextDocument."""

from __future__ import annotations

import base64
import re

from qgis.PyQt.QtCore import QUrl
from qgis.PyQt.QtGui import QImage, QTextDocument

_FENCE = re.compile(r"^\s*(```|~~~)", re.MULTILINE)
_DATA_IMAGE = re.compile(r"\(data:image/(png|jpeg|jpg|gif);base64,([A-Za-z0-9+/=\s]+)\)")


def close_open_fences(text: str) -> str:
    """A code block still streaming has no closing fence yet; close it so the rest of the
    answer does not render as code and then jump when the fence arrives."""
    fences = _FENCE.findall(text)
    if len(fences) % 2:
        return text.rstrip("\n") + "\n" + fences[-1] + "\n"
    return text


def set_markdown(document: QTextDocument, text: str) -> None:
    """Renders GitHub-flavoured Markdown (headings, lists, tables, code, links, images).

    Inline `data:image/...;base64` images (charts sent by tools) become document resources,
    because QTextDocument cannot load data URLs by itself."""
    images: list[tuple[str, QImage]] = []

    def to_resource(match: re.Match) -> str:
        image = QImage()
        if not image.loadFromData(base64.b64decode("".join(match.group(2).split()))):
            return "()"
        name = f"stacgis-inline-{len(images) + 1}.{match.group(1)}"
        images.append((name, image))
        return f"({name})"

    text = _DATA_IMAGE.sub(to_resource, close_open_fences(text))
    document.setMarkdown(text, QTextDocument.MarkdownFeature.MarkdownDialectGitHub)
    for name, image in images:  # after setMarkdown, which clears the document's resources
        document.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name), image)
    if images:
        document.markContentsDirty(0, document.characterCount())


def settled_length(text: str, min_chars: int) -> int:
    """How much of a streaming text can be rendered for good: up to the last blank line that is
    outside a code block, once at least `min_chars` precede it; 0 while nothing is settled."""
    inside_fence = False
    cut = 0
    position = 0
    for line in text.splitlines(keepends=True):
        position += len(line)
        if _FENCE.match(line):
            inside_fence = not inside_fence
        elif not line.strip() and not inside_fence and position >= min_chars and position < len(text):
            cut = position
    return cut
