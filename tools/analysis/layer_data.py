"""Looking up project layers and turning QGIS features into compact plain data (main thread only)."""

from __future__ import annotations

import json
from typing import Any

from ..common import ToolInputError

MAX_GEOMETRY_CHARS = 2000


def require_project(project: Any) -> Any:
    if project is None:
        raise ToolInputError("No QGIS project is available; these tools work inside QGIS.")
    return project


def vector_layers(project: Any) -> list[Any]:
    from qgis.core import QgsVectorLayer

    return [lyr for lyr in require_project(project).mapLayers().values() if isinstance(lyr, QgsVectorLayer)]


def find_vector_layer(project: Any, name_or_id: str) -> Any:
    layers = vector_layers(project)
    for layer in layers:
        if name_or_id in (layer.name(), layer.id()):
            return layer
    names = ", ".join(lyr.name() for lyr in layers[:30]) or "none"
    raise ToolInputError(f"No vector layer named '{name_or_id}'. Vector layers in the project: {names}")


def layer_summary(layer: Any) -> dict[str, Any]:
    from qgis.core import QgsWkbTypes

    extent = layer.extent()
    return {"name": layer.name(), "id": layer.id(),
            "geometry": QgsWkbTypes.displayString(layer.wkbType()), "crs": layer.crs().authid(),
            "features": layer.featureCount(), "selected": layer.selectedFeatureCount(),
            "extent": [round(v, 6) for v in (extent.xMinimum(), extent.yMinimum(), extent.xMaximum(),
                                              extent.yMaximum())],
            "fields": [f"{f.name()}:{f.typeName()}" for f in layer.fields()][:40]}


def plain_value(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if hasattr(value, "isNull") and value.isNull():
        return None
    if hasattr(value, "toString"):
        return value.toString()
    return str(value)


def feature_record(feature: Any, with_geometry: bool = False, to_lonlat: Any = None) -> dict[str, Any]:
    fields = feature.fields()
    record: dict[str, Any] = {"fid": feature.id(),
                              "attributes": {fields.at(i).name(): plain_value(v)
                                             for i, v in enumerate(feature.attributes())}}
    geometry = feature.geometry()
    if geometry is not None and not geometry.isEmpty():
        box = geometry.boundingBox()
        record["bbox"] = [round(v, 6) for v in (box.xMinimum(), box.yMinimum(), box.xMaximum(), box.yMaximum())]
        if with_geometry:
            from qgis.core import QgsGeometry

            g = QgsGeometry(geometry)
            if to_lonlat is not None:
                g.transform(to_lonlat)
            text = g.asJson(6)
            if len(text) > MAX_GEOMETRY_CHARS:
                g = g.simplify(max(box.width(), box.height()) / 200)
                text = g.asJson(6)
                record["geometry_simplified"] = True
            record["geometry"] = json.loads(text) if len(text) <= MAX_GEOMETRY_CHARS * 4 else None
    return record


def to_lonlat_transform(layer: Any, project: Any) -> Any:
    from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform

    return QgsCoordinateTransform(layer.crs(), QgsCoordinateReferenceSystem("EPSG:4326"), project)
