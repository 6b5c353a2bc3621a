"""Issue 46.1: the agent looks at its map. With a model Ollama says can see ("vision" in /api/show), the scripted
model asks for the map picture and the picture in its next request is the canvas, pixel for pixel as QGIS renders
it; the activity feed shows the picture the model was sent. A model that cannot see gets no picture, only what can
be measured: which layers paint how much of the view, and a layer that draws nothing there."""

from __future__ import annotations

import base64

import numpy as np
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsFillSymbol,
    QgsGeometry,
    QgsMapRendererSequentialJob,
    QgsMapSettings,
    QgsProject,
    QgsRectangle,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QSize
from qgis.PyQt.QtGui import QImage
from qgis.PyQt.QtWidgets import QLabel

from testkit.llm.ollama_emulator import Turn
from testkit.llm.reactive_emulator import parse_tool_text, tool_messages
from testkit.qgis_drivers.plugin_driver import send, wait_turn
from testkit.qgis_drivers.screen_checks import save_shot, show_dock_at

VISION_MODEL = "qwen2.5vl:7b"


def parcels() -> QgsVectorLayer:
    layer = QgsVectorLayer("Polygon?crs=EPSG:4326", "parcels", "memory")
    features = []
    for i, (x, y) in enumerate([(4.80, 45.74), (4.84, 45.76), (4.86, 45.73)]):
        feature = QgsFeature(layer.fields())
        feature.setGeometry(QgsGeometry.fromRect(QgsRectangle(x, y, x + 0.015 + i * 0.005, y + 0.012)))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    layer.updateExtents()
    layer.setRenderer(layer.renderer().clone())
    layer.renderer().setSymbol(QgsFillSymbol.createSimple({"color": "30,120,200,255", "outline_color": "black"}))
    return layer


def far_away() -> QgsVectorLayer:
    layer = QgsVectorLayer("Polygon?crs=EPSG:4326", "far away", "memory")
    feature = QgsFeature(layer.fields())
    feature.setGeometry(QgsGeometry.fromRect(QgsRectangle(10.0, 50.0, 10.1, 50.1)))
    layer.dataProvider().addFeatures([feature])
    layer.updateExtents()
    return layer


def show(iface, *layers) -> None:
    QgsProject.instance().addMapLayers(list(layers))
    canvas = iface.mapCanvas()
    canvas.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    canvas.setLayers(list(layers))
    canvas.setExtent(QgsRectangle(4.78, 45.71, 4.90, 45.79))
    canvas.refresh()


def canvas_as_qgis_draws_it(canvas, width: int, height: int) -> np.ndarray:
    """The canvas's own map settings (layers, extent, CRS, dpi, background) drawn by QGIS's sequential renderer."""
    settings = QgsMapSettings(canvas.mapSettings())
    settings.setOutputSize(QSize(width, height))
    settings.setExtent(canvas.extent())
    job = QgsMapRendererSequentialJob(settings)
    job.start()
    job.waitForFinished()
    return pixels(job.renderedImage())


def pixels(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_RGBA8888)
    ptr = image.constBits()
    ptr.setsize(image.sizeInBytes())
    rows = np.frombuffer(ptr, np.uint8).reshape(image.height(), image.bytesPerLine())
    return rows[:, : image.width() * 4].reshape(image.height(), image.width(), 4).copy()


def test_a_model_that_can_see_is_sent_the_canvas_and_the_feed_shows_it(make_plugin, emu, qgis_iface):
    emu.add_model(VISION_MODEL, ("completion", "tools", "vision"), 32768)
    plugin = make_plugin(chat_model=VISION_MODEL)
    show(qgis_iface, parcels())
    show_dock_at(plugin, 320)
    emu.script(Turn(tool_calls=[("get_map_view", {"width": 400})]),
               Turn(content="The three parcels show in blue in the middle of the map."))
    send(plugin, "Show me the parcels and check the map")
    wait_turn(plugin, 60)

    sent = tool_messages(emu.chat_requests()[1], "get_map_view")[-1]
    picture = QImage()
    assert picture.loadFromData(base64.b64decode(sent["images"][0]), "PNG")
    expected = canvas_as_qgis_draws_it(qgis_iface.mapCanvas(), picture.width(), picture.height())
    seen = pixels(picture)
    assert seen.shape == expected.shape and picture.width() == 400
    same = np.all(np.abs(seen.astype(int) - expected.astype(int)) <= 2, axis=-1).mean()
    assert same > 0.995, f"only {same:.3%} of the pixels match the canvas"
    blue = np.all(seen[..., :3] == (30, 120, 200), axis=-1).mean()
    assert 0.01 < blue < 0.5  # the parcels are drawn, not a blank picture

    data = parse_tool_text(sent["content"])
    assert data["picture_for_model"] is True and "look at it" in sent["content"]
    thumbnails = [w for w in plugin.runtime.panel.feed.findChildren(QLabel) if w.pixmap() and not w.pixmap().isNull()]
    assert len(thumbnails) == 1 and thumbnails[0].pixmap().width() == 200
    assert thumbnails[0].toolTip().endswith(data["png_file"])
    save_shot(plugin, "map-picture")
    show_dock_at(plugin, 720)
    save_shot(plugin, "map-picture")


def test_a_model_that_cannot_see_gets_the_measurements_and_no_picture(plugin, emu, qgis_iface):
    show(qgis_iface, parcels(), far_away())
    emu.script(Turn(tool_calls=[("get_map_view", {})]), Turn(content="'far away' is not in view."))
    send(plugin, "Is everything on the map?")
    wait_turn(plugin, 60)

    sent = tool_messages(emu.chat_requests()[1], "get_map_view")[-1]
    assert "images" not in sent
    data = parse_tool_text(sent["content"])
    rows = {row["name"]: row for row in data["layers"]}
    assert data["picture_for_model"] is False and data["empty"] is False
    assert 0.01 < rows["parcels"]["paints"] < 0.5 and rows["parcels"]["extent_in_view"] == 1.0
    assert rows["far away"]["paints"] == 0 and rows["far away"]["extent_in_view"] == 0
    assert "'far away' draws nothing in this view" in sent["content"] and "No picture is attached" in sent["content"]
    thumbnails = [w for w in plugin.runtime.panel.feed.findChildren(QLabel) if w.pixmap() and not w.pixmap().isNull()]
    assert thumbnails == []
