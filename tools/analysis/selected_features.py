"""The features selected on the map, as lon/lat GeoJSON (needs QGIS; imported lazily)."""

from __future__ import annotations

import json
from typing import Any


def selected_geometry_lonlat(project: Any) -> dict | None:
    """Union of the selected features of the project's layers, in EPSG:4326, or None."""
    from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsGeometry, QgsVectorLayer

    wgs84 = QgsCoordinateReferenceSystem("EPSG:4326")
    parts = []
    for layer in project.mapLayers().values():
        if not isinstance(layer, QgsVectorLayer) or layer.selectedFeatureCount() == 0:
            continue
        transform = QgsCoordinateTransform(layer.crs(), wgs84, project)
        for feature in layer.selectedFeatures():
            geometry = QgsGeometry(feature.geometry())
            geometry.transform(transform)
            parts.append(geometry)
    if not parts:
        return None
    return json.loads(QgsGeometry.unaryUnion(parts).asJson())


def selected_sources(project: Any) -> list[dict[str, Any]]:
    """Which features the selection is: per layer, its name, id and the selected features' ids (provenance)."""
    from qgis.core import QgsVectorLayer

    return [{"layer": layer.name(), "layer_id": layer.id(), "feature_ids": sorted(int(i) for i in layer.selectedFeatureIds())}
            for layer in project.mapLayers().values()
            if isinstance(layer, QgsVectorLayer) and layer.selectedFeatureCount() > 0]
