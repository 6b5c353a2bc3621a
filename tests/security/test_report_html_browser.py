"""Issue 40.6 and 42.8: the session report opened in a real browser as the client opens it: Debian's Chromium
(bookworm, trixie and sid all ship it; scripts/test_packages.sh installs it), headless, from the file on disk.
An answer of the model that tries every way HTML has to make a browser fetch (a table cell's background, CSS
url(), images, stylesheets, frames, objects, a refresh, prefetch links…) toward a recording server on 127.0.0.2
makes zero requests; the same answer written with the guard bypassed does reach that server (so the browser and
the recorder can see a fetch: the zero is not vacuous); and the report copied alone to another folder, the outputs
folder gone, still shows its picture on screen (its pixels in the browser's screenshot)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import numpy
import pytest
from qgis.PyQt.QtGui import QColor, QImage

from stacgis_agent.agent import events as ev
from stacgis_agent.agent.stores.base import SessionInfo, SessionRecord
from stacgis_agent.tools.session import safe_html
from stacgis_agent.ui.session_report import write_report
from testkit.servers.redirect_attacker import AttackerHost

CHROMIUM = shutil.which("chromium")
if CHROMIUM is None:  # scripts/test_packages.sh installs Debian's chromium; CI must have it
    if os.environ.get("CI", "").lower() == "true":
        raise RuntimeError("Chromium (Debian package 'chromium') is missing: the session report's browser tests "
                           "need it under CI; run scripts/ensure_apt.sh $(scripts/test_packages.sh)")
    pytest.skip("Chromium (Debian package 'chromium') is not installed", allow_module_level=True)

CHART_COLOUR = QColor("#1f77b4")
CHART_SIZE = (240, 120)


@pytest.fixture(scope="module", autouse=True)
def qt_gui():
    """write_report renders Markdown with a QTextDocument, which wants a QGuiApplication (none under -p no:pytest_qgis)."""
    from qgis.PyQt.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication(["stacgis-report-tests"])
    yield app


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


def _chromium(page: Path, profile: Path, *action: str) -> subprocess.CompletedProcess:
    """Headless Chromium opening `page` from disk (scripts and images on, a fresh profile, nothing of its own on
    the network), given a few seconds of page time to fetch, then `action` (--dump-dom, --screenshot=…)."""
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--disable-dev-shm-usage", "--force-color-profile=srgb", "--hide-scrollbars",
               f"--user-data-dir={profile}", "--window-size=1000,1600", "--virtual-time-budget=3000",
               *action, page.as_uri()]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def _fetched(attacker: AttackerHost) -> list[str]:
    with attacker.lock:
        return sorted(path for _method, path, _headers in attacker.seen)


def _chart(folder) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    chart = folder / "ndvi.png"
    picture = QImage(*CHART_SIZE, QImage.Format.Format_RGB32)
    picture.fill(CHART_COLOUR)
    picture.save(str(chart))
    return str(chart)


def _chart_pixels(screenshot: Path) -> int:
    """How many pixels of the screenshot have the chart's colour (within 3 per channel)."""
    image = QImage(str(screenshot)).convertToFormat(QImage.Format.Format_RGB32)
    assert not image.isNull(), f"no screenshot at {screenshot}"
    data = image.constBits()
    data.setsize(image.sizeInBytes())
    rows = numpy.frombuffer(bytes(data), numpy.uint8).reshape(image.height(), image.bytesPerLine())
    pixels = rows[:, :image.width() * 4].reshape(image.height(), image.width(), 4)[:, :, 2::-1]  # BGRA → RGB
    want = numpy.array([CHART_COLOUR.red(), CHART_COLOUR.green(), CHART_COLOUR.blue()])
    return int((numpy.abs(pixels.astype(int) - want) <= 3).all(axis=2).sum())


def _open_attack(tmp_path: Path) -> tuple[str, list[str]]:
    """The report of a chat whose answer carries every fetch trick, opened in Chromium: its DOM and what reached
    the recording server."""
    (tmp_path / "served").mkdir()
    attacker = AttackerHost(tmp_path / "served")
    attacker.start()
    try:
        outputs = tmp_path / "outputs"
        record = _record(_beacons(attacker.url), _chart(outputs))
        report = write_report(record, outputs, tmp_path / "report.html")
        dom = _chromium(report, tmp_path / "profile", "--dump-dom").stdout
        return dom, _fetched(attacker)
    finally:
        attacker.stop()


def test_a_browser_opening_the_report_fetches_nothing_the_model_wrote(tmp_path):
    dom, fetched = _open_attack(tmp_path)
    assert fetched == [], fetched
    assert "0.412" in dom  # the answer's table is there


def test_the_same_answer_without_the_guard_does_reach_the_recording_server(tmp_path, monkeypatch):
    """The zero above means something: this browser, opening a file from disk, fetches from 127.0.0.2 and the
    recorder sees it, once the guard is bypassed (Markdown kept as written, no Content-Security-Policy)."""
    monkeypatch.setattr(safe_html, "markdown", lambda source: source)
    monkeypatch.setattr(safe_html, "POLICY", "")
    _dom, fetched = _open_attack(tmp_path)
    assert {"/td-background", "/table-background", "/css-url", "/img-src", "/stylesheet"} <= set(fetched), fetched


def test_the_report_copied_alone_elsewhere_shows_every_picture(tmp_path):
    outputs = tmp_path / "outputs"
    record = _record("The chart shows June.", _chart(outputs))
    (tmp_path / "made").mkdir()
    report = write_report(record, outputs, tmp_path / "made" / "report.html")
    sent = tmp_path / "elsewhere" / "report.html"
    sent.parent.mkdir()
    shutil.copy(report, sent)
    shutil.rmtree(outputs)
    shutil.rmtree(tmp_path / "made")  # the report travels alone: no outputs folder, no picture files beside it
    screenshot = tmp_path / "screen.png"
    _chromium(sent, tmp_path / "profile", f"--screenshot={screenshot}")
    shown = _chart_pixels(screenshot)
    assert shown >= CHART_SIZE[0] * CHART_SIZE[1], f"{shown} pixels of the chart on screen"
