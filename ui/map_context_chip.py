"""A small switch showing the map context that goes with every message."""

from __future__ import annotations

from qgis.PyQt.QtWidgets import QToolButton

from ..agent.map_context import MapContext


def describe_map_context(context: MapContext | None) -> str:
    if context is None:
        return "no map"
    bits = []
    if context.crs:
        bits.append(context.crs)
    if context.scale:
        bits.append(f"1:{context.scale:,.0f}".replace(",", "\u202f"))
    if context.active_layer:
        bits.append(context.active_layer)
    features = (context.selected_features or {}).get("features") or []
    if features:
        bits.append(f"{len(features)} selected")
    return " · ".join(bits) or "empty map"


class MapContextChip(QToolButton):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setCheckable(True)
        self.setChecked(True)
        self.setAutoRaise(True)
        self._summary = "no map"
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
            self.setText(f"Map: {self._summary}")
            self.setToolTip("The map view (extent, CRS, centre, active layer, selection) is sent "
                            "with each message. Click to stop sending it.")
        else:
            self.setText("Map: not sent")
            self.setToolTip("The map view is not sent. Click to send it with each message.")
