"""Done-when scenario of issue 30: the analyst selects parcels and asks, through the dock, for "a map of the NDVI
over the selected parcels for the client". The scripted model computes the index over the selection, composes a
print layout and exports it. Judged as the client judges the page: the PDF rendered with pdftoppm and read with
pdftotext shows the title, a legend naming the index and its formula, a scale bar as long as the map's scale
says and a north arrow, all on the page and none of them on the map or cut off; the credits name the collection's
providers, the item and its date; the layout is in the Layout Manager and is still there, and editable, after a
project save and reload."""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsGeometry,
    QgsLayoutItemLabel,
    QgsLayoutItemLegend,
    QgsLayoutItemMap,
    QgsLayoutItemPicture,
    QgsLayoutItemScaleBar,
    QgsPointXY,
    QgsProject,
    QgsUnitTypes,
    QgsVectorLayer,
)
from qgis.PyQt.QtGui import QImage

from stacgis_agent.tools.canvas.layouts.export import _always_text
from testkit.llm.ollama_emulator import Turn
from testkit.llm.reactive_emulator import tool_results
from testkit.qgis_drivers.plugin_driver import send, wait_turn
from testkit.worlds.collection_world import COLLECTION, DATES, served_collection_world

pytestmark = pytest.mark.server
PROVIDERS = [{"name": "European Space Agency", "roles": ["producer", "licensor"]},
             {"name": "Lyon Test Host", "roles": ["host"]}]
DPI = 254  # 10 pixels a millimetre on the rendered page
TITLE = "NDVI over the selected parcels"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with served_collection_world(tmp_path_factory.mktemp("client-map"), providers=PROVIDERS) as pair:
        yield pair


@pytest.fixture
def client_plugin(make_plugin, served):
    QgsProject.instance().setCrs(QgsCoordinateReferenceSystem("EPSG:3857"))
    return make_plugin(catalogs=json.dumps([{"name": "Sentinel-2 Lyon", "url": served[0].url, "kind": "api"}]))


def _parcels(world) -> tuple[QgsVectorLayer, list[float]]:
    """Three parcels inside the area, in lon/lat, with the two eastern ones selected; and their bbox."""
    ring = world.area["coordinates"][0][:-1]
    cx = sum(p[0] for p in ring) / len(ring)
    cy = sum(p[1] for p in ring) / len(ring)
    layer = QgsVectorLayer("Polygon?crs=EPSG:4326&field=name:string", "parcels", "memory")
    features = []
    for n, dx in enumerate((-0.012, -0.003, 0.006)):
        feature = QgsFeature(layer.fields())
        feature.setAttributes([f"Parcel {n + 1}"])
        x0, y0 = cx + dx, cy - 0.004
        feature.setGeometry(QgsGeometry.fromPolygonXY([[QgsPointXY(x0, y0), QgsPointXY(x0 + 0.007, y0),
                                                        QgsPointXY(x0 + 0.007, y0 + 0.008), QgsPointXY(x0, y0 + 0.008)]]))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    from qgis.core import QgsFillSymbol

    layer.renderer().setSymbol(QgsFillSymbol.createSimple({"color": "0,0,0,0", "outline_color": "#202020",
                                                           "outline_width": "0.6"}))  # the analyst's outlines
    QgsProject.instance().addMapLayer(layer)
    layer.selectByIds([f.id() for f in layer.getFeatures() if f["name"] != "Parcel 1"])
    box = layer.boundingBoxOfSelected()
    box.grow(0.004)
    return layer, [box.xMinimum(), box.yMinimum(), box.xMaximum(), box.yMaximum()]


def _script(emu, bbox) -> None:
    emu.script(
        Turn(thinking="NDVI over the selection, then a page for the client.", tool_calls=[("compute_index", {
            "index": "NDVI", "collection": COLLECTION, "datetime": DATES[0], "use_selected_features": True,
            "exact": True})]),
        lambda body: Turn(tool_calls=[("make_print_layout", {
            "title": TITLE, "subtitle": f"Mean NDVI on {DATES[0]}", "name": "Client map", "bbox": bbox,
            "layers": [tool_results(body, "compute_index")[0]["layer"], "parcels"]})]),
        Turn(tool_calls=[("export_print_layout", {"name": "Client map", "format": "pdf", "dpi": 150})]),
        lambda body: Turn(content="The map is ready: " + tool_results(body, "export_print_layout")[0]["path"]))


def _items(layout, kind):
    return [i for i in layout.items() if isinstance(i, kind)]


def _words(pdf: str) -> list[tuple[str, float, float, float, float]]:
    """Every word pdftotext finds on page 1, with its box in millimetres from the page's top left."""
    import re

    xml = subprocess.run(["pdftotext", "-f", "1", "-l", "1", "-bbox", pdf, "-"], capture_output=True, text=True,
                         check=True).stdout
    mm = 25.4 / 72
    return [(html_unescape(w), float(a) * mm, float(b) * mm, float(c) * mm, float(d) * mm) for a, b, c, d, w in
            re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', xml)]


def html_unescape(text: str) -> str:
    import html

    return html.unescape(text)


def _page_pixels(pdf: str, tmp_path) -> np.ndarray:
    """Page 1 rendered by pdftoppm at 10 px/mm, as lightness (0 black … 255 white)."""
    subprocess.run(["pdftoppm", "-f", "1", "-l", "1", "-r", str(DPI), "-gray", "-singlefile", pdf,
                    str(tmp_path / "page")], check=True)
    image = QImage(str(tmp_path / "page.pgm")).convertToFormat(QImage.Format.Format_Grayscale8)
    width, height, stride = image.width(), image.height(), image.bytesPerLine()
    data = np.frombuffer(image.constBits().asstring(stride * height), np.uint8).reshape(height, stride)
    return data[:, :width]


def _ink(pixels: np.ndarray, box) -> float:
    """The share of dark pixels inside a box given in millimetres."""
    x0, y0, x1, y1 = (int(round(v * 10)) for v in (box.left(), box.top(), box.right(), box.bottom()))
    part = pixels[max(0, y0):y1, max(0, x0):x1]
    return float((part < 160).mean()) if part.size else 0.0


def _first_segment_mm(pixels: np.ndarray, box) -> float:
    """The length of the scale bar's first (filled) segment: the most common long dark run in its rows."""
    from collections import Counter

    x0, y0, x1, y1 = (int(round(v * 10)) for v in (box.left(), box.top(), box.right(), box.bottom()))
    runs = Counter()
    for row in pixels[y0:y1, x0:x1] < 110:
        best = run = 0
        for dark in row:
            run = run + 1 if dark else 0
            best = max(best, run)
        if best > 20:
            runs[best] += 1
    return runs.most_common(1)[0][0] / 10.0


def test_a_map_of_the_ndvi_over_the_selected_parcels_for_the_client(client_plugin, emu, served, tmp_path):
    _api, world = served
    _parcel_layer, bbox = _parcels(world)
    _script(emu, bbox)
    send(client_plugin, "make a map of the NDVI over the selected parcels for the client")
    wait_turn(client_plugin, 90)

    exported = tool_results(emu.chat_requests()[-1], "export_print_layout")
    assert exported, [m.get("content") for m in emu.chat_requests()[-1]["messages"] if m.get("role") == "tool"]
    pdf = exported[0]["path"]
    assert pdf.startswith(str(client_plugin.runtime.profile_dir)) and pdf.endswith(".pdf")
    layout = QgsProject.instance().layoutManager().layoutByName("Client map")
    assert layout is not None  # in QGIS's Layout Manager, where the analyst edits it
    answer = client_plugin.runtime.panel.conversation.bubbles()[-1]
    assert answer.images() == [exported[0]["thumbnail_file"]]  # the page's thumbnail under the answer

    # what the client reads on the page
    words = _words(pdf)
    text = " ".join(w[0] for w in words)
    for expected in (TITLE, f"Mean NDVI on {DATES[0]}", "Legend", "parcels", "NDVI", "(nir − red) / (nir + red)",
                     "European Space Agency", f"A-{DATES[0]}", DATES[0], "CC-BY-4.0", "EPSG:3857"):
        assert expected in text, (expected, text)
    page = layout.pageCollection().page(0)
    width, height = page.pageSize().width(), page.pageSize().height()
    for word, x0, y0, x1, y1 in words:  # every word on the paper, none cut at its edge
        assert 3 <= x0 and x1 <= width - 3 and 3 <= y0 and y1 <= height - 3, (word, x0, y0, x1, y1)
    [main] = [m for m in _items(layout, QgsLayoutItemMap) if m.rect().width() == max(
        i.rect().width() for i in _items(layout, QgsLayoutItemMap))]
    map_box = main.sceneBoundingRect()
    legend_words = [w for w in words if w[0] in ("Legend", "parcels") and w[2] > map_box.top()]  # not the title
    assert legend_words and all(x0 > map_box.right() or y0 > map_box.bottom() for _w, x0, y0, _x1, _y1 in legend_words)

    pixels = _page_pixels(pdf, tmp_path)
    assert pixels.shape[1] > pixels.shape[0]  # landscape
    edge = 30  # 3 mm of white paper all round: nothing drawn off the page
    assert pixels[:edge].min() > 200 and pixels[-edge:].min() > 200
    assert pixels[:, :edge].min() > 200 and pixels[:, -edge:].min() > 200
    assert _ink(pixels, map_box.adjusted(5, 5, -5, -5)) > 0.1  # the NDVI drawn in the map, not a blank frame
    [arrow] = _items(layout, QgsLayoutItemPicture)
    [bar] = [b for b in _items(layout, QgsLayoutItemScaleBar) if b.style() != "Numeric"]
    [legend] = _items(layout, QgsLayoutItemLegend)
    for part in (arrow, bar, legend):
        box = part.sceneBoundingRect()
        assert _ink(pixels, box) > 0.01, type(part).__name__  # drawn on the page
        assert not box.intersects(map_box), type(part).__name__  # beside the map, not over it
    metres = bar.unitsPerSegment() * (1000 if bar.units() == QgsUnitTypes.DistanceKilometers else 1)
    expected_mm = metres / main.scale() * 1000
    assert abs(_first_segment_mm(pixels, bar.sceneBoundingRect()) - expected_mm) < 0.5

    # the chat as a report for the file: the question, the page made, and where the data came from
    emu.script(Turn(tool_calls=[("export_session_report", {"format": "pdf", "file_name": "../client report"})]),
               Turn(content="The report is written."))
    send(client_plugin, "make a report of this session")
    wait_turn(client_plugin, 60)
    [report] = tool_results(emu.chat_requests()[-1], "export_session_report")
    assert report["path"].startswith(str(client_plugin.runtime.profile_dir)) and report["path"].endswith(".pdf")
    assert "/../" not in report["path"] and report["pictures"] == 1  # the page's picture
    report_text = " ".join(subprocess.run(["pdftotext", report["path"], "-"], capture_output=True, text=True,
                                          check=True).stdout.split())
    for expected in ("make a map of the NDVI over the selected parcels for the client", "Provenance",
                     "compute_index", f"A-{DATES[0]}", COLLECTION, "make_print_layout", "The map is ready"):
        assert expected in report_text, (expected, report_text)
    images = subprocess.run(["pdfimages", "-list", report["path"]], capture_output=True, text=True,
                            check=True).stdout.strip().splitlines()
    assert len([line for line in images[2:] if line.split()[2] == "image"]) == 1  # the exported page's picture

    # saved, reopened, still the analyst's layout to edit
    path = tmp_path / "client.qgz"
    assert QgsProject.instance().write(str(path))
    QgsProject.instance().clear()
    assert QgsProject.instance().read(str(path))
    reopened = QgsProject.instance().layoutManager().layoutByName("Client map")
    assert reopened is not None
    assert len(_items(reopened, QgsLayoutItemLegend)) == 1 and len(_items(reopened, QgsLayoutItemScaleBar)) == 2  # bar and scale
    [title] = [lbl for lbl in _items(reopened, QgsLayoutItemLabel) if lbl.currentText() == TITLE]
    title.setText("NDVI of the parcels, March 2024")  # the analyst's own edit, exported by QGIS itself
    from qgis.core import QgsLayoutExporter

    edited = tmp_path / "edited.pdf"
    pdf_settings = QgsLayoutExporter.PdfExportSettings()
    pdf_settings.textRenderFormat = _always_text()  # QGIS 3.40's default writes outlines: no words to read back
    assert QgsLayoutExporter(reopened).exportToPdf(str(edited), pdf_settings) == QgsLayoutExporter.Success
    edited_text = subprocess.run(["pdftotext", str(edited), "-"], capture_output=True, text=True, check=True).stdout
    assert "NDVI of the parcels, March 2024" in edited_text


def _numpy_mean(tif: str, feature) -> float:
    """The index's mean over the pixels whose centre lies in the parcel, straight from the GeoTIFF."""
    from matplotlib.path import Path as MplPath
    from osgeo import gdal
    from qgis.core import QgsCoordinateTransform

    ds = gdal.Open(tif)
    values = ds.GetRasterBand(1).ReadAsArray().astype(np.float64)
    nodata = ds.GetRasterBand(1).GetNoDataValue()
    if nodata is not None:
        values[values == nodata] = np.nan
    gt = ds.GetGeoTransform()
    crs = QgsCoordinateReferenceSystem()
    crs.createFromWkt(ds.GetProjection())
    geometry = QgsGeometry(feature.geometry())
    geometry.transform(QgsCoordinateTransform(QgsCoordinateReferenceSystem("EPSG:4326"), crs, QgsProject.instance()))
    ring = [(p.x(), p.y()) for p in geometry.asPolygon()[0]]
    rows, cols = np.mgrid[0:values.shape[0], 0:values.shape[1]]
    x = gt[0] + (cols + 0.5) * gt[1]
    y = gt[3] + (rows + 0.5) * gt[5]
    inside = MplPath(ring).contains_points(np.column_stack([x.ravel(), y.ravel()])).reshape(values.shape)
    return float(np.nanmean(values[inside]))


def test_an_atlas_of_the_selected_parcels_has_one_page_each_with_its_own_ndvi(client_plugin, emu, served):
    import re

    _api, world = served
    parcels, _bbox = _parcels(world)
    emu.script(
        Turn(tool_calls=[("compute_index", {"index": "NDVI", "collection": COLLECTION, "datetime": DATES[0],
                                            "use_selected_features": True, "exact": True})]),
        lambda body: Turn(tool_calls=[("make_atlas", {
            "layer": "parcels", "title": "NDVI per parcel", "selected_only": True,
            "statistics_of": tool_results(body, "compute_index")[0]["layer"]})]),
        Turn(tool_calls=[("export_print_layout", {"name": "NDVI per parcel", "format": "pdf", "dpi": 96})]),
        Turn(content="One page per selected parcel."))
    send(client_plugin, "make an atlas of the selected parcels with their NDVI, one page each, for the client")
    wait_turn(client_plugin, 90)

    body = emu.chat_requests()[-1]
    [exported] = tool_results(body, "export_print_layout")
    layout = QgsProject.instance().layoutManager().layoutByName("NDVI per parcel")
    assert layout is not None and layout.atlas().enabled()
    text = subprocess.run(["pdftotext", "-layout", exported["path"], "-"], capture_output=True, text=True,
                          check=True).stdout
    pages = [p for p in text.split("\f") if p.strip()]
    assert len(pages) == 2  # the two selected parcels, not the third
    tif = tool_results(body, "compute_index")[0]["file"]
    means = {}
    for feature in parcels.getFeatures():
        [page] = [p for p in pages if feature["name"] in p] or [None]
        if feature["name"] == "Parcel 1":
            assert page is None
            continue
        assert "NDVI per parcel" in page
        printed = float(re.search(r"NDVI \S+: mean (-?[\d.]+)", page).group(1))
        means[feature["name"]] = printed
        assert printed == pytest.approx(_numpy_mean(tif, feature), abs=0.01), feature["name"]
    assert abs(means["Parcel 2"] - means["Parcel 3"]) > 0.005  # each page its own number


def test_an_animation_of_the_ndvi_dates_gives_dated_frames_a_gif_and_an_mp4(client_plugin, emu, served, qgis_iface):
    import shutil

    from PIL import Image

    from testkit.qgis_drivers.analyst_view import show_lonlat

    _api, world = served
    _parcel_layer, bbox = _parcels(world)
    qgis_iface.mapCanvas().resize(800, 600)
    show_lonlat(qgis_iface, bbox)
    turns = [Turn(tool_calls=[("compute_index", {"index": "NDVI", "collection": COLLECTION, "datetime": date,
                                                 "item_id": f"A-{date}"})]) for date in DATES[:2]]
    emu.script(*turns,
               lambda body: Turn(tool_calls=[("export_animation", {
                   "layers": [r["layer"] for r in tool_results(body, "compute_index")], "name": "ndvi spring"})]),
               Turn(content="The animation is ready."))
    send(client_plugin, "animate the NDVI of March and April over the parcels")
    wait_turn(client_plugin, 120)

    [animation] = tool_results(emu.chat_requests()[-1], "export_animation")
    assert [d[:10] for d in animation["dates"]] == list(DATES[:2])  # one frame per date, in order
    frames = [Image.open(path).convert("RGB") for path in animation["frames"]]
    assert len(frames) == 2 and frames[0].tobytes() != frames[1].tobytes()  # each date its own picture
    with Image.open(animation["gif"]) as gif:
        assert gif.n_frames == 2
    if shutil.which("ffmpeg"):
        assert animation["mp4"] and animation["mp4"].startswith(str(client_plugin.runtime.profile_dir))
    else:
        assert animation["mp4"] is None and "ffmpeg is not installed" in animation["mp4_note"]
    answer = client_plugin.runtime.panel.conversation.bubbles()[-1]
    assert answer.images() == [animation["thumbnail_file"]]
