"""A chat as a report (HTML and PDF) that a colleague can check and repeat: the questions, the answers,
the charts and exported map pages the chat made, and a provenance section listing every STAC
collection, item, asset and parameter the tools used (as called, and the items and bands a tool
reported reading). Made from the session's saved events; used by the Sessions tab (ui.session_report)
and by the export_session_report tool.

Text from the analyst, the model or a catalog is escaped or rendered as Markdown by Qt; nothing in it
can load a file or a URL into the report: the document's resources are only the pictures chosen here
(charts and layout images that lie in the plugin's output folder), handed over as data.

Its fixed texts (headings, "Tools used", "No answer.") are in the language of `tr`: the Sessions tab hands the
dock's (ui.i18n.tr); the export_session_report tool has none, so what the model asks for is English.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qgis.PyQt.QtCore import QUrl
from qgis.PyQt.QtGui import QImage, QTextDocument

from ...agent import events as ev
from ...agent.dock_text import Translate, as_written
from ...agent.session_history import history_items
from ...agent.stores.base import SessionRecord

PROVENANCE_KEYS = ("catalog", "collection", "collections", "item_id", "item_ids", "asset", "assets", "bbox",
                   "datetime", "index", "expression", "algorithm_id", "layer", "query")
PICTURE_KEYS = ("chart_file", "thumbnail_file", "path")
USED_KEYS = ("items", "item_ids", "bands", "formula", "resolution", "collection", "assets")  # what a tool read
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg")
_IMG = re.compile(r"<img\b[^>]*>", re.I)
_LOCAL_LINK = re.compile(r'<a\s+href="(?!https?://)[^"]*"', re.I)  # a link to a local file or a script: text only


@dataclass
class Exchange:
    question: str
    answer: str = ""
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    used: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # per tool result: what it says it read
    pictures: list[Path] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


class _LockedDocument(QTextDocument):
    """A document that loads no resource but the ones added to it (no file:, http: or data from text)."""

    def loadResource(self, kind: int, url: QUrl):  # noqa: N802 - Qt override
        return None


def exchanges(record: SessionRecord, outputs: Path) -> list[Exchange]:
    """The chat as question → calls → answer, with the pictures it made inside `outputs`."""
    found: list[Exchange] = []
    answer: list[str] = []
    for item in history_items(record):
        if isinstance(item, ev.UserMessage):
            found.append(Exchange(item.text))
            answer = []
        elif not found:
            continue
        elif isinstance(item, ev.ToolStart):
            found[-1].calls.append((item.tool_name, dict(item.tool_args or {})))
        elif isinstance(item, ev.ToolResult) and isinstance(item.result, dict):
            read = {k: item.result[k] for k in USED_KEYS if item.result.get(k) not in (None, "", [], {})}
            if read:
                found[-1].used.append((item.tool_name, read))
            for key in PICTURE_KEYS:
                value = item.result.get(key)
                if isinstance(value, str):
                    _keep_file(found[-1], Path(value), outputs)
        elif isinstance(item, ev.Content):
            answer[:] = [item.text] if item.is_complete else [*answer, item.text]
            found[-1].answer = "".join(answer)
        elif isinstance(item, ev.Done) and item.content and not found[-1].answer:
            found[-1].answer = item.content
    return found


def _keep_file(exchange: Exchange, path: Path, outputs: Path) -> None:
    try:
        real, folder = path.resolve(), outputs.resolve()
    except OSError:
        return
    if folder not in real.parents or not real.is_file():
        return  # a picture is only ever one the plugin wrote into its own output folder
    if real in exchange.pictures or str(real) in exchange.files:
        return
    if real.suffix.lower() in PICTURE_SUFFIXES:
        exchange.pictures.append(real)
    else:
        exchange.files.append(str(real))


def provenance(items: list[Exchange], tr: Translate = as_written) -> list[str]:
    """One line per tool call that used data: the tool and its data parameters, as given."""
    lines = []
    for exchange in items:
        for name, args in exchange.calls:
            used = {k: args[k] for k in PROVENANCE_KEYS if k in args and args[k] not in (None, "", [])}
            if used:
                lines.append(f"{name}: " + _pairs(used))
        for name, read in exchange.used:
            lines.append(tr("{tool} read: {values}").format(tool=name, values=_pairs(read)))
    return lines


def _pairs(values: dict[str, Any]) -> str:
    return "; ".join(f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in values.items())


def _markdown_html(text: str) -> str:
    """The answer's Markdown as HTML (tables, lists), with any picture reference removed."""
    doc = _LockedDocument()
    doc.setMarkdown(text)
    body = doc.toHtml()
    body = body.split("<body", 1)[-1].split(">", 1)[-1].rsplit("</body>", 1)[0]
    return _LOCAL_LINK.sub("<a", _IMG.sub("", body))


def report_html(record: SessionRecord, outputs: Path, tr: Translate = as_written) -> tuple[str, list[Path]]:
    """The report as HTML, and the pictures it shows (referenced as picture-N, added as resources); its fixed
    texts in the language of `tr`, escaped as every other text."""
    title = html.escape(record.info.title or record.info.session_id)
    items = exchanges(record, outputs)
    parts = [f"<h1>{title}</h1>"]
    pictures: list[Path] = []
    for number, exchange in enumerate(items, start=1):
        parts.append(f"<h2>{number}. {html.escape(exchange.question)}</h2>")
        parts.append(_markdown_html(exchange.answer) if exchange.answer
                     else f"<p><i>{html.escape(tr('No answer.'))}</i></p>")
        if exchange.calls:
            names = ", ".join(name for name, _ in exchange.calls)
            parts.append(f"<p><small>{html.escape(tr('Tools used: {names}').format(names=names))}</small></p>")
        for picture in exchange.pictures:
            pictures.append(picture)
            parts.append(f'<p><img src="picture-{len(pictures)}" width="560"></p>'
                         f"<p><small>{html.escape(picture.name)}</small></p>")
        for file in exchange.files:
            parts.append(f"<p><small>{html.escape(tr('File: {path}').format(path=file))}</small></p>")
    lines = provenance(items, tr)
    parts.append(f"<h2>{html.escape(tr('Provenance'))}</h2>")
    parts.append("<ul>" + "".join(f"<li>{html.escape(line)}</li>" for line in lines) + "</ul>" if lines
                 else f"<p>{html.escape(tr('No STAC data or Processing was used in this chat.'))}</p>")
    return "<html><body>" + "\n".join(parts) + "</body></html>", pictures


def build_document(record: SessionRecord, outputs: Path, tr: Translate = as_written) -> QTextDocument:
    text, pictures = report_html(record, outputs, tr)
    doc = _LockedDocument()
    for number, picture in enumerate(pictures, start=1):
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(f"picture-{number}"), QImage(str(picture)))
    doc.setHtml(text)
    return doc


def report_bytes(record: SessionRecord, outputs: Path, fmt: str, tr: Translate = as_written) -> bytes:
    """The report as PDF ("pdf") or HTML (pictures referenced by file URI) bytes, made in memory."""
    if fmt == "pdf":
        from qgis.PyQt.QtCore import QBuffer, QByteArray, QIODevice
        from qgis.PyQt.QtGui import QPageSize, QPdfWriter

        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        writer = QPdfWriter(buffer)
        writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
        writer.setResolution(150)
        build_document(record, outputs, tr).print_(writer)
        del writer  # the PDF is complete once its writer is gone
        buffer.close()
        return bytes(data)
    text, pictures = report_html(record, outputs, tr)
    for number, picture in enumerate(pictures, start=1):
        text = text.replace(f'src="picture-{number}"', f'src="{html.escape(picture.as_uri())}"')
    return text.encode("utf-8")


def write_report(record: SessionRecord, outputs: Path, target: Path, tr: Translate = as_written) -> Path:
    """Writes `target` as PDF (.pdf) or HTML (anything else), its fixed texts in the language of `tr`."""
    target.write_bytes(report_bytes(record, outputs, "pdf" if target.suffix.lower() == ".pdf" else "html", tr))
    return target
