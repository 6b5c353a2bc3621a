"""Reads what the analyst is looking at from the real canvas into an `agent.map_context.MapContext`."""

from __future__ import annotations

import functools
import json
import logging

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsEllipsoidUtils,
    QgsJsonExporter,
    QgsMapLayerType,
    QgsProject,
    QgsRasterLayer,
    QgsVectorLayer,
    QgsWkbTypes,
)

from ..agent.map_context import LayerInfo, MapContext

LOG = logging.getLogger(__name__)
MAX_SELECTED = 20  # features sent inline; the model reads more through the selection tool
_KINDS = {
    QgsMapLayerType.VectorLayer: "vector", QgsMapLayerType.RasterLayer: "raster",
    QgsMapLayerType.MeshLayer: "mesh", QgsMapLayerType.VectorTileLayer: "vector_tile",
}


def map_context_from_iface(iface, project: QgsProject | None = None) -> MapContext:
    project = project or QgsProject.instance()
    canvas = iface.mapCanvas()
    settings = canvas.mapSettings()
    crs = settings.destinationCrs()
    extent = canvas.extent()
    wgs84 = QgsCoordinateReferenceSystem("EPSG:4326")
    centre = extent.center()
    if crs.isValid() and crs != wgs84:
        centre = QgsCoordinateTransform(crs, wgs84, project).transform(centre)
    active = iface.activeLayer()
    root = project.layerTreeRoot()
    layers = []
    for layer in project.mapLayers().values():
        node = root.findLayer(layer.id())
        layers.append(LayerInfo(
            name=layer.name(), kind=_KINDS.get(layer.type(), "vector"), id=layer.id(),
            crs=layer.crs().authid(),
            geometry=QgsWkbTypes.geometryDisplayString(layer.geometryType()) if isinstance(layer, QgsVectorLayer) else "",
            feature_count=layer.featureCount() if isinstance(layer, QgsVectorLayer) else None,
            visible=bool(node and node.isVisible())))
    return MapContext(
        extent=(extent.xMinimum(), extent.yMinimum(), extent.xMaximum(), extent.yMaximum()) if not extent.isEmpty() else None,
        crs=crs.authid(), center_lonlat=(centre.x(), centre.y()) if not extent.isEmpty() else None,
        scale=canvas.scale() or None, active_layer=active.name() if active else "",
        selected_features=_selected_geojson(active), layers=tuple(layers), ellipsoid=ellipsoid_words(project))


@functools.lru_cache(maxsize=1)
def _ellipsoid_names() -> dict[str, str]:
    return {d.acronym: d.description for d in QgsEllipsoidUtils.definitions()}  # read from PROJ's database once


def ellipsoid_words(project: QgsProject) -> str:
    """The project's measurement ellipsoid as the model reads it; with none, QGIS measures planar."""
    acronym = project.ellipsoid()
    if not acronym or acronym.upper() == "NONE":
        return "none: QGIS measures planar in each layer's units (the measure tools use the layer CRS's ellipsoid)"
    name = _ellipsoid_names().get(acronym, acronym)
    return name if acronym in name else f"{name} ({acronym})"


def layer_names(project: QgsProject | None = None) -> list[str]:
    """The project's layer names in the Layers panel's order (top first), for @ in the message box."""
    project = project or QgsProject.instance()
    ordered = [layer.name() for layer in project.layerTreeRoot().layerOrder()]
    rest = [layer.name() for layer in project.mapLayers().values() if layer.name() not in ordered]
    return list(dict.fromkeys(ordered + rest))


def _selected_geojson(layer) -> dict | None:
    if not isinstance(layer, QgsVectorLayer) or isinstance(layer, QgsRasterLayer) or layer.selectedFeatureCount() == 0:
        return None
    exporter = QgsJsonExporter(layer, 6)
    exporter.setTransformGeometries(True)  # GeoJSON in lon/lat whatever the layer's CRS
    features = layer.selectedFeatures()[:MAX_SELECTED]
    data = json.loads(exporter.exportFeatures(features))
    data["layer"] = layer.name()
    data["selected_count"] = layer.selectedFeatureCount()
    return data
