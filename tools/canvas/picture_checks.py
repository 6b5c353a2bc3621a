"""What can be measured in a rendered picture without looking at it: whether anything but the background was
drawn, and how much of the view each layer paints (each layer rendered alone on a transparent background by
QGIS's render threads, the canvas's own settings otherwise). Pixels are counted in a worker thread: a QImage is
handed over (Qt's images may be read from any thread), numbers come back."""

from __future__ import annotations

import asyncio
import base64
from typing import Any

import numpy as np
from qgis.core import QgsCoordinateTransform, QgsMapRendererParallelJob, QgsMapSettings
from qgis.PyQt.QtCore import QBuffer, QByteArray, QIODevice, QSize
from qgis.PyQt.QtGui import QColor, QImage

from .project_access import wait_for_qt

MEASURED_LAYERS = 12  # layers rendered alone to see what each paints; more are listed without a share
MEASURE_WIDTH = 192  # pixels across the small per-layer renders: enough to tell "nothing" from "a little"
RENDER_TIMEOUT_S = 60.0
NO_PICTURE = ("No picture is attached (this model cannot see images): judge from these measurements whether what "
              "you made shows as intended before you answer.")


def encode_png(image: QImage, path: str) -> str:
    """Writes `image` to `path` as PNG and returns the same PNG as base64 (what the model is sent); any thread."""
    image.save(path, "PNG")
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return base64.b64encode(bytes(data)).decode("ascii")


def rgba_pixels(image: QImage) -> np.ndarray:
    """rows × cols × 4 (uint8, RGBA, not premultiplied) of `image`; any thread."""
    image = image.convertToFormat(QImage.Format.Format_RGBA8888)
    ptr = image.constBits()
    ptr.setsize(image.sizeInBytes())
    rows = np.frombuffer(ptr, np.uint8).reshape(image.height(), image.bytesPerLine())
    return rows[:, : image.width() * 4].reshape(image.height(), image.width(), 4).copy()


def painted_share(pixels: np.ndarray, background: tuple[int, int, int, int] | None = None) -> float:
    """Share of the pixels that differ from `background` (None: that are not fully transparent)."""
    if pixels.size == 0:
        return 0.0
    if background is None:
        painted = pixels[..., 3] > 0
    else:
        painted = np.any(pixels != np.array(background, np.uint8), axis=-1)
    return float(painted.mean())


async def render(settings: QgsMapSettings) -> QImage:
    """The picture `settings` describe, drawn by QGIS's render threads; awaited without blocking the GUI thread."""
    job = QgsMapRendererParallelJob(settings)
    finished = []
    job.finished.connect(lambda: finished.append(True))
    job.start()
    try:
        await wait_for_qt(lambda: bool(finished), RENDER_TIMEOUT_S, "Rendering the map")
    except BaseException:
        job.cancelWithoutBlocking()
        raise
    return job.renderedImage()


async def layer_shares(settings: QgsMapSettings, layers: list[Any]) -> dict[str, float]:
    """Layer id → share of the view it paints, each layer rendered alone (the first MEASURED_LAYERS)."""
    pictures = []
    for layer in layers[:MEASURED_LAYERS]:
        alone = QgsMapSettings(settings)
        alone.setLayers([layer])
        alone.setBackgroundColor(QColor(0, 0, 0, 0))
        size = settings.outputSize()
        alone.setOutputSize(QSize(MEASURE_WIDTH, max(1, round(MEASURE_WIDTH * size.height() / max(1, size.width())))))
        pictures.append((layer.id(), await render(alone)))
    shares = await asyncio.to_thread(lambda: [painted_share(rgba_pixels(image)) for _id, image in pictures])
    return {layer_id: share for (layer_id, _image), share in zip(pictures, shares)}


def share_in_view(layer: Any, settings: QgsMapSettings, project: Any) -> float | None:
    """Share of the layer's extent that lies in the view (None when its extent is unknown or empty)."""
    extent = layer.extent()
    if extent.isNull() or extent.isEmpty():
        return None
    try:
        if layer.crs().isValid() and layer.crs() != settings.destinationCrs():
            transform = QgsCoordinateTransform(layer.crs(), settings.destinationCrs(), project.transformContext())
            extent = transform.transformBoundingBox(extent)
    except Exception:  # noqa: BLE001 - a transform QGIS cannot make: the share is not known
        return None
    area = extent.width() * extent.height()
    inside = extent.intersect(settings.visibleExtent())
    return round(inside.width() * inside.height() / area, 3) if area > 0 and not inside.isEmpty() else 0.0


def colour_tuple(colour: QColor) -> tuple[int, int, int, int]:
    return colour.red(), colour.green(), colour.blue(), colour.alpha()
