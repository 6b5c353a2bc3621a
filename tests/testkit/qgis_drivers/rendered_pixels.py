"""What the analyst sees on the map, as pixels: layers rendered by QGIS's own map renderer."""

from __future__ import annotations

import numpy as np


def render(layers: list, crs, extent, width: int, height: int) -> np.ndarray:
    """RGBA image (rows × cols × 4, uint8) of `layers` (top first) over `extent` in `crs`, rendered by
    QgsMapRendererSequentialJob as the canvas does, on a white background."""
    from qgis.core import QgsMapRendererSequentialJob, QgsMapSettings
    from qgis.PyQt.QtCore import QSize
    from qgis.PyQt.QtGui import QColor, QImage

    settings = QgsMapSettings()
    settings.setLayers(layers)
    settings.setDestinationCrs(crs)
    settings.setOutputSize(QSize(width, height))
    settings.setExtent(extent)
    settings.setBackgroundColor(QColor(255, 255, 255))
    settings.setOutputDpi(96)
    job = QgsMapRendererSequentialJob(settings)
    job.start()
    job.waitForFinished()
    image = job.renderedImage().convertToFormat(QImage.Format.Format_RGBA8888)
    ptr = image.constBits()
    ptr.setsize(image.sizeInBytes())
    rows = np.frombuffer(ptr, np.uint8).reshape(image.height(), image.bytesPerLine())
    return rows[:, : image.width() * 4].reshape(image.height(), image.width(), 4).copy()
