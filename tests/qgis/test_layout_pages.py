"""Issue 42, the page: pages made through the real MCP tools in a Lambert-93 project (the demo catalog's elevation
and NDVI read through STAC, an elevation file a Processing step left in QGIS's default grey, the client's parcels
of very different sizes), exported to PDF and judged as the client judges them: read with pdftotext -bbox and
rendered with pdftoppm. Every atlas page's scale bar is measured against the scale printed on that page, the
atlas line must not be cut, the parcels' outlines must be seen over the rasters, a portrait page has an inset
with context, the legend speaks the client's language, a grey elevation is drawn as an elevation, and the
atlas line names the parcel."""

from __future__ import annotations

import re
import shutil

import httpx
import numpy as np
import pytest
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsFeature,
    QgsFillSymbol,
    QgsGeometry,
    QgsLayoutItemMap,
    QgsPointXY,
    QgsProject,
    QgsRasterLayer,
    QgsSingleSymbolRenderer,
    QgsVectorLayer,
)

from stacgis_agent.agent.config import DEMO_CATALOG
from stacgis_agent.tools.server import build_server
from testkit.qgis_drivers.printed_pages import read_pdf, scale_bar
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient

assert shutil.which("pdftotext") and shutil.which("pdftoppm"), "poppler-utils is missing"

ELEVATION_TIF = DEMO_CATALOG.parent / "collections" / "demo-elevation" / "items" / "demo-elevation-lyon.tif"
# name, west, south, size in degrees of longitude: a garden (~150 m), a field (~800 m), an estate (~3 km)
PARCELS = (("Garden plot", 4.812, 45.752, 0.002), ("North field", 4.835, 45.742, 0.010),
           ("Valley estate", 4.806, 45.740, 0.038))
STATS_LAYER = "NDVI of the selected parcels in June 2025 over the whole season as measured"
OUTLINE = (227, 26, 28)  # the page's own parcel


@pytest.fixture
async def world(qgis_iface, qgis_new_project, tmp_path):
    """The client's project: Lambert-93, STAC elevation and NDVI, a grey elevation file, the parcels on top of
    the project's order nowhere (they were loaded first, the rasters after)."""
    project = QgsProject.instance()
    project.setCrs(QgsCoordinateReferenceSystem("EPSG:2154"))
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, str(DEMO_CATALOG), str(tmp_path / "out"), qgis_iface)
        one = OneShotClient(build_server(deps, canvas=True))
        parcels = _parcels()
        for collection, item in (("demo-ndvi", "demo-ndvi-2025-06-15"), ("demo-elevation", "demo-elevation-lyon")):
            loaded = await one.call_tool("load_stac_asset", {"collection": collection, "item_id": item})
            assert not loaded.is_error, loaded.content[0].text
        grey = _grey_elevation(tmp_path)
        yield one, deps, parcels, grey
    project.layoutManager().clear()
    project.removeAllMapLayers()


def _parcels() -> QgsVectorLayer:
    layer = QgsVectorLayer("Polygon?crs=EPSG:4326&field=fid:integer&field=name:string&field=ndvi_mean:double"
                           "&field=area_ha:double", "parcels", "memory")
    features = []
    for number, (name, west, south, size) in enumerate(PARCELS, start=1):
        feature = QgsFeature(layer.fields())
        feature.setAttributes([number, name, 0.2 + number / 10, round(size * size * 8.6e5, 2)])
        ring = [QgsPointXY(west, south), QgsPointXY(west + size, south + size * 0.1),
                QgsPointXY(west + size * 0.9, south + size * 0.8), QgsPointXY(west - size * 0.1, south + size * 0.7)]
        feature.setGeometry(QgsGeometry.fromPolygonXY([ring]))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    magenta = QgsFillSymbol.createSimple({"color": "120,160,200", "outline_color": "#ff00ff", "outline_width": "0.6"})
    layer.setRenderer(QgsSingleSymbolRenderer(magenta))
    QgsProject.instance().addMapLayer(layer)  # first: the rasters loaded later lie above it in the project
    return layer


def _grey_elevation(tmp_path) -> QgsRasterLayer:
    """An elevation a Processing step wrote: its band says "elevation" in metres; QGIS shows it in grey."""
    from osgeo import gdal

    path = tmp_path / "dem_clip.tif"
    gdal.Translate(str(path), str(ELEVATION_TIF))
    dataset = gdal.Open(str(path), gdal.GA_Update)
    dataset.GetRasterBand(1).SetDescription("elevation")
    dataset.GetRasterBand(1).SetUnitType("metre")
    dataset = None
    layer = QgsRasterLayer(str(path), "Clipped DEM", "gdal")
    assert layer.renderer().type() == "singlebandgray"
    QgsProject.instance().addMapLayer(layer)
    return layer


def _main_map(layout) -> QgsLayoutItemMap:
    return max((i for i in layout.items() if isinstance(i, QgsLayoutItemMap)), key=lambda m: m.rect().width())


async def _atlas_pdf(one, **extra) -> tuple[str, object]:
    made = await one.call_tool("make_atlas", {"layer": "parcels", "title": "NDVI per parcel", **extra})
    assert not made.is_error, made.content[0].text
    exported = await one.call_tool("export_print_layout", {"name": "NDVI per parcel", "format": "pdf", "dpi": 100})
    assert not exported.is_error, exported.content[0].text
    return exported.structured_content["path"], QgsProject.instance().layoutManager().layoutByName("NDVI per parcel")


async def test_every_atlas_page_has_a_scale_bar_of_its_own_scale_that_fits_the_page(world):
    one, _deps, _parcels, _grey = world
    pdf, layout = await _atlas_pdf(one)
    box = _main_map(layout).sceneBoundingRect()
    pages = read_pdf(pdf)
    assert len(pages) == len(PARCELS)
    scales = []
    for page in pages:
        scale = page.scale()
        bar = scale_bar(page, below_mm=box.bottom())
        expected_mm = bar.ground_m / scale * 1000
        assert abs(bar.length_mm - expected_mm) < 0.6, (page.number, bar.length_mm, expected_mm, page.text)
        assert bar.labels[0].text == "0" and float(bar.labels[-1].text) > 0
        assert 15 <= bar.length_mm <= 65, (page.number, bar.length_mm)  # a readable bar, well inside the map's width
        assert bar.right <= box.right() and bar.right <= page.width - 5, (page.number, bar.right)
        scales.append(scale)
    assert len(set(scales)) == len(PARCELS)  # a garden, a field and an estate: three scales, three bars


async def test_the_atlas_line_grows_to_hold_its_longest_page(world):
    one, _deps, _parcels, _grey = world
    ndvi = next(lyr for lyr in QgsProject.instance().mapLayers().values() if lyr.name().startswith("demo-ndvi"))
    ndvi.setName(STATS_LAYER)  # a long name: the statistics line wraps
    pdf, layout = await _atlas_pdf(one, statistics_of=STATS_LAYER)
    box = _main_map(layout).sceneBoundingRect()
    top_of_map = box.top()
    for page in read_pdf(pdf):
        title_foot = max(w.bottom for w in page.words if w.text == "parcel")
        line = [w for w in page.words if title_foot < w.top < top_of_map + 30  # the line, and what it would hide
                and (w.top < top_of_map or w.left < box.right())]  # the panel beside the map is not the line
        said = " ".join(w.text for w in line)
        assert "pixels)" in said, said
        cut = [w.text for w in line if w.bottom > top_of_map - 0.2]
        assert not cut, (page.number, cut, said)  # every word of the line above the map, none under its frame


def _page_px(box, extent, dpi):
    """Map coordinates → pixels of the rendered page, for the map item `box` (mm) showing `extent`."""
    px = dpi / 25.4

    def to_px(x: float, y: float) -> tuple[int, int]:
        u = box.left() + (x - extent.xMinimum()) / extent.width() * box.width()
        v = box.top() + (extent.yMaximum() - y) / extent.height() * box.height()
        return int(round(u * px)), int(round(v * px))
    return to_px


def _edge_points(geometry, extent) -> list[tuple[float, float]]:
    """Points along the polygon's edges that the map shows."""
    ring = geometry.asPolygon()[0]
    points = []
    for a, b in zip(ring, ring[1:]):
        for t in (0.3, 0.5, 0.7):
            x, y = a.x() + (b.x() - a.x()) * t, a.y() + (b.y() - a.y()) * t
            if extent.contains(QgsPointXY(x, y)):
                points.append((x, y))
    return points


def _coloured_near(pixels, u, v, colour, tolerance=60, reach=3) -> bool:
    patch = pixels[max(0, v - reach): v + reach + 1, max(0, u - reach): u + reach + 1].astype(int)
    return bool((np.abs(patch - np.array(colour)).sum(axis=2) < tolerance).any())


async def test_every_atlas_page_shows_its_own_parcel_outline_over_the_rasters(world):
    one, _deps, parcels, _grey = world
    pdf, layout = await _atlas_pdf(one)
    main = _main_map(layout)
    box = main.sceneBoundingRect()
    to_project = QgsCoordinateTransform(parcels.crs(), QgsProject.instance().crs(), QgsProject.instance())
    atlas = layout.atlas()  # each page's map as the export drew it (its scales are still set on the layout)
    atlas.beginRender()
    try:
        for page in read_pdf(pdf):
            atlas.seekTo(page.number - 1)
            extent = main.extent()
            geometry = QgsGeometry(layout.reportContext().feature().geometry())
            geometry.transform(to_project)
            pixels = page.pixels(100)
            to_px = _page_px(box, extent, 100)
            points = _edge_points(geometry, extent)
            assert points, page.number
            seen = sum(_coloured_near(pixels, *to_px(x, y), OUTLINE) for x, y in points)
            assert seen >= 0.8 * len(points), (page.number, seen, len(points))
    finally:
        atlas.endRender()


async def test_outlines_are_drawn_over_the_rasters_on_a_page(world, tmp_path):
    one, _deps, parcels, grey = world
    made = await one.call_tool("make_print_layout", {"title": "Parcels", "bbox": [4.80, 45.735, 4.86, 45.78]})
    assert not made.is_error, made.content[0].text
    exported = await one.call_tool("export_print_layout", {"name": "Parcels", "format": "pdf", "dpi": 100})
    [page] = read_pdf(exported.structured_content["path"])
    main = _main_map(QgsProject.instance().layoutManager().layoutByName("Parcels"))
    to_project = QgsCoordinateTransform(parcels.crs(), QgsProject.instance().crs(), QgsProject.instance())
    pixels = page.pixels(100)
    to_px = _page_px(main.sceneBoundingRect(), main.extent(), 100)
    for feature in parcels.getFeatures():
        geometry = QgsGeometry(feature.geometry())
        geometry.transform(to_project)
        points = _edge_points(geometry, main.extent())
        seen = sum(_coloured_near(pixels, *to_px(x, y), (255, 0, 255)) for x, y in points)
        assert points and seen >= 0.8 * len(points), (feature["name"], seen, len(points))
        centre = geometry.centroid().asPoint()  # the fill does not hide the rasters inside the parcel
        assert not _coloured_near(pixels, *to_px(centre.x(), centre.y()), (120, 160, 200), tolerance=20), feature["name"]
    order = [n.layer() for n in QgsProject.instance().layerTreeRoot().findLayers()]
    assert order.index(parcels) > order.index(grey)  # the project's own order is kept: only the page draws it on top


async def test_a_portrait_page_of_a_small_area_has_an_inset_with_context(world):
    one, _deps, _parcels, _grey = world
    made = await one.call_tool("make_print_layout", {"title": "Parcels", "orientation": "portrait",
                                                     "bbox": [4.80, 45.735, 4.86, 45.78]})
    assert not made.is_error, made.content[0].text
    assert made.structured_content["overview"]
    layout = QgsProject.instance().layoutManager().layoutByName("Parcels")
    maps = sorted((i for i in layout.items() if isinstance(i, QgsLayoutItemMap)), key=lambda m: -m.rect().width())
    assert len(maps) == 2
    inset = maps[1].sceneBoundingRect()
    exported = await one.call_tool("export_print_layout", {"name": "Parcels", "format": "pdf", "dpi": 100})
    [page] = read_pdf(exported.structured_content["path"])
    names = [w.text for w in page.words if inset.contains(w.left, w.top)]
    assert "Rhône" in names, names  # the département around the map, named: the client knows where this is
    pixels = page.pixels(100)
    px = 100 / 25.4
    inside = pixels[int(inset.top() * px) + 3: int(inset.bottom() * px) - 3,
                    int(inset.left() * px) + 3: int(inset.right() * px) - 3].reshape(-1, 3).astype(int)
    red = (np.abs(inside - np.array(OUTLINE)).sum(axis=1) < 60).sum()
    assert red > 20  # the main map's frame drawn on the inset
    assert len({tuple(p // 16) for p in inside}) > 4  # not a dot in an empty box


async def test_the_legend_names_each_layer_once_with_its_unit_and_round_labels(world):
    one, _deps, _parcels, _grey = world
    made = await one.call_tool("make_print_layout", {"title": "Elevation and NDVI",
                                                     "bbox": [4.80, 45.735, 4.86, 45.78]})
    assert not made.is_error, made.content[0].text
    exported = await one.call_tool("export_print_layout", {"name": "Elevation and NDVI", "format": "pdf",
                                                           "dpi": 100})
    [page] = read_pdf(exported.structured_content["path"])
    text = page.text
    assert "Band" not in text and "(Gray)" not in text, text
    assert not re.search(r"\d\.\d{4,}", text), text  # no "0.793500", no "154.044952"
    assert re.search(r"\b\d{3} m\b", text), text  # the elevation's unit from its STAC item and from its file
    assert text.count("demo-elevation-lyon") == 2, text  # its legend title once, and the credits


async def test_a_grey_elevation_on_a_page_gets_a_hypsometric_ramp_and_an_analysts_style_stays(world):
    one, _deps, _parcels, grey = world
    stac_elevation = next(lyr for lyr in QgsProject.instance().mapLayers().values()
                          if lyr.name().startswith("demo-elevation"))
    from stacgis_agent.tools.canvas.layers.raster_styles import pseudocolor

    pseudocolor(stac_elevation, 1, 100, 600, "Blues")  # the analyst's own choice
    chosen = stac_elevation.renderer().shader().rasterShaderFunction().colorRampItemList()[0].color.name()
    made = await one.call_tool("make_print_layout", {"title": "Relief", "bbox": [4.80, 45.735, 4.86, 45.78]})
    assert not made.is_error, made.content[0].text
    assert grey.renderer().type() == "singlebandpseudocolor"
    assert any("Clipped DEM" in words and "elevation" in words for words in made.structured_content["restyled"])
    shader = grey.renderer().shader().rasterShaderFunction()
    assert shader.legendSettings().suffix().strip() == "m"
    colours = {item.color.name() for item in shader.colorRampItemList()}
    assert len(colours) > 3 and any(c[1:3] != c[3:5] for c in colours)  # a ramp of colours, not greys
    kept = stac_elevation.renderer().shader().rasterShaderFunction().colorRampItemList()[0].color.name()
    assert kept == chosen  # the layer the analyst styled keeps its style


async def test_the_atlas_line_names_the_parcel_and_its_useful_numbers_not_its_id(world):
    one, _deps, _parcels, _grey = world
    pdf, _layout = await _atlas_pdf(one)
    pages = read_pdf(pdf)
    for page, (name, *_rest) in zip(pages, PARCELS):
        assert name in page.text, page.text
        assert "fid" not in page.text and "1.000" not in page.text, page.text
        assert "ndvi_mean:" in page.text and "area_ha:" in page.text
