"""Finds the place an analyst names: in the project's vector layers first, then the offline gazetteer.

Layers are read through QgsVectorLayerFeatureSource in a worker thread (QGIS's thread-safe way to
iterate features), the gazetteer is built and searched in a worker too: the GUI never waits on it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from qgis.core import (
    QgsApplication,
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsCsException,
    QgsFeatureRequest,
    QgsRectangle,
    QgsVectorLayer,
    QgsVectorLayerFeatureSource,
)
from qgis.PyQt.QtCore import QMetaType

from ..common import ToolInputError
from ..engine.gazetteer import gazetteer_for, world_map_path
from ..engine.place_names import (
    EXACT,
    TIER_WORDS,
    Place,
    choose,
    close_names,
    is_name_field,
    match_tier,
    narrow,
    normalise,
)
from .project_access import find_layer

MAX_PLACE_FEATURES = 20_000  # per layer: enough for communes or parcels, bounded for the worker
MAX_LISTED = 6
WGS84 = QgsCoordinateReferenceSystem("EPSG:4326")


@dataclass
class LayerSnapshot:
    """What the worker needs of one layer, taken on the main thread."""

    layer_id: str
    name: str
    source: QgsVectorLayerFeatureSource
    crs: QgsCoordinateReferenceSystem
    context: Any
    name_fields: list[str]
    other_fields: list[str]


@dataclass
class Found:
    place: Place
    others: list[Place]
    rect: QgsRectangle | None  # in `crs`, when the place has an outline
    crs: QgsCoordinateReferenceSystem


async def find_place(project: Any, place: str, layer_name: str | None = None, country: str | None = None) -> Found:
    """The one place meant, or a ToolInputError that lists the candidates (ask the user) or close names."""
    name, _, qualifier = place.partition(",")
    query, qualifier = normalise(name), (country or qualifier).strip()
    if not query:
        raise ToolInputError("The place name is empty. Give a name such as 'Lyon', or lon/lat, or a bbox.")
    snapshots = _snapshots(project, layer_name)
    layer_hits = await asyncio.to_thread(_search_layers, snapshots, query)
    gazetteer = None
    candidates = layer_hits
    if layer_name is None and (not layer_hits or layer_hits[0].tier > EXACT):
        gazetteer = await asyncio.to_thread(gazetteer_for, world_map_path(QgsApplication.pkgDataPath()))
        found = await asyncio.to_thread(gazetteer.lookup, query)
        if found and (not layer_hits or found[0].tier < layer_hits[0].tier):
            candidates = found
    if qualifier and candidates:
        narrowed = narrow(candidates, qualifier)
        if not narrowed:
            raise ToolInputError(f"'{name.strip()}' was found, but not in '{qualifier}': "
                                 f"{_listing(candidates)}. Say which one, or give lon/lat.")
        candidates = narrowed
    if not candidates:
        raise ToolInputError(await _not_found(name.strip(), query, snapshots, gazetteer, layer_name))
    best = [c for c in candidates if c.tier == candidates[0].tier]
    chosen, others = choose(best)
    if chosen is None:
        raise ToolInputError(
            f"Several places are called '{name.strip()}': {_listing(others)}. Nothing was moved. Ask the user "
            "which one they mean (ask_user), then call zoom_to_location again with place and country "
            "(e.g. place='Paris', country='US'), or with layer and feature_id, or with lon/lat.")
    rect, crs = _rect_of(chosen, snapshots)
    return Found(chosen, others, rect, crs)


def describe(found: Found, query: str) -> str:
    """'Lyon (city, France, pop. 520,774), from the offline gazetteer (GeoNames cities)'."""
    p = found.place
    text = f"{p.label()}, from the {p.source}" if p.kind != "feature" else \
        f"'{p.name}' ({p.context}) in {p.source}"
    if p.tier != EXACT:
        text += f" (matched '{query}' by {TIER_WORDS[p.tier]})"
    if found.others:
        text += f"; other places with that name: {_listing(found.others)}"
    return text


def _listing(places: list[Place]) -> str:
    shown = [p.label() if p.kind != "feature" else f"'{p.name}' ({p.context}) in {p.source}"
             for p in places[:MAX_LISTED]]
    more = len(places) - len(shown)
    return "; ".join(shown) + (f"; and {more} more" if more > 0 else "")


def _snapshots(project: Any, layer_name: str | None) -> list[LayerSnapshot]:
    layers = [find_layer(project, layer_name, QgsVectorLayer)] if layer_name else \
        [lyr for lyr in project.mapLayers().values() if isinstance(lyr, QgsVectorLayer) and lyr.isValid()]
    snapshots = []
    for layer in layers:
        text_fields = [f.name() for f in layer.fields() if f.type() == QMetaType.Type.QString]  # not 10: Qt 6 enums are not ints
        if not text_fields:
            continue
        name_fields = [f for f in text_fields if is_name_field(f)]
        snapshots.append(LayerSnapshot(layer.id(), layer.name(), QgsVectorLayerFeatureSource(layer), layer.crs(),
                                       project.transformContext(), name_fields,
                                       [f for f in text_fields if f not in name_fields]))
    return snapshots


def _search_layers(snapshots: list[LayerSnapshot], query: str) -> list[Place]:
    """Worker thread. Name-like fields match whole names, prefixes and typos; other text fields
    (ids, descriptions) only the whole value, so 'lyon' never matches 'sentinel-2-lyon-2023'."""
    found: list[tuple[int, int, Place]] = []
    for snap in snapshots:
        to_wgs84 = QgsCoordinateTransform(snap.crs, WGS84, snap.context)
        request = QgsFeatureRequest().setLimit(MAX_PLACE_FEATURES)
        for feature in snap.source.getFeatures(request):
            if not feature.hasGeometry():
                continue
            hit = None
            for rank, fields, prefix in ((0, snap.name_fields, True), (1, snap.other_fields, False)):
                for field in fields:
                    value = feature[field]
                    tier = match_tier(query, [str(value)], allow_prefix=prefix) if value not in (None, "") else None
                    if tier is not None and (rank == 0 or tier == EXACT) and (hit is None or (tier, rank) < hit[:2]):
                        hit = (tier, rank, field, str(value))
            if hit is None:
                continue
            rect = feature.geometry().boundingBox()
            try:
                box = to_wgs84.transformBoundingBox(rect)
            except QgsCsException:  # a broken CRS: the layer cannot say where the feature is
                continue
            centre = box.center()
            place = Place(name=hit[3], kind="feature", source=f"layer '{snap.name}'", lon=centre.x(), lat=centre.y(),
                          bbox=(box.xMinimum(), box.yMinimum(), box.xMaximum(), box.yMaximum()),
                          context=f"field {hit[2]}, feature {feature.id()}", tier=hit[0],
                          extra={"layer_id": snap.layer_id, "feature_id": feature.id(), "rect": rect,
                                 "qualifiers": [str(feature[f]) for f in snap.name_fields + snap.other_fields]})
            found.append((hit[0], hit[1], place))
    found.sort(key=lambda item: item[:2])
    return [p for *_, p in found]


def _rect_of(place: Place, snapshots: list[LayerSnapshot]) -> tuple[QgsRectangle | None, QgsCoordinateReferenceSystem]:
    if place.kind == "feature":
        crs = next(s.crs for s in snapshots if s.layer_id == place.extra["layer_id"])
        return place.extra["rect"], crs
    if place.bbox:
        return QgsRectangle(*place.bbox), WGS84
    return None, WGS84


async def _not_found(name: str, query: str, snapshots: list[LayerSnapshot], gazetteer: Any,
                     layer_name: str | None) -> str:
    where = f"layer '{layer_name}'" if layer_name else "the project's vector layers or the offline gazetteer"
    suggestions = await asyncio.to_thread(_suggestions, query, snapshots, gazetteer)
    text = f"No place called '{name}' in {where}."
    if suggestions:
        text += f" Close names: {'; '.join(suggestions)}."
    if gazetteer is not None and gazetteer.missing:
        text += f" Not available offline: {', '.join(gazetteer.missing)}."
    return text + " Check the spelling, or give lon/lat or a bbox (there is no internet geocoder)."


def _suggestions(query: str, snapshots: list[LayerSnapshot], gazetteer: Any) -> list[str]:
    names: list[str] = []
    for snap in snapshots:
        request = QgsFeatureRequest().setLimit(MAX_PLACE_FEATURES)
        for feature in snap.source.getFeatures(request):
            names.extend(str(feature[f]) for f in snap.name_fields if feature[f] not in (None, ""))
    found = [f"'{n}' (a feature)" for n in close_names(query, names, limit=3)]
    if gazetteer is not None:
        found.extend(gazetteer.suggestions(query, limit=5 - len(found)))
    return found
