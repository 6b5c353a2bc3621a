"""A chat as a report (HTML and PDF) that a colleague can check and repeat: the questions, the answers,
the charts and exported map pages the chat made, and a provenance section listing every STAC
collection, item, asset and parameter the tools used (as called, and the items and bands a tool
reported reading); for an analysis (collection statistics, an index), its full record: every item id, the
bands and the cloud mask read, the area as a geometry and the layer and features it came from, the dates, the
resolution and the options, and the call that repeats it. Made from the session's saved events; used by the
Sessions tab (ui.session_report) and by the export_session_report tool.

The HTML is one self-contained file: its pictures (charts and layout images that lie in the plugin's output
folder) are embedded, so it shows them wherever it is sent. Text from the analyst, the model or a catalog goes
through the one guard for HTML (safe_html.py): escaped, or Markdown rebuilt from an allowlist; a browser opening
the report fetches nothing.

Its fixed texts (headings, "Tools used", "No answer.") are in the language of `tr`: the Sessions tab hands the
dock's (ui.i18n.tr); the export_session_report tool has none, so what the model asks for is English.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from qgis.PyQt.QtGui import QTextDocument

from ...agent import events as ev
from ...agent.dock_text import Translate, as_written
from ...agent.session_history import history_items
from ...agent.stores.base import SessionRecord
from . import safe_html

PROVENANCE_KEYS = ("catalog", "collection", "collections", "item_id", "item_ids", "asset", "assets", "bbox",
                   "datetime", "index", "expression", "algorithm_id", "layer", "query")
PICTURE_KEYS = ("chart_file", "thumbnail_file", "path")
USED_KEYS = ("items", "item_ids", "bands", "formula", "resolution", "collection", "assets")  # what a tool read
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg")
PICTURE_WIDTH = 560


@dataclass
class Exchange:
    question: str
    answer: str = ""
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    used: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # per tool result: what it says it read
    pictures: list[Path] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)  # the analyses' provenance records


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
            if isinstance(item.result.get("provenance"), dict):
                found[-1].records.append(item.result["provenance"])
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


def report_html(record: SessionRecord, outputs: Path, tr: Translate = as_written) -> tuple[str, list[Path]]:
    """The report as one self-contained HTML document (its pictures embedded), and the pictures it shows; its
    fixed texts in the language of `tr`, escaped as every other text."""
    body, pictures = _body(record, outputs, tr, lambda _number, path: safe_html.picture(path, outputs, PICTURE_WIDTH))
    return safe_html.browser_document(record.info.title or record.info.session_id, body), pictures


def build_document(record: SessionRecord, outputs: Path, tr: Translate = as_written) -> QTextDocument:
    body, pictures = _body(record, outputs, tr, lambda number, _path: safe_html.picture_reference(number,
                                                                                                  PICTURE_WIDTH))
    return safe_html.printable_document(body, pictures, outputs)


def _body(record: SessionRecord, outputs: Path, tr: Translate,
          picture_tag: Callable[[int, Path], str]) -> tuple[str, list[Path]]:
    items = exchanges(record, outputs)
    parts = [f"<h1>{safe_html.text(record.info.title or record.info.session_id)}</h1>"]
    pictures: list[Path] = []
    for number, exchange in enumerate(items, start=1):
        parts.append(f"<h2>{number}. {safe_html.text(exchange.question)}</h2>")
        parts.append(safe_html.markdown(exchange.answer) if exchange.answer
                     else f"<p><i>{safe_html.text(tr('No answer.'))}</i></p>")
        if exchange.calls:
            names = ", ".join(name for name, _ in exchange.calls)
            parts.append(f"<p><small>{safe_html.text(tr('Tools used: {names}').format(names=names))}</small></p>")
        for picture in exchange.pictures:
            pictures.append(picture)
            parts.append(f"<p>{picture_tag(len(pictures), picture)}</p>"
                         f"<p><small>{safe_html.text(picture.name)}</small></p>")
        for file in exchange.files:
            parts.append(f"<p><small>{safe_html.text(tr('File: {path}').format(path=file))}</small></p>")
    lines = provenance(items, tr)
    parts.append(f"<h2>{safe_html.text(tr('Provenance'))}</h2>")
    parts.append("<ul>" + "".join(f"<li>{safe_html.text(line)}</li>" for line in lines) + "</ul>" if lines
                 else f"<p>{safe_html.text(tr('No STAC data or Processing was used in this chat.'))}</p>")
    for exchange in items:
        for analysis in exchange.records:
            parts.append(_record_html(analysis, tr))
    return "\n".join(parts), pictures


def _record_html(analysis: dict[str, Any], tr: Translate) -> str:
    """One analysis as someone repeating it needs it: what was read, where, when, how; then the call."""
    area = analysis.get("area") or {}
    catalog = " ".join(str(v) for v in (analysis.get("catalog"), f"({analysis['catalog_url']})"
                                         if analysis.get("catalog_url") else "") if v)
    rows = [(tr("Catalog"), catalog), (tr("Collection"), analysis.get("collection")),
            (tr("Dates"), analysis.get("datetime")),
            (tr("Items read ({count})").format(count=len(analysis.get("items") or [])),
             ", ".join(str(i) for i in analysis.get("items") or [])),
            (tr("Bands"), analysis.get("bands")), (tr("Cloud mask"), _mask_words(analysis.get("cloud_mask"), tr)),
            (tr("Area"), _area_words(area, tr)), (tr("Resolution"), analysis.get("resolution")),
            (tr("Grid"), analysis.get("grid_crs")),
            (tr("Options"), ", ".join(f"{k} = {json.dumps(v)}" for k, v in (analysis.get("options") or {}).items()))]
    listed = "".join(f"<li><b>{safe_html.text(name)}</b>: {safe_html.text(value)}</li>"
                     for name, value in rows if value not in (None, "", []))
    repeat = analysis.get("repeat") or {}
    call = json.dumps(repeat, ensure_ascii=False)
    return (f"<h3>{safe_html.text(str(analysis.get('tool') or ''))}</h3><ul>{listed}</ul>"
            f"<p>{safe_html.text(tr('To repeat it, call {tool} with these arguments:').format(tool=repeat.get('tool', '')))}"
            f"</p><pre>{safe_html.text(call)}</pre>")


def _mask_words(mask: Any, tr: Translate) -> str:
    if not isinstance(mask, dict) or not mask.get("asset"):
        return tr("none")
    return tr("asset '{asset}', classes {classes} left out").format(
        asset=mask["asset"], classes=", ".join(str(c) for c in mask.get("classes_excluded") or []))


def _area_words(area: dict[str, Any], tr: Translate) -> str:
    found = [tr("{count} selected feature(s) of layer '{layer}' (feature ids {ids})").format(
        count=len(source.get("feature_ids") or []), layer=source.get("layer", ""),
        ids=", ".join(str(i) for i in source.get("feature_ids") or []))
        for source in area.get("selected") or []]
    geometry = area.get("geometry")
    if geometry:
        found.append(tr("geometry (lon/lat) in the call below"))
    return "; ".join(found)


def report_bytes(record: SessionRecord, outputs: Path, fmt: str, tr: Translate = as_written) -> bytes:
    """The report as PDF ("pdf") or self-contained HTML bytes, made in memory."""
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
    return report_html(record, outputs, tr)[0].encode("utf-8")


def save_report(target: Path, data: bytes, fmt: str) -> Path:
    """Writes report bytes to `target` (a worker may call it): HTML only through the HTML guard's writer."""
    if fmt == "pdf":
        target.write_bytes(data)
        return target
    return safe_html.write_browser_document(target, data.decode("utf-8"))


def write_report(record: SessionRecord, outputs: Path, target: Path, tr: Translate = as_written) -> Path:
    """Writes `target` as PDF (.pdf) or HTML (anything else), its fixed texts in the language of `tr`."""
    fmt = "pdf" if target.suffix.lower() == ".pdf" else "html"
    return save_report(target, report_bytes(record, outputs, fmt, tr), fmt)
