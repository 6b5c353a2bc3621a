"""A vector field's values read with OGR in a worker thread (plain data in and out), so classifying a big
file-backed layer by a field does not walk its features on QGIS's GUI thread."""

from __future__ import annotations

from typing import Any

from osgeo import ogr

from ...engine import gdal_names
from ...engine.gdal_scope import gdal_exceptions


def field_values(path: str, layer_name: str | None, layer_id: int | None, subset: str, field: str) -> list[Any]:
    """Every non-null value of `field` in the features the layer shows (its subset filter applied)."""
    with gdal_exceptions():
        dataset = ogr.Open(gdal_names.dataset(gdal_names.project_source(path)), 0)  # a project layer's own file
        layer = dataset.GetLayerByName(layer_name) if layer_name else dataset.GetLayer(int(layer_id or 0))
        if layer is None:
            raise RuntimeError(f"no layer {layer_name or layer_id} in {path}")
        if subset:
            layer.SetAttributeFilter(subset)
        definition = layer.GetLayerDefn()
        index = definition.GetFieldIndex(field)
        if index < 0:
            raise RuntimeError(f"no field {field}")
        others = [definition.GetFieldDefn(i).GetName() for i in range(definition.GetFieldCount()) if i != index]
        layer.SetIgnoredFields([*others, "OGR_GEOMETRY", "OGR_STYLE"])  # read one column, not whole features
        values = [feature.GetField(index) for feature in layer]
        dataset = None
    return [v for v in values if v is not None]
