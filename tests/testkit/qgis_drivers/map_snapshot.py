"""What an analyst compares between two maps: the layer tree, each layer's source, CRS, visibility and
how it is drawn, and whether two extents show the same place (used by the map-script export tests)."""

from __future__ import annotations

import math
import os

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsLayerTreeGroup,
    QgsLayerTreeLayer,
    QgsPalettedRasterRenderer,
    QgsProject,
    QgsRectangle,
    QgsSingleBandPseudoColorRenderer,
    QgsSingleSymbolRenderer,
    QgsVectorLayer,
)

WKT2 = QgsCoordinateReferenceSystem.WktVariant.WKT_PREFERRED


def _comparable(value):
    """NaN never equals itself: written as the text "NaN" so a rebuilt NaN compares equal; a null as None."""
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    return None if value is None or (hasattr(value, "isNull") and value.isNull()) else value


def _renderer(renderer) -> dict:
    if isinstance(renderer, QgsPalettedRasterRenderer):
        return {"classes": [(c.value, c.color.name(), c.label) for c in renderer.classes()]}
    if isinstance(renderer, QgsSingleBandPseudoColorRenderer):
        items = renderer.shader().rasterShaderFunction().colorRampItemList()
        return {"ramp": [(round(i.value, 3), i.color.name()) for i in items]}
    if renderer.type() == "multibandcolor":
        return {"bands": (renderer.redBand(), renderer.greenBand(), renderer.blueBand())}
    if isinstance(renderer, QgsSingleSymbolRenderer):
        sym = renderer.symbol().symbolLayer(0)
        return {"symbol": (sym.layerType(), sym.properties().get("style"), sym.properties().get("outline_color"))}
    return {}


def describe_layer(layer) -> dict:
    out = {"provider": layer.providerType(), "crs": layer.crs().authid() or layer.crs().toWkt(WKT2),
           "renderer": layer.renderer().type(), **_renderer(layer.renderer())}
    if layer.providerType() == "memory" or "_layers.gpkg|" in layer.source():  # see the script's keep_memory_layers
        out["provider"] = "features kept"
    else:
        out["source"] = os.path.normpath(layer.source())
    if isinstance(layer, QgsVectorLayer):
        names = [n for n in layer.fields().names() if n != "fid"]  # GeoPackage adds its own fid
        out["features"] = sorted((f.geometry().asWkt(3), tuple(_comparable(f[n]) for n in names))
                                 for f in layer.getFeatures())
    return out


def map_snapshot(project: QgsProject) -> dict:
    def walk(group) -> list:
        nodes = []
        for child in group.children():
            if isinstance(child, QgsLayerTreeGroup):
                nodes.append(("group", child.name(), child.itemVisibilityChecked(), child.isExpanded(), walk(child)))
            elif isinstance(child, QgsLayerTreeLayer):
                nodes.append(("layer", child.name(), child.itemVisibilityChecked(), describe_layer(child.layer())))
        return nodes

    return {"crs": project.crs().authid(), "tree": walk(project.layerTreeRoot())}


def same_extent(a: QgsRectangle, b: QgsRectangle, tol: float = 1.0) -> bool:
    return all(abs(x - y) <= tol for x, y in ((a.xMinimum(), b.xMinimum()), (a.yMinimum(), b.yMinimum()),
                                               (a.xMaximum(), b.xMaximum()), (a.yMaximum(), b.yMaximum())))
