"""The one guard for HTML written for a browser (the session report): every HTML document the plugin writes is
made here, and nothing else in the product turns text into HTML, reads HTML back from Qt, or writes an .html
file (tests/unit/test_sinks_html.py scans for it).

A browser opening the report must fetch nothing: text from the analyst, the model or a catalog is data. So
- text is escaped; Markdown is rendered by Qt into a document that loads nothing, and Qt's HTML is then
  rebuilt from an allowlist of tags and attributes: no attribute that loads a resource (`src`, `background`,
  `href` other than http(s), `style` with anything but plain values), no `<img>`, `<link>`, `<style>`,
  `<script>`, `<iframe>`, `<object>`, forms or `<meta>`;
- pictures are only the plugin's own files in its outputs folder (a PNG or JPEG by its bytes), embedded as
  `data:` URIs, so the report is one self-contained file that shows every picture wherever it is opened;
- the document says so to the browser too: a Content-Security-Policy that allows no fetch at all.
The same rules make the PDF's document (a QTextDocument that loads no resource but the pictures given here).
"""

from __future__ import annotations

import base64
import html
import os
import re
from html.parser import HTMLParser
from pathlib import Path

from qgis.PyQt.QtCore import QUrl
from qgis.PyQt.QtGui import QImage, QTextDocument

ALLOWED_TAGS = {"p", "br", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "table", "thead", "tbody", "tr",
                "th", "td", "b", "strong", "i", "em", "u", "s", "code", "pre", "blockquote", "hr", "a", "span", "small",
                "sub", "sup", "div", "dl", "dt", "dd", "caption", "details", "summary"}
VOID_TAGS = {"br", "hr"}
DROPPED_WITH_CONTENT = {"script", "style", "head", "title", "iframe", "object", "embed", "template", "svg", "math",
                        "noscript", "textarea", "select", "video", "audio", "canvas"}
ALLOWED_ATTRIBUTES = {"colspan", "rowspan", "align", "valign", "width", "border", "cellspacing", "cellpadding", "style",
                      "href", "title", "start"}
STYLE_PROPERTIES = {"font-weight", "font-style", "text-decoration", "color", "background-color", "text-align",
                    "vertical-align", "white-space", "font-size", "font-family", "margin-top", "margin-bottom",
                    "margin-left", "margin-right", "text-indent"}
_PLAIN_VALUE = re.compile(r"^[#%\w\s.,'\"-]*$")  # no parentheses (url(), expression()), no backslash, no @, no :
_NUMBER = re.compile(r"^\d{1,4}%?$")
WEB_SCHEMES = ("http", "https")
PICTURE_TYPES = {b"\x89PNG\r\n\x1a\n": "image/png", b"\xff\xd8\xff": "image/jpeg"}
POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
PAGE_STYLE = ("body{font-family:sans-serif;max-width:52em;margin:2em auto;padding:0 1em;line-height:1.4}"
              "table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:2px 6px}"
              "img{max-width:100%;height:auto}pre{white-space:pre-wrap;background:#f4f4f4;padding:.5em}")


class _InertDocument(QTextDocument):
    """A document that loads no resource but the ones added to it (no file:, http: or data from text)."""

    def loadResource(self, kind: int, url: QUrl):  # noqa: N802 - Qt override
        return None


def text(value: object) -> str:
    """Any text as HTML text: escaped, quotes included."""
    return html.escape(str(value), quote=True)


def markdown(source: str) -> str:
    """Markdown (an answer of the model) as an inert HTML fragment: tables and lists kept, nothing that fetches."""
    doc = _InertDocument()
    doc.setMarkdown(source)
    rendered = doc.toHtml()
    body = rendered.split("<body", 1)[-1].split(">", 1)[-1].rsplit("</body>", 1)[0]
    return inert(body)


def inert(fragment: str) -> str:
    """An HTML fragment rebuilt from the allowlist: what a browser shows of it, and nothing it would fetch."""
    rebuilt = _Rebuilder()
    rebuilt.feed(fragment)
    rebuilt.close()
    return rebuilt.html()


def web_link(url: str) -> str | None:
    """`url` when a browser may follow it (http or https with a host), else None."""
    parsed = QUrl(url.strip())
    if parsed.isValid() and parsed.scheme().lower() in WEB_SCHEMES and parsed.host():
        return bytes(parsed.toEncoded()).decode("ascii")
    return None


def picture(path: Path, outputs: Path, width: int = 560, alt: str = "") -> str:
    """An `<img>` of one of the plugin's own pictures, embedded as a data: URI; "" for anything else (a file
    outside the outputs folder, a link, something that is not a PNG or JPEG)."""
    data, kind = _own_picture(path, outputs)
    if data is None:
        return ""
    encoded = base64.b64encode(data).decode("ascii")
    return f'<img src="data:{kind};base64,{encoded}" width="{int(width)}" alt="{text(alt)}">'


def _own_picture(path: Path, outputs: Path) -> tuple[bytes | None, str]:
    try:
        real, folder = Path(os.path.realpath(path)), Path(os.path.realpath(outputs))
        if folder not in real.parents or not real.is_file():
            return None, ""
        data = real.read_bytes()
    except OSError:
        return None, ""
    kind = next((k for magic, k in PICTURE_TYPES.items() if data.startswith(magic)), "")
    return (data, kind) if kind else (None, "")


def browser_document(title: str, body: str) -> str:
    """The whole document: `body` is built only from this module's functions."""
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">"
            "<meta name=\"referrer\" content=\"no-referrer\">"
            f"<title>{text(title)}</title><style>{PAGE_STYLE}</style></head>\n<body>\n{body}\n</body></html>\n")


def write_browser_document(target: Path, document: str) -> Path:
    """The one writer of an .html file the plugin makes."""
    target.write_bytes(document.encode("utf-8"))
    return target


def printable_document(body: str, pictures: list[Path], outputs: Path) -> QTextDocument:
    """The report as a QTextDocument for the PDF: the same inert body, its pictures given as resources
    `picture-N` (N from 1, in `pictures`' order) and only when they are the plugin's own."""
    doc = _InertDocument()
    for number, path in enumerate(pictures, start=1):
        data, _kind = _own_picture(path, outputs)
        if data is not None:
            doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(f"picture-{number}"),
                            QImage.fromData(data))
    doc.setHtml(f"<html><body>{body}</body></html>")
    return doc


def picture_reference(number: int, width: int = 560) -> str:
    """A picture of `printable_document`'s list, by its number."""
    return f'<img src="picture-{int(number)}" width="{int(width)}">'


class _Rebuilder(HTMLParser):
    """Rebuilds allowed tags with allowed attributes; text is escaped again; everything else goes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self._out: list[str] = []
        self._open: list[str] = []
        self._dropping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in DROPPED_WITH_CONTENT:
            self._dropping += 1
            return
        if self._dropping or tag not in ALLOWED_TAGS:
            return
        kept = [f' {name}="{text(value)}"' for name, value in (_attribute(tag, n, v) for n, v in attrs) if name]
        self._out.append(f"<{tag}{''.join(kept)}>")
        if tag not in VOID_TAGS:
            self._open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID_TAGS:
            self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in DROPPED_WITH_CONTENT:
            self._dropping = max(0, self._dropping - 1)
            return
        if self._dropping or tag not in self._open:
            return
        while self._open:  # close what was left open inside it
            inner = self._open.pop()
            self._out.append(f"</{inner}>")
            if inner == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self._dropping:
            self._out.append(text(data))

    def html(self) -> str:
        return "".join(self._out) + "".join(f"</{tag}>" for tag in reversed(self._open))


def _attribute(tag: str, name: str, value: str | None) -> tuple[str, str]:
    name, value = name.lower(), (value or "")
    if name not in ALLOWED_ATTRIBUTES:
        return "", ""
    if name == "href":
        link = web_link(value) if tag == "a" else None
        return ("href", link) if link else ("", "")
    if name == "style":
        kept = _style(value)
        return ("style", kept) if kept else ("", "")
    if name in ("colspan", "rowspan", "width", "border", "cellspacing", "cellpadding", "start"):
        return (name, value) if _NUMBER.match(value.strip()) else ("", "")
    return (name, value) if _PLAIN_VALUE.match(value) else ("", "")


def _style(value: str) -> str:
    """Only plain declarations of known properties: no url(), no image, no import."""
    kept = []
    for declaration in value.split(";"):
        prop, _, val = declaration.partition(":")
        prop, val = prop.strip().lower(), val.strip()
        if prop in STYLE_PROPERTIES and val and _PLAIN_VALUE.match(val):
            kept.append(f"{prop}:{val}")
    return "; ".join(kept)
