"""Canvas tools through the MCP client on the real QGIS canvas: zoom (also after a CRS change), styles,
basemap/background, panels, and the rendered map view."""

from __future__ import annotations

import base64

import httpx
import numpy as np
import pytest
from qgis.core import (
    QgsCategorizedSymbolRenderer,
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsGraduatedSymbolRenderer,
    QgsHillshadeRenderer,
    QgsPointXY,
    QgsProject,
    QgsRasterLayer,
    QgsSingleBandPseudoColorRenderer,
)
from qgis.PyQt.QtCore import QSize
from qgis.PyQt.QtGui import QImage
from qgis.PyQt.QtWidgets import QDockWidget

from stacgis_agent.tools.server import build_server
from stacgis_agent.ui.activity_feed import ActivityFeed
from testkit.qgis_drivers.canvas_layers import city_layer, dem_layer
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient
from testkit.worlds.cogs import write_cog


@pytest.fixture
async def view(qgis_iface, qgis_new_project, tmp_path):
    canvas = qgis_iface.mapCanvas()
    canvas.resize(QSize(600, 400))
    canvas.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    QgsProject.instance().setCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    cities, dem = city_layer(), dem_layer(tmp_path)
    QgsProject.instance().addMapLayers([cities, dem])
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, None, str(tmp_path / "out"), qgis_iface)
        yield OneShotClient(build_server(deps, canvas=True)), canvas, cities, dem, deps
    QgsProject.instance().removeAllMapLayers()


def _point_in_canvas_crs(canvas, lon, lat):
    to_canvas = QgsCoordinateTransform(QgsCoordinateReferenceSystem("EPSG:4326"), canvas.mapSettings().destinationCrs(),
                                       QgsProject.instance())
    return to_canvas.transform(QgsPointXY(lon, lat))


async def test_zoom_to_lonlat_at_a_scale_after_a_crs_change(view):
    client, canvas, cities, *_ = view
    canvas.setExtent(cities.extent())
    result = await client.call_tool("set_map_style", {"crs": "EPSG:3857"})
    assert not result.is_error, result.content[0].text
    assert canvas.mapSettings().destinationCrs().authid() == "EPSG:3857"
    assert canvas.extent().contains(_point_in_canvas_crs(canvas, 5.724, 45.188))  # same place, now in metres
    assert QgsProject.instance().crs().authid() == "EPSG:3857"
    result = await client.call_tool("zoom_to_location", {"lon": 6.143, "lat": 46.204, "scale": 25000})
    assert not result.is_error, result.content[0].text
    point = _point_in_canvas_crs(canvas, 6.143, 46.204)
    assert canvas.extent().contains(point)
    assert canvas.extent().center().distance(point) < 1.0  # metres in EPSG:3857
    assert canvas.scale() == pytest.approx(25000, rel=0.01)
    assert result.structured_content["crs"] == "EPSG:3857"


async def test_zoom_to_bbox_layer_feature_and_place(view):
    client, canvas, cities, *_ = view
    await client.call_tool("zoom_to_location", {"bbox": [5.5, 45.0, 6.0, 45.5]})
    extent = canvas.extent()
    assert extent.contains(QgsPointXY(5.5, 45.0)) and extent.contains(QgsPointXY(6.0, 45.5))
    assert min(extent.width(), extent.height()) < 0.6  # fitted to the bbox, widened only to the canvas shape
    await client.call_tool("zoom_to_location", {"layer": "cities"})
    assert all(canvas.extent().contains(f.geometry().asPoint()) for f in cities.getFeatures())
    result = await client.call_tool("zoom_to_location", {"place": "turin", "scale": 50000})
    assert not result.is_error, result.content[0].text
    assert canvas.extent().contains(QgsPointXY(7.686, 45.070)) and not canvas.extent().contains(QgsPointXY(4.835, 45.764))
    assert canvas.scale() == pytest.approx(50000, rel=0.01)
    missing = await client.call_tool("zoom_to_location", {"place": "Xyzzyville"})
    assert missing.is_error and "lon/lat or a bbox" in missing.content[0].text


async def test_vector_styles_change_the_renderer_classes_and_labels(view):
    client, _canvas, cities, *_ = view
    result = await client.call_tool("set_layer_style", {"layer": "cities", "renderer": "categorized", "field": "country",
                                                        "ramp": "Spectral"})
    assert not result.is_error, result.content[0].text
    renderer = cities.renderer()
    assert isinstance(renderer, QgsCategorizedSymbolRenderer)
    assert sorted(c.value() for c in renderer.categories()) == ["CH", "FR", "IT"]
    colours = {c.symbol().color().name() for c in renderer.categories()}
    assert len(colours) == 3
    await client.call_tool("set_layer_style", {"layer": "cities", "renderer": "graduated", "field": "population",
                                               "classes": 3, "labels_field": "name"})
    renderer = cities.renderer()
    assert isinstance(renderer, QgsGraduatedSymbolRenderer) and renderer.classAttribute() == "population"
    assert len(renderer.ranges()) == 3
    assert renderer.ranges()[0].lowerValue() == 130_000 and renderer.ranges()[-1].upperValue() == 848_000
    assert cities.labelsEnabled() and cities.labeling().settings().fieldName == "name"
    bad = await client.call_tool("set_layer_style", {"layer": "cities", "renderer": "categorized", "field": "nope"})
    assert bad.is_error and "country" in bad.content[0].text


async def test_raster_styles_ramp_minmax_opacity_and_hillshade(view):
    client, _canvas, _cities, dem, _deps = view
    result = await client.call_tool("set_layer_style", {"layer": "dem", "ramp": "Greys", "minimum": 80, "maximum": 150,
                                                        "opacity": 0.5})
    assert not result.is_error, result.content[0].text
    renderer = dem.renderer()
    assert isinstance(renderer, QgsSingleBandPseudoColorRenderer)
    assert (renderer.classificationMin(), renderer.classificationMax()) == (80, 150)
    stops = renderer.shader().rasterShaderFunction().colorRampItemList()
    assert stops[0].value == 80 and stops[-1].value == 150 and stops[0].color.name() != stops[-1].color.name()
    assert dem.opacity() == 0.5
    await client.call_tool("set_layer_style", {"layer": "dem", "hillshade": True})
    assert isinstance(dem.renderer(), QgsHillshadeRenderer)
    unknown = await client.call_tool("set_layer_style", {"layer": "dem", "ramp": "NoSuchRamp"})
    assert unknown.is_error and "Viridis" in unknown.content[0].text


async def test_basemap_and_background(view):
    client, canvas, *_ = view
    result = await client.call_tool("set_map_style", {"basemap": "OpenStreetMap", "background": "#112233"})
    assert not result.is_error, result.content[0].text
    root = QgsProject.instance().layerTreeRoot()
    bottom = root.findLayers()[-1].layer()
    assert bottom.name() == "OpenStreetMap" and bottom.providerType() == "wms"
    assert "tile.openstreetmap.org" in bottom.source()
    assert canvas.canvasColor().name() == "#112233"
    await client.call_tool("set_map_style", {"basemap": "none"})
    assert [lyr.name() for lyr in QgsProject.instance().mapLayers().values() if lyr.providerType() == "wms"] == []


async def test_toggle_panels_and_activity_feed(view, qgis_iface):
    client, *_ = view
    window = qgis_iface.mainWindow()
    layers_dock = QDockWidget("Layers", window)
    layers_dock.setObjectName("Layers")
    window.addDockWidget(1, layers_dock)
    window.show()
    layers_dock.show()
    try:
        result = await client.call_tool("toggle_ui_panel", {"panel": "layers", "visible": False})
        assert not result.is_error and not layers_dock.isVisible()
        await client.call_tool("toggle_ui_panel", {"panel": "layers"})
        assert layers_dock.isVisible()
        missing = await client.call_tool("toggle_ui_panel", {"panel": "browser"})
        assert missing.is_error and "not available" in missing.content[0].text
        feed = ActivityFeed(window)  # the agent's own activity feed, wherever the dock put it
        feed.show()
        await client.call_tool("toggle_ui_panel", {"panel": "activity feed", "visible": False})
        assert not feed.isVisible()
        feed.deleteLater()
    finally:
        window.removeDockWidget(layers_dock)
        layers_dock.deleteLater()
        window.hide()


async def test_map_view_renders_the_canvas_to_a_png(view):
    client, canvas, _cities, dem, deps = view
    canvas.setLayers([dem])
    canvas.setExtent(dem.extent())
    await client.call_tool("set_layer_style", {"layer": "dem", "ramp": "Greys", "minimum": 60, "maximum": 170})
    result = await client.call_tool("get_map_view", {"width": 300})
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    assert data["visible_layers"] == ["dem"] and data["size"][0] == 300
    image = QImage()
    assert image.loadFromData(base64.b64decode(result.content[-1].data), "PNG")
    assert image.width() == 300
    pixels = {image.pixelColor(x, image.height() // 2).name() for x in range(10, 290, 20)}
    assert len(pixels) > 3  # a grey ramp over a smooth surface, not a blank image
    assert QImage(data["png_file"]).size() == image.size()
    assert np.isclose(data["scale"], canvas.scale(), rtol=1e-3)


async def test_band_combination_on_a_multiband_raster(view, tmp_path):
    client, *_ = view
    bands = np.stack([np.full((50, 50), v, np.uint16) + np.arange(50, dtype=np.uint16) for v in (100, 400, 900, 1600)])
    path = write_cog(tmp_path / "four.tif", bands, origin=(5.0, 46.0), pixel_size=0.01)
    layer = QgsRasterLayer(str(path), "four bands", "gdal")
    QgsProject.instance().addMapLayer(layer)
    result = await client.call_tool("set_layer_style", {"layer": "four bands", "rgb_bands": [4, 3, 2]})
    assert not result.is_error, result.content[0].text
    renderer = layer.renderer()
    assert (renderer.redBand(), renderer.greenBand(), renderer.blueBand()) == (4, 3, 2)
    red = renderer.redContrastEnhancement()
    assert 1600 <= red.minimumValue() < red.maximumValue() <= 1650  # stretched on band 4's own values
    bad = await client.call_tool("set_layer_style", {"layer": "four bands", "rgb_bands": [5, 3, 2]})
    assert bad.is_error and "bands 1..4" in bad.content[0].text
