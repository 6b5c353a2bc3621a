"""Issue 40.6 and 42.8: the session report opened in a real browser engine Debian ships (QtWebKit,
python3-pyqt5.qtwebkit) as the client opens it. An answer of the model that tries every way HTML has to make a
browser fetch (a table cell's background, CSS url(), images, stylesheets, frames, objects, a refresh, prefetch
links…) toward a recording server on 127.0.0.2 makes zero requests; and the report copied alone to another
folder, the outputs folder gone, still shows every picture it had."""

from __future__ import annotations

import os
import shutil
import time

import pytest
from qgis.PyQt.QtGui import QColor, QImage

from stacgis_agent.agent import events as ev
from stacgis_agent.agent.stores.base import SessionInfo, SessionRecord
from stacgis_agent.ui.session_report import write_report
from testkit.servers.redirect_attacker import AttackerHost

try:
    from PyQt5 import QtWebKitWidgets
except ImportError:  # scripts/test_packages.sh installs python3-pyqt5.qtwebkit; CI must have it
    if os.environ.get("CI", "").lower() == "true":
        raise
    pytest.skip("QtWebKit (python3-pyqt5.qtwebkit) is not installed", allow_module_level=True)


def _beacons(base: str) -> str:
    """Markdown with HTML in it, as a model (or a catalog text it quotes) could write it."""
    return "\n\n".join([
        "| month | mean NDVI |\n|---|---|\n| 2025-06 | 0.412 |",
        f'<table><tr><td background="{base}/td-background">cell</td></tr></table>',
        f'<table background="{base}/table-background"><tr><td>x</td></tr></table>',
        f'<div style="background-image:url({base}/css-url)">styled</div>',
        f'<span style="background:url(&quot;{base}/css-quoted&quot;)">styled</span>',
        f'<img src="{base}/img-src"> ![chart]({base}/markdown-image)',
        f'<link rel="stylesheet" href="{base}/stylesheet"><link rel="prefetch" href="{base}/prefetch">',
        f'<style>@import url("{base}/import"); body {{ background: url({base}/style-tag) }}</style>',
        f'<iframe src="{base}/iframe"></iframe><object data="{base}/object"></object><embed src="{base}/embed">',
        f'<video poster="{base}/poster" src="{base}/video"></video><audio src="{base}/audio"></audio>',
        f'<svg><image href="{base}/svg-image"/></svg><input type="image" src="{base}/input">',
        f'<meta http-equiv="refresh" content="0;url={base}/refresh"><body background="{base}/body">',
        f'<script src="{base}/script"></script><script>new Image().src="{base}/inline-script"</script>',
        f'<a href="{base}/a-link" ping="{base}/ping">a link the reader may follow</a>',
        f'<form action="{base}/form"><button>send</button></form>',
    ])


def _record(answer: str, chart: str) -> SessionRecord:
    events = [
        ev.UserMessage("NDVI statistics over Lyon for June 2025?"),
        ev.ToolStart(1, "c1", "make_chart", {"title": "NDVI June"}),
        ev.ToolResult(1, "c1", "make_chart", {"chart_file": chart}, 30.0),
        ev.Content(answer, is_complete=True),
        ev.Done("s1", "m1", "", 0.0),
    ]
    info = SessionInfo("s1", "default", "NDVI over Lyon", 0.0, 0.0, 2)
    return SessionRecord(info, {}, [ev.event_to_dict(e) for e in events])


def _open(qgis_app, path):
    """The page as QtWebKit loads it from disk, images and scripts on, left to fetch for a second."""
    from qgis.PyQt.QtCore import QUrl

    page = QtWebKitWidgets.QWebPage()
    done = []
    page.loadFinished.connect(done.append)
    page.mainFrame().load(QUrl.fromLocalFile(str(path)))
    deadline = time.monotonic() + 15
    while not done and time.monotonic() < deadline:
        qgis_app.processEvents()
        time.sleep(0.01)
    settle = time.monotonic() + 1.5
    while time.monotonic() < settle:
        qgis_app.processEvents()
        time.sleep(0.01)
    assert done, "the report did not load"
    return page


def _chart(folder) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    chart = folder / "ndvi.png"
    picture = QImage(240, 120, QImage.Format.Format_RGB32)
    picture.fill(QColor("#1f77b4"))
    picture.save(str(chart))
    return str(chart)


def test_a_browser_opening_the_report_fetches_nothing_the_model_wrote(qgis_app, tmp_path):
    (tmp_path / "served").mkdir()
    attacker = AttackerHost(tmp_path / "served")
    attacker.start()
    try:
        outputs = tmp_path / "outputs"
        record = _record(_beacons(attacker.url), _chart(outputs))
        report = write_report(record, outputs, tmp_path / "report.html")
        page = _open(qgis_app, report)
        assert "0.412" in page.mainFrame().toPlainText()  # the answer's table is there
        with attacker.lock:
            fetched = [path for _method, path, _headers in attacker.seen]
        assert fetched == [], fetched
    finally:
        attacker.stop()


def test_the_report_copied_alone_elsewhere_shows_every_picture(qgis_app, tmp_path):
    outputs = tmp_path / "outputs"
    record = _record("The chart shows June.", _chart(outputs))
    (tmp_path / "made").mkdir()
    report = write_report(record, outputs, tmp_path / "made" / "report.html")
    sent = tmp_path / "elsewhere" / "report.html"
    sent.parent.mkdir()
    shutil.copy(report, sent)
    shutil.rmtree(outputs)
    shutil.rmtree(tmp_path / "made")  # the report travels alone: no outputs folder, no picture files beside it
    page = _open(qgis_app, sent)
    frame = page.mainFrame()
    count = frame.evaluateJavaScript("document.images.length")
    shown = frame.evaluateJavaScript("Array.prototype.filter.call(document.images, "
                                     "function (i) { return i.complete && i.naturalWidth > 0; }).length")
    assert count == 1 and shown == 1, (count, shown)
