"""One vector layer for all footprints of a search: item properties as fields, links back to STAC."""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path
from typing import Any, Mapping

from qgis.core import QgsFillSymbol, QgsSingleSymbolRenderer, QgsVectorLayer, QgsVectorLayerTemporalProperties

from ...common import ToolInputError
from ...engine.gdal_names import dataset, own_file
from .stac_assets import item_times

MAX_FIELDS = 40  # beyond this the attribute table stops being readable
OUTLINE = {"style": "no", "color": "0,0,0,0", "outline_style": "solid", "outline_color": "255,127,0,255",
           "outline_width": "0.6", "outline_width_unit": "MM"}  # outlines only: a fill would tint the imagery below


def footprint_features(items: list[Mapping[str, Any]], catalog_url: str = "") -> list[dict]:
    features = []
    for item in items:
        if not item.get("geometry"):
            continue
        props = item.get("properties") or {}
        start, end = item_times(item)
        row: dict[str, Any] = {"item_id": item.get("id"), "collection": item.get("collection"),
                               "start": start, "end": end}
        for key, value in props.items():
            if len(row) >= MAX_FIELDS:
                break
            if key not in ("datetime", "start_datetime", "end_datetime") and isinstance(value, (str, int, float, bool)):
                row[key] = value
        self_link = next((link.get("href") for link in item.get("links") or [] if link.get("rel") == "self"), None)
        if not self_link and catalog_url and item.get("collection"):
            self_link = f"{catalog_url.rstrip('/')}/collections/{item['collection']}/items/{item.get('id')}"
        row["item_link"] = self_link
        row["assets"] = json.dumps({k: a.get("href") for k, a in (item.get("assets") or {}).items()})
        features.append({"type": "Feature", "geometry": item["geometry"], "properties": row})
    return features


def write_footprints(items: list[Mapping[str, Any]], out_dir: Path, catalog_url: str = "") -> Path:
    """The items' outlines as a GeoJSON file (plain data in and out: run it in a worker thread)."""
    features = footprint_features(items, catalog_url)
    if not features:
        raise ToolInputError("None of the items has a geometry, so there is no footprint to draw.")
    path = Path(out_dir) / f"footprints-{uuid.uuid4().hex[:8]}.geojson"
    path.write_text(json.dumps({"type": "FeatureCollection", "features": features}), encoding="utf-8")
    return path


async def load_footprints(items: list[Mapping[str, Any]], out_dir: Path, name: str,
                          catalog_url: str = "") -> QgsVectorLayer:
    """The footprints layer, its file written off the GUI thread."""
    return footprints_layer_from(await asyncio.to_thread(write_footprints, items, out_dir, catalog_url), name)


def footprints_layer(items: list[Mapping[str, Any]], out_dir: Path, name: str, catalog_url: str = "") -> QgsVectorLayer:
    return footprints_layer_from(write_footprints(items, out_dir, catalog_url), name)


def footprints_layer_from(path: Path, name: str) -> QgsVectorLayer:
    layer = QgsVectorLayer(dataset(own_file(path, path.parent)), name, "ogr")  # written just now, by write_footprints
    if not layer.isValid():
        raise ToolInputError(f"QGIS could not read the footprints file {path}.")
    _set_time(layer)
    layer.setRenderer(QgsSingleSymbolRenderer(QgsFillSymbol.createSimple(OUTLINE)))
    return layer


def _set_time(layer: QgsVectorLayer) -> None:
    """Lets the Temporal Controller step through the items by their dates."""
    fields = layer.fields()
    if fields.indexOf("start") < 0:
        return
    temporal = layer.temporalProperties()
    temporal.setIsActive(True)
    temporal.setMode(QgsVectorLayerTemporalProperties.ModeFeatureDateTimeStartAndEndFromFields)
    temporal.setStartField("start")
    temporal.setEndField("end")
