"""A chat as a PDF/HTML report from the Sessions tab: questions, answers (Markdown tables included), the
charts the chat made, and a provenance section with every STAC item, asset and parameter used. A
picture or link in the model's text never loads a local file into the report."""

from __future__ import annotations

import shutil
import subprocess

from qgis.PyQt.QtGui import QColor, QImage

from stacgis_agent.agent import events as ev
from stacgis_agent.agent.stores.base import SessionInfo, SessionRecord
from stacgis_agent.ui.session_report import write_report

assert shutil.which("pdftotext"), "poppler-utils is missing: `make setup-servers` installs it"


def _record(chart: str, secret: str) -> SessionRecord:
    events = [
        ev.UserMessage("NDVI statistics over Lyon for June 2025?"),
        ev.ToolStart(1, "c1", "collection_statistics", {"collection": "sentinel-2-l2a", "bbox": [4.79, 45.73, 4.88, 45.79],
                                                        "datetime": "2025-06", "index": "ndvi"}),
        ev.ToolResult(1, "c1", "collection_statistics", {"rows": 1}, 1200.0),
        ev.ToolStart(2, "c2", "make_chart", {"title": "NDVI June"}),
        ev.ToolResult(2, "c2", "make_chart", {"chart_file": chart}, 30.0),
        ev.ToolStart(3, "c3", "load_stac_asset", {"collection": "sentinel-2-l2a", "item_id": "S2B_31TFL_20250612",
                                                  "asset": "visual"}),
        ev.ToolResult(3, "c3", "load_stac_asset", {"layer": "x", "path": secret}, 30.0),
        ev.Content("| month | mean NDVI |\n|---|---|\n| 2025-06 | 0.412 |\n\n"
                   f"![leak](file://{secret}) [see]({'file://' + secret})", is_complete=True),
        ev.Done("s1", "m1", "", 0.0),
    ]
    info = SessionInfo("s1", "default", "NDVI over Lyon", 0.0, 0.0, 2)
    return SessionRecord(info, {}, [ev.event_to_dict(e) for e in events])


def test_the_report_has_the_chat_its_chart_and_its_provenance_and_no_local_file(qgis_app, tmp_path):
    outputs = tmp_path / "outputs"
    outputs.mkdir()
    chart = outputs / "ndvi.png"
    picture = QImage(200, 100, QImage.Format.Format_RGB32)
    picture.fill(QColor("#1f77b4"))
    picture.save(str(chart))
    secret = tmp_path / "secret.txt"  # outside the output folder: must never reach the report
    secret.write_text("TOP-SECRET-CONTENT")
    record = _record(str(chart), str(secret))

    pdf = write_report(record, outputs, tmp_path / "report.pdf")
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    for words in ("NDVI over Lyon", "NDVI statistics over Lyon for June 2025?", "0.412", "Provenance",
                  "collection_statistics: collection = \"sentinel-2-l2a\"", "S2B_31TFL_20250612", "asset = \"visual\""):
        assert words in text, (words, text)
    assert "TOP-SECRET-CONTENT" not in text
    images = subprocess.run(["pdfimages", "-list", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert len(images.strip().splitlines()) == 3  # header, rule, one picture: the chart, nothing else

    page = tmp_path / "page"
    subprocess.run(["pdftoppm", "-r", "40", "-png", "-singlefile", str(pdf), str(page)], check=True)
    rendered = QImage(str(page) + ".png")
    def bluish(c) -> bool:
        return abs(c.red() - 0x1f) < 24 and abs(c.green() - 0x77) < 24 and abs(c.blue() - 0xb4) < 24

    blue = sum(1 for x in range(0, rendered.width(), 2) for y in range(0, rendered.height(), 2)
               if bluish(rendered.pixelColor(x, y)))
    assert blue > 20  # the chart is on the page

    page_html = write_report(record, outputs, tmp_path / "report.html").read_text()
    assert "TOP-SECRET-CONTENT" not in page_html and "<img" in page_html and "ndvi.png" in page_html
    assert f'href="file://{secret}"' not in page_html  # the model's local link is text, not a link
    assert str(secret) not in page_html.split("Provenance")[0].split("<img")[1]  # the only picture is the chart
