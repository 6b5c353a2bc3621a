"""Issue 40.7, 40.8, 40.12 through the real MCP tools, with a client that declines every question (as an outside
client that says no): a layout of several pages never overwrites the analyst's files (QGIS writes <stem>_2.png
beside <stem>.png); the analyst's own print layout is replaced only after asking, and undo brings it back; an
export past the pages × dpi budget asks; one export runs at a time, and a stopped export leaves no file."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

import httpx
import pytest
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsGeometry,
    QgsLayoutItemLabel,
    QgsLayoutItemPage,
    QgsLayoutPoint,
    QgsPrintLayout,
    QgsProject,
    QgsRectangle,
    QgsVectorLayer,
)

from stacgis_agent.agent.config import DEMO_CATALOG
from stacgis_agent.tools.server import build_server
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient

ANALYST_TEXT = "The analyst's own cover page"


@pytest.fixture
async def served(qgis_iface, qgis_new_project, tmp_path):
    QgsProject.instance().setCrs(QgsCoordinateReferenceSystem("EPSG:3857"))
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, str(DEMO_CATALOG), str(tmp_path / "out"), qgis_iface)
        server = build_server(deps, canvas=True)
        yield OneShotClient(server), OneShotClient(server, user_approves=True), deps
    QgsProject.instance().layoutManager().clear()
    QgsProject.instance().removeAllMapLayers()


def _analysts_layout(name: str, pages: int = 1) -> QgsPrintLayout:
    """A layout made by hand in QGIS's Layout Manager: a label on each page."""
    project = QgsProject.instance()
    layout = QgsPrintLayout(project)
    layout.initializeDefaults()
    layout.setName(name)
    for _ in range(1, pages):
        page = QgsLayoutItemPage(layout)
        page.setPageSize("A4", QgsLayoutItemPage.Landscape)
        layout.pageCollection().addPage(page)
    for number in range(pages):
        label = QgsLayoutItemLabel(layout)
        label.setText(f"{ANALYST_TEXT} {number + 1}")
        layout.addLayoutItem(label)
        label.attemptMove(QgsLayoutPoint(20, 20), page=number)
    project.layoutManager().addLayout(layout)
    return layout


def _labels(layout) -> list[str]:
    return [i.text() for i in layout.items() if isinstance(i, QgsLayoutItemLabel)]


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("fmt", ["png", "svg"])
async def test_a_layout_of_two_pages_never_overwrites_an_existing_second_page_file(served, fmt):
    declining, _approving, deps = served
    _analysts_layout("Two pages", pages=2)
    out = deps.output_dir()
    second = out / f"Two pages_2.{fmt}"
    second.write_bytes(b"the analyst's earlier export, page 2")
    before = _digest(second)
    result = await declining.call_tool("export_print_layout", {"name": "Two pages", "format": fmt, "dpi": 72})
    assert not result.is_error, result.content[0].text
    assert _digest(second) == before  # untouched
    files = result.structured_content["files"]
    assert len(files) == 2 and all(f.startswith(str(out)) for f in files)
    assert str(second) not in files and all(Path(f).stat().st_size > 0 for f in files)


async def test_the_analysts_own_layout_is_replaced_only_after_asking_and_undo_brings_it_back(served):
    declining, approving, deps = served
    _analysts_layout("Client map")
    layer = QgsVectorLayer("Polygon?crs=EPSG:4326&field=name:string", "parcels", "memory")
    QgsProject.instance().addMapLayer(layer)
    args = {"title": "Client map", "bbox": [4.79, 45.73, 4.88, 45.79]}
    refused = await declining.call_tool("make_print_layout", args)
    assert refused.is_error
    layout = QgsProject.instance().layoutManager().layoutByName("Client map")
    assert _labels(layout) == [f"{ANALYST_TEXT} 1"]  # nothing changed without the analyst's yes

    done = await approving.call_tool("make_print_layout", args)
    assert not done.is_error, done.content[0].text
    assert done.structured_content["replaced"]
    assert f"{ANALYST_TEXT} 1" not in _labels(layout)
    history = deps.turn_history
    rows = " ".join(" ".join(entry.details) for entry in history.entries())
    assert "print layout 'Client map'" in rows, rows  # in History, as a change that can be undone
    history.undo_last_turn()
    restored = QgsProject.instance().layoutManager().layoutByName("Client map")
    assert _labels(restored) == [f"{ANALYST_TEXT} 1"]

    again = await declining.call_tool("make_print_layout", {"title": "Atlas 2", "bbox": [4.79, 45.73, 4.88, 45.79]})
    assert not again.is_error  # a new layout, or one the assistant made, needs no question
    assert not (await declining.call_tool("make_print_layout", {"title": "Atlas 2",
                                                                "bbox": [4.79, 45.73, 4.88, 45.79]})).is_error


def _squares(count: int) -> QgsVectorLayer:
    layer = QgsVectorLayer("Polygon?crs=EPSG:4326&field=name:string", "plots", "memory")
    features = []
    for i in range(count):
        feature = QgsFeature(layer.fields())
        feature.setAttributes([f"Plot {i + 1}"])
        x = 4.80 + (i % 10) * 0.004
        y = 45.74 + (i // 10) * 0.004
        feature.setGeometry(QgsGeometry.fromRect(QgsRectangle(x, y, x + 0.002, y + 0.002)))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    QgsProject.instance().addMapLayer(layer)
    return layer


async def test_an_atlas_export_past_the_budget_asks_and_a_declining_client_gets_no_file(served):
    declining, approving, deps = served
    _squares(30)
    made = await declining.call_tool("make_atlas", {"layer": "plots", "title": "Plots"})
    assert not made.is_error, made.content[0].text
    before = set(deps.output_dir().iterdir())
    refused = await declining.call_tool("export_print_layout", {"name": "Plots", "format": "pdf", "dpi": 600})
    assert refused.is_error  # 30 pages at 600 dpi: about a billion pixels
    assert set(deps.output_dir().iterdir()) == before


async def test_one_export_at_a_time_and_a_stopped_export_leaves_no_file(served):
    declining, _approving, deps = served
    _squares(12)
    made = await declining.call_tool("make_atlas", {"layer": "plots", "title": "Plots"})
    assert not made.is_error, made.content[0].text
    _analysts_layout("Other")
    first = asyncio.ensure_future(declining.call_tool("export_print_layout", {"name": "Plots", "dpi": 150}))
    pdf = deps.output_dir() / "Plots.pdf"
    for _ in range(2000):  # until the first export is writing its pages
        if pdf.exists() and pdf.stat().st_size > 0:
            break
        await asyncio.sleep(0.005)
    second = await declining.call_tool("export_print_layout", {"name": "Other", "format": "png", "dpi": 72})
    assert second.is_error and "Another export is running" in second.content[0].text
    first.cancel()  # the analyst's Stop
    with pytest.raises(asyncio.CancelledError):
        await first
    for _ in range(200):
        if not pdf.exists():
            break
        await asyncio.sleep(0.01)
    assert not pdf.exists()  # no half-written atlas
    third = await declining.call_tool("export_print_layout", {"name": "Other", "format": "png", "dpi": 72})
    assert not third.is_error, third.content[0].text  # the next export runs
