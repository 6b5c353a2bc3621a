"""A small switch showing the map context that goes with every message, kept in step with the canvas."""

from __future__ import annotations

import logging
from typing import Callable

from qgis.PyQt.QtCore import QObject, QSize, QTimer, pyqtSlot
from qgis.PyQt.QtWidgets import QSizePolicy, QToolButton

from ..agent.map_context import LayerInfo, MapContext
from .i18n import tr

log = logging.getLogger(__name__)
# Panning fires many extent changes a second; the chip reads the canvas once things settle.
DEBOUNCE_MS = 150


def _lonlat(center: tuple[float, float]) -> str:
    lon, lat = center
    return f"{abs(lat):.2f}°{'N' if lat >= 0 else 'S'} {abs(lon):.2f}°{'E' if lon >= 0 else 'W'}"


def describe_map_context(context: MapContext | None) -> str:
    if context is None:
        return tr("no map")
    bits = []
    if context.crs:
        bits.append(context.crs)
    if not context.layers:  # an empty canvas has no real scale or centre (QGIS says 1:1)
        return " · ".join(bits + [tr("no layers shown")])
    if context.scale:
        bits.append(f"1:{context.scale:,.0f}".replace(",", "\u202f"))
    if context.center_lonlat:
        bits.append(_lonlat(context.center_lonlat))
    if context.active_layer:
        bits.append(context.active_layer)
    selection = context.selected_features or {}
    count = selection.get("selected_count") or len(selection.get("features") or [])
    if count:
        bits.append(tr("{count} selected").format(count=count))
    return " · ".join(bits) or tr("empty map")


def glance(canvas, iface=None) -> MapContext:
    """What the chip shows, read cheaply on every pan: no feature counts or GeoJSON (a remote layer's
    count is a query), unlike the full context sent with a message."""
    # imported here: the chip widget needs only Qt (the ui/ tests run under Qt 6 without qgis.core)
    from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsProject, QgsVectorLayer

    settings = canvas.mapSettings()
    crs, extent = settings.destinationCrs(), canvas.extent()
    layers = tuple(LayerInfo(name=layer.name(), kind="") for layer in canvas.layers())
    centre = None
    if layers and not extent.isEmpty():
        point = extent.center()
        wgs84 = QgsCoordinateReferenceSystem("EPSG:4326")
        if crs.isValid() and crs != wgs84:
            point = QgsCoordinateTransform(crs, wgs84, QgsProject.instance()).transform(point)
        centre = (point.x(), point.y())
    active = iface.activeLayer() if iface is not None else canvas.currentLayer()
    selected = active.selectedFeatureCount() if isinstance(active, QgsVectorLayer) else 0
    return MapContext(crs=crs.authid(), scale=canvas.scale() or None, center_lonlat=centre,
                      active_layer=active.name() if active is not None else "", layers=layers,
                      selected_features={"selected_count": selected, "features": []} if selected else None)


class MapContextChip(QToolButton):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setCheckable(True)
        self.setChecked(True)
        self.setAutoRaise(True)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)  # may be narrower than its text
        self._summary = tr("no map")
        self.toggled.connect(lambda _on: self._refresh_text())
        self._refresh_text()

    @property
    def include(self) -> bool:
        return self.isChecked()

    def show_context(self, context: MapContext | None) -> None:
        self._summary = describe_map_context(context)
        self._refresh_text()

    def _refresh_text(self) -> None:
        if self.isChecked():
            self._set_whole_text(tr("Map: {summary}").format(summary=self._summary))
            self.setToolTip(tr("Sent with each message: the map's CRS, scale, centre, layers, the active layer and "
                               "its selected features. Click to stop sending it."))
        else:
            self._set_whole_text(tr("Map: not sent"))
            self.setToolTip(tr("The map view is not sent. Click to send it with each message."))


    # A narrow dock breaks the summary into lines at its " · " instead of holding the dock wide.
    def _set_whole_text(self, text: str) -> None:
        self._whole = text
        self._fit()

    def _fit(self) -> None:
        whole = getattr(self, "_whole", self.text())
        padding = super().sizeHint().width() - self._widest(self.text())
        room = max(60, self.width() - padding) if self.isVisible() else 1 << 30  # laid out only once shown
        lines, line = [], ""
        for bit in whole.split(" · "):
            candidate = f"{line} · {bit}" if line else bit
            if line and self._widest(candidate) > room:
                lines.append(line + " ·")
                candidate = bit
            line = candidate
        text = "\n".join(lines + [line])
        if text != self.text():
            self.setText(text)
            self.updateGeometry()

    def _widest(self, text: str) -> int:
        return max((self.fontMetrics().horizontalAdvance(part) for part in text.split("\n")), default=0)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name): as wide as the summary on one line, if there is room
        hint = super().sizeHint()
        whole = getattr(self, "_whole", self.text())
        return QSize(hint.width() - self._widest(self.text()) + self._widest(whole), hint.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(min(120, self.sizeHint().width()), super().sizeHint().height())

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit()

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        self._fit()


class CanvasWatcher(QObject):
    """Calls `on_change` once the canvas (extent, CRS, layers, active layer, selection) has been still
    for DEBOUNCE_MS. Its connections die with it: the canvas outlives the dock."""

    def __init__(self, canvas, on_change: Callable[[], None], iface=None, delay_ms: int = DEBOUNCE_MS,
                 parent: QObject | None = None):
        super().__init__(parent)
        self._on_change = on_change
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(delay_ms)
        self._timer.timeout.connect(self._fire)
        for signal in (canvas.extentsChanged, canvas.destinationCrsChanged, canvas.layersChanged,
                       canvas.selectionChanged, canvas.currentLayerChanged):
            signal.connect(self.schedule)
        if iface is not None and hasattr(iface, "currentLayerChanged"):
            iface.currentLayerChanged.connect(self.schedule)

    @pyqtSlot()
    def schedule(self) -> None:
        self._timer.start()

    def _fire(self) -> None:
        try:
            self._on_change()
        except Exception:  # a canvas caught mid-change must not break the dock
            log.exception("could not refresh the map chip")
