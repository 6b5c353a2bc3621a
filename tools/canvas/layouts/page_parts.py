"""What every part of a page uses: placing an item in millimetres, text made inert for QGIS, fonts, zooming a map
item to an extent, and how wide an extent is on the ground."""

from __future__ import annotations

import math
from typing import Any

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsLayoutItemMap,
    QgsLayoutPoint,
    QgsLayoutSize,
    QgsRectangle,
    QgsUnitTypes,
)
from qgis.PyQt.QtGui import QFont

MM = QgsUnitTypes.LayoutMillimeters


def place(item: Any, x: float, y: float, w: float, h: float) -> None:
    item.attemptMove(QgsLayoutPoint(x, y, MM))
    item.attemptResize(QgsLayoutSize(w, h, MM))


def plain(text: str) -> str:
    """Text from a model, a catalog or a user, made inert for QGIS: a label, a legend entry or a title
    evaluates "[% … %]" as an expression (which can read files or environment variables). A zero-width
    space after "[" keeps what the reader sees and stops the evaluation."""
    return str(text).replace("[%", "[\u200b%")


def font(size: float, bold: bool = False) -> QFont:
    made = QFont()
    made.setPointSizeF(size)
    made.setBold(bold)
    return made


def set_font(item: Any, chosen: QFont) -> None:
    if hasattr(item, "setTextFormat"):  # QGIS >= 3.24
        from qgis.core import QgsTextFormat

        item.setTextFormat(QgsTextFormat.fromQFont(chosen))
    else:
        item.setFont(chosen)


def zoom(item: QgsLayoutItemMap, extent: QgsRectangle) -> None:
    """The whole extent in the item, at the item's own size: setExtent gives a new item an extent but
    resizes it to the extent's shape, so the size is put back before zoomToExtent fits the extent in."""
    size = item.sizeWithUnits()
    item.setExtent(QgsRectangle(extent))
    item.attemptResize(size)
    item.zoomToExtent(QgsRectangle(extent))


def width_m(extent: QgsRectangle, crs: QgsCoordinateReferenceSystem) -> float:
    """The extent's width on the ground, in metres."""
    if crs.isGeographic():
        return extent.width() * 111_320 * math.cos(math.radians(extent.center().y()))
    return extent.width() * QgsUnitTypes.fromUnitToUnitFactor(crs.mapUnits(), QgsUnitTypes.DistanceMeters)
