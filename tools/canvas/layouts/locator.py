"""The overview inset of a page showing a small area: where the map lies, with enough around it to recognise
the place. It shows the regions and countries of the world map QGIS ships (offline; a basemap the project
already shows is drawn under them), the page's own outlines, and the main map's frame in red, on every page of
an atlas too. The context layers are added to the project once, in a hidden group, so the layout keeps them
after a save and reopen (and undo takes them away)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from qgis.core import (
    QgsApplication,
    QgsFillSymbol,
    QgsLayerTreeGroup,
    QgsLayoutItemMap,
    QgsLayoutItemMapOverview,
    QgsMapLayer,
    QgsPrintLayout,
    QgsRasterLayer,
    QgsRectangle,
    QgsSingleSymbolRenderer,
    QgsTextFormat,
    QgsVectorLayer,
    QgsVectorLayerSimpleLabeling,
)
from qgis.PyQt.QtGui import QColor, QFont

from ...analysis.expressions import label_settings
from ...engine.gdal_names import dataset, shipped_file
from .page_parts import place, width_m, zoom

CONTEXT_GROUP = "Page context (QGIS world map)"
CONTEXT_KEY = "stacgis_agent/page_context"  # a layer's custom property: which context layer it is
WORLD_LAYERS = (("states_provinces", "Regions", "#b0a898", 0.2, "#f3f0ea"),
                ("countries", "Countries", "#6f6f6f", 0.45, None))
INSET_WIDTH_M = 30_000  # the inset spans at least this much ground, ten times the map at most…
INSET_TIMES = 10  # …or this many times the map's width, whichever is wider


def add_locator(layout: QgsPrintLayout, main: QgsLayoutItemMap, layers: list[QgsMapLayer],
                context: list[QgsMapLayer], rect: tuple[float, ...]) -> QgsLayoutItemMap:
    """The inset in `rect`: the page's vector layers over the context layers, the main map's frame drawn on it."""
    inset = QgsLayoutItemMap(layout)
    layout.addLayoutItem(inset)
    place(inset, *rect)
    inset.setCrs(main.crs())
    outlines = [lyr for lyr in layers if isinstance(lyr, QgsVectorLayer)]
    basemaps = [lyr for lyr in layers if isinstance(lyr, QgsRasterLayer) and lyr.providerType() in ("wms", "xyz")]
    inset.setLayers([*outlines, *context, *basemaps])
    inset.setKeepLayerSet(True)
    inset.setFrameEnabled(True)
    inset.setBackgroundColor(QColor("#dfeaf2"))  # the sea, where no region is drawn
    extent = QgsRectangle(main.extent())
    wide = max(INSET_TIMES, INSET_WIDTH_M / max(width_m(extent, main.crs()), 1.0))
    extent.scale(wide)
    zoom(inset, extent)
    frame = QgsLayoutItemMapOverview("map frame", inset)
    frame.setLinkedMap(main)
    frame.setFrameSymbol(QgsFillSymbol.createSimple({"color": "227,26,28,60", "outline_color": "#e31a1c",
                                                     "outline_width": "0.6", "outline_width_unit": "MM"}))
    inset.overviews().addOverview(frame)
    return inset


def world_map_file() -> Path | None:
    path = Path(QgsApplication.pkgDataPath()) / "resources" / "data" / "world_map.gpkg"
    return path if path.is_file() else None


def context_layers(project: Any, added: Any) -> list[QgsMapLayer]:
    """The world map's regions and countries, from the project when an earlier page added them, else added now
    in a hidden group (`added(layer)` and `added_group(group)` record them for undo). [] without a world map."""
    found = {lyr.customProperty(CONTEXT_KEY): lyr for lyr in project.mapLayers().values()
             if lyr.customProperty(CONTEXT_KEY)}
    if all(name in found for name, *_ in WORLD_LAYERS):
        return [found[name] for name, *_ in WORLD_LAYERS]
    source = world_map_file()
    if source is None:
        return []
    root = project.layerTreeRoot()
    group = root.findGroup(CONTEXT_GROUP)
    new_group = group is None
    if new_group:
        group = root.addGroup(CONTEXT_GROUP)  # at the bottom of the Layers panel
    made = []
    for name, title, stroke, width, fill in WORLD_LAYERS:
        if name in found:
            made.append(found[name])
            continue
        layer = QgsVectorLayer(dataset(shipped_file(f"{source}|layername={name}")), f"{title} (QGIS world map)", "ogr")
        if not layer.isValid():
            continue
        _style(layer, stroke, width, fill, labelled=name == "states_provinces")
        layer.setCustomProperty(CONTEXT_KEY, name)
        project.addMapLayer(layer, False)
        group.addLayer(layer)
        made.append(layer)
    _hide(group)
    added(group if new_group else None, [lyr for lyr in made if lyr.customProperty(CONTEXT_KEY) not in found])
    return made


def _hide(group: QgsLayerTreeGroup) -> None:
    group.setItemVisibilityChecked(False)  # on the page's inset only, never drawn on the analyst's canvas
    group.setExpanded(False)


def _style(layer: QgsVectorLayer, stroke: str, width: float, fill: str | None, labelled: bool) -> None:
    symbol = QgsFillSymbol.createSimple({"color": fill or "0,0,0,0", "style": "solid" if fill else "no",
                                         "outline_color": stroke, "outline_width": str(width),
                                         "outline_width_unit": "MM"})
    layer.setRenderer(QgsSingleSymbolRenderer(symbol))
    if labelled:
        settings = label_settings(layer, "name")  # a field of QGIS's own world map
        text = QgsTextFormat()
        font = QFont()
        font.setItalic(True)
        text.setFont(font)
        text.setSize(6.5)
        text.setColor(QColor("#6b5f4f"))
        settings.setFormat(text)
        layer.setLabeling(QgsVectorLayerSimpleLabeling(settings))
        layer.setLabelsEnabled(True)
