"""Print layouts made by chat, judged as a client judges the page: the shipped demo catalog's NDVI and
true colour on the map, a layout made and exported through the real MCP tools, the PDF read back
(pdftotext, pdftoppm), every item inside the page, the scale bar as long as the map's scale says,
credits that name the items and dates actually shown, and the layout still there after a save and
reload. Text from a model or a catalog never runs as a QGIS expression on the page."""

from __future__ import annotations

import shutil
import subprocess

import httpx
import pytest
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsLayoutItemLabel,
    QgsLayoutItemLegend,
    QgsLayoutItemMap,
    QgsLayoutItemPage,
    QgsLayoutItemPicture,
    QgsLayoutItemScaleBar,
    QgsProject,
    QgsRectangle,
    QgsUnitTypes,
)
from qgis.PyQt.QtCore import QRectF

from stacgis_agent.agent.config import DEMO_CATALOG
from stacgis_agent.tools.canvas.layouts.page import nice_scale
from stacgis_agent.tools.server import build_server
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient

LYON = QgsRectangle(4.79, 45.73, 4.88, 45.79)
HOSTILE_TITLE = "NDVI over Lyon [% env('HOME') %]"

assert shutil.which("pdftotext"), "poppler-utils is missing: `make setup-servers` installs it"


@pytest.fixture
async def client(qgis_iface, qgis_new_project, tmp_path):
    project = QgsProject.instance()
    project.setCrs(QgsCoordinateReferenceSystem("EPSG:3857"))
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, str(DEMO_CATALOG), str(tmp_path / "out"), qgis_iface)
        one = OneShotClient(build_server(deps, canvas=True))
        for collection, item in (("demo-ndvi", "demo-ndvi-2025-06-15"), ("demo-rgb", "demo-rgb-2025-06-15")):
            loaded = await one.call_tool("load_stac_asset", {"collection": collection, "item_id": item})
            assert not loaded.is_error, loaded.content[0].text
        yield one, deps
    project.layoutManager().clear()
    project.removeAllMapLayers()


async def _layout(client, **args):
    one, _deps = client
    result = await one.call_tool("make_print_layout", {"bbox": [LYON.xMinimum(), LYON.yMinimum(),
                                                                LYON.xMaximum(), LYON.yMaximum()], **args})
    assert not result.is_error, result.content[0].text
    return result.structured_content, QgsProject.instance().layoutManager().layoutByName(
        result.structured_content["layout"])


def _first_segment_mm(layout, bar) -> float:
    """The drawn length of the scale bar's first (filled) segment, read off a 10 px/mm rendering."""
    from collections import Counter

    from qgis.core import QgsLayoutExporter
    from qgis.PyQt.QtCore import QSize

    image = QgsLayoutExporter(layout).renderRegionToImage(bar.sceneBoundingRect(), QSize(), 254)
    runs = Counter()
    for y in range(image.height()):  # rows through the box: the filled segment is their longest dark run
        run = best = 0
        for x in range(image.width()):
            run = run + 1 if image.pixelColor(x, y).lightness() < 80 else 0
            best = max(best, run)
        if best > 20:  # not a row of label text
            runs[best] += 1
    return runs.most_common(1)[0][0] / 10.0


def _items(layout, kind):
    return [i for i in layout.items() if isinstance(i, kind)]


async def test_a_layout_has_every_part_inside_the_page_and_a_true_scale_bar(client):
    data, layout = await _layout(client, title="NDVI over Lyon", subtitle="June 2025")
    sheet = layout.pageCollection().page(0)
    page = QRectF(sheet.pos(), sheet.rect().size())  # the paper, without the page's drop shadow
    parts = [i for i in layout.items() if hasattr(i, "sceneBoundingRect") and not isinstance(i, QgsLayoutItemPage)
             and i.parentItem() is None and type(i).__name__.startswith("QgsLayoutItem")]
    assert parts
    for part in parts:  # nothing cut off the page
        box = part.sceneBoundingRect()
        assert page.adjusted(-0.5, -0.5, 0.5, 0.5).contains(box), (type(part).__name__, box, page)
    [main, *insets] = sorted(_items(layout, QgsLayoutItemMap), key=lambda m: -m.rect().width())
    [legend] = _items(layout, QgsLayoutItemLegend)
    assert not legend.sceneBoundingRect().intersects(main.sceneBoundingRect())  # the legend beside the map, not on it
    assert len(_items(layout, QgsLayoutItemPicture)) == 1  # the north arrow
    # the scale is round and stated, and the scale bar is as long as that scale says
    assert data["scale"] == nice_scale(data["scale"]) and abs(main.scale() - data["scale"]) < 1
    [bar] = [b for b in _items(layout, QgsLayoutItemScaleBar) if b.style() != "Numeric"]
    metres = bar.unitsPerSegment() * (1000 if bar.units() == QgsUnitTypes.DistanceKilometers else 1)
    expected_mm = metres / main.scale() * 1000
    measured_mm = _first_segment_mm(layout, bar)
    assert abs(measured_mm - expected_mm) < 0.5, (measured_mm, expected_mm)  # measured on the rendered page
    legend_layers = [n.layer().name() for n in legend.model().rootGroup().findLayers()]
    assert legend_layers == data["legend_layers"] and len(legend_layers) == 2
    assert insets and data["overview"]  # a small area gets an overview inset


async def test_credits_name_the_items_dates_and_licence_shown(client):
    data, layout = await _layout(client, title="NDVI over Lyon")
    credits = data["credits"]
    for words in ("demo-ndvi-2025-06-15", "demo-rgb-2025-06-15", "2025-06-15", "CC0-1.0", "demo-ndvi"):
        assert words in credits, credits
    labels = " ".join(lbl.currentText() for lbl in _items(layout, QgsLayoutItemLabel))
    assert "demo-ndvi-2025-06-15" in labels and "EPSG:3857" in labels


async def test_the_exported_pdf_shows_title_legend_and_credits_and_the_map(client, tmp_path):
    one, deps = client
    data, layout = await _layout(client, title="NDVI over Lyon", subtitle="June 2025")
    exported = await one.call_tool("export_print_layout", {"name": data["layout"], "format": "pdf", "dpi": 150})
    assert not exported.is_error, exported.content[0].text
    pdf = exported.structured_content["path"]
    assert pdf.startswith(str(deps.output_dir()))
    from stacgis_agent.ui.conversation_view import image_files

    [thumbnail] = image_files(exported.structured_content)  # what the chat shows under the answer
    assert thumbnail.startswith(str(deps.output_dir())) and thumbnail.endswith("page 1.png")
    text = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True, check=True).stdout
    for words in ("NDVI over Lyon", "June 2025", "Legend", "demo-ndvi-2025-06-15", "Coordinate reference system"):
        assert words in text, text
    png = tmp_path / "page"
    subprocess.run(["pdftoppm", "-r", "40", "-png", "-singlefile", pdf, str(png)], check=True)
    from qgis.PyQt.QtGui import QImage

    image = QImage(str(png) + ".png")
    assert image.width() > image.height()  # landscape
    [main, *_] = sorted(_items(layout, QgsLayoutItemMap), key=lambda m: -m.rect().width())
    box = main.sceneBoundingRect()
    scale = image.width() / layout.pageCollection().page(0).rect().width()
    colours = {image.pixelColor(int((box.left() + box.width() * fx) * scale),
                                int((box.top() + box.height() * fy) * scale)).name()
               for fx in (0.3, 0.5, 0.7) for fy in (0.3, 0.5, 0.7)}
    assert colours - {"#ffffff"}, "the map area of the page is blank"


async def test_asking_again_changes_that_layout_and_it_survives_save_and_reload(client, tmp_path):
    _data, first = await _layout(client, title="NDVI over Lyon", name="Client map")
    _data, again = await _layout(client, title="NDVI over Lyon, June", name="Client map")
    manager = QgsProject.instance().layoutManager()
    assert len(manager.printLayouts()) == 1 and again is first
    titles = [lbl.currentText() for lbl in _items(again, QgsLayoutItemLabel)]
    assert "NDVI over Lyon, June" in titles and "NDVI over Lyon" not in titles
    assert len(_items(again, QgsLayoutItemLegend)) == 1  # the old items went, not doubled
    path = tmp_path / "saved.qgz"
    assert QgsProject.instance().write(str(path))
    QgsProject.instance().clear()
    assert QgsProject.instance().read(str(path))
    reopened = QgsProject.instance().layoutManager().layoutByName("Client map")
    assert reopened is not None and len(_items(reopened, QgsLayoutItemLegend)) == 1
    assert len(_items(reopened, QgsLayoutItemMap)) >= 1


async def test_text_on_the_page_never_runs_as_an_expression(client, monkeypatch):
    monkeypatch.setenv("HOME", "/secret-home-marker")
    _data, layout = await _layout(client, title=HOSTILE_TITLE)
    shown = " ".join(lbl.currentText() for lbl in _items(layout, QgsLayoutItemLabel))
    assert "secret-home-marker" not in shown and "env('HOME')" in shown


async def test_an_export_stays_in_the_output_folder_and_never_replaces_a_file(client):
    one, deps = client
    data, _layout_obj = await _layout(client, title="NDVI over Lyon")
    paths = []
    for _ in range(2):
        result = await one.call_tool("export_print_layout", {"name": data["layout"], "format": "png", "dpi": 72,
                                                             "file_name": "../../outside/map.png"})
        assert not result.is_error, result.content[0].text
        paths.append(result.structured_content["path"])
    out = str(deps.output_dir().resolve())
    assert all(p.startswith(out) and "/outside/" not in p for p in paths)
    assert paths[0] != paths[1] and paths[1].endswith("map (2).png")
    reserved = await one.call_tool("export_print_layout", {"name": data["layout"], "format": "png", "dpi": 72,
                                                           "file_name": "CON"})
    assert reserved.structured_content["path"].endswith("/_CON.png")  # a name Windows refuses is never written


def _parcels():
    from qgis.core import QgsFeature, QgsGeometry, QgsVectorLayer

    layer = QgsVectorLayer("Polygon?crs=EPSG:4326&field=name:string&field=ndvi_mean:double", "parcels", "memory")
    rows = [("North field", 0.412, 4.80), ("[% env('HOME') %]", 0.275, 4.83), ("River meadow", 0.6049, 4.86)]
    features = []
    for name, value, x in rows:
        feature = QgsFeature(layer.fields())
        feature.setAttributes([name, value])
        feature.setGeometry(QgsGeometry.fromRect(QgsRectangle(x, 45.74, x + 0.015, 45.75)))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    QgsProject.instance().addMapLayer(layer)
    return layer


def _pdf_pages(pdf: str) -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True, check=True).stdout
    return [page for page in text.split("\f") if page.strip()]


async def test_an_atlas_has_one_page_per_selected_feature_with_its_own_numbers(client, monkeypatch):
    one, _deps = client
    monkeypatch.setenv("HOME", "/secret-home-marker")
    parcels = _parcels()
    parcels.selectByIds([f.id() for f in parcels.getFeatures() if f["name"] != "North field"])
    made = await one.call_tool("make_atlas", {"layer": "parcels", "title": "NDVI per parcel",
                                              "fields": ["ndvi_mean"], "selected_only": True})
    assert not made.is_error, made.content[0].text
    assert made.structured_content["pages"] == 2
    exported = await one.call_tool("export_print_layout", {"name": "NDVI per parcel", "format": "pdf", "dpi": 96})
    assert not exported.is_error, exported.content[0].text
    pages = _pdf_pages(exported.structured_content["path"])
    assert len(pages) == 2
    by_name = {("River meadow" if "River meadow" in p else "hostile"): p for p in pages}
    assert "ndvi_mean: 0.605" in by_name["River meadow"] and "NDVI per parcel" in by_name["River meadow"]
    assert "ndvi_mean: 0.275" in by_name["hostile"] and "env('HOME')" in by_name["hostile"]
    assert all("secret-home-marker" not in p for p in pages)
    assert all("North field" not in p for p in pages)  # not selected: no page


async def test_an_atlas_names_a_missing_field_and_what_exists(client):
    one, _deps = client
    _parcels()
    result = await one.call_tool("make_atlas", {"layer": "parcels", "title": "x", "fields": ["evi"]})
    assert result.is_error and "no field(s) evi" in result.content[0].text and "ndvi_mean" in result.content[0].text


HOSTILE_FIELD = "ndvi%] [% env('STACGIS_PAGE_SECRET') %] [%'"  # a field name a catalog or an unasked tool wrote


async def test_a_field_name_never_ends_the_atlas_template(client, monkeypatch):
    """Issue 40.1: the atlas line is built from the expression guard's fragments; a field name holding "%]" is
    printed as a name, and what follows it is never evaluated."""
    from qgis.core import QgsFeature, QgsGeometry, QgsVectorLayer

    one, _deps = client
    monkeypatch.setenv("STACGIS_PAGE_SECRET", "secret-from-the-environment")
    layer = QgsVectorLayer("Polygon?crs=EPSG:4326&field=name:string", "fields", "memory")
    from qgis.core import QgsField
    from qgis.PyQt.QtCore import QVariant

    layer.dataProvider().addAttributes([QgsField(HOSTILE_FIELD, QVariant.Double)])
    layer.updateFields()
    feature = QgsFeature(layer.fields())
    feature.setAttributes(["Orchard", 0.4125])
    feature.setGeometry(QgsGeometry.fromRect(QgsRectangle(4.80, 45.74, 4.81, 45.75)))
    layer.dataProvider().addFeatures([feature])
    QgsProject.instance().addMapLayer(layer)
    made = await one.call_tool("make_atlas", {"layer": "fields", "title": "Fields", "fields": [HOSTILE_FIELD]})
    assert not made.is_error, made.content[0].text
    exported = await one.call_tool("export_print_layout", {"name": "Fields", "format": "pdf", "dpi": 72})
    assert not exported.is_error, exported.content[0].text
    [page] = _pdf_pages(exported.structured_content["path"])
    assert "secret-from-the-environment" not in page, page
    assert "Orchard" in page and "0.412" in page, page  # the value of that field, read as a field
