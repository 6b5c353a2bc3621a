"""Vector tools on the project's layers: list, query by area, get one feature, search, selection."""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np
from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from ...agent.safety import Assessment
from ..common import READ, ToolInputError, capped, check_bbox, ok, policy
from ..declare import assesses, deps_of, tool
from ..deps import ToolDeps
from . import expressions
from .layer_data import (
    feature_record,
    find_vector_layer,
    layer_summary,
    require_project,
    to_lonlat_transform,
    vector_layers,
)

MAX_FEATURES_LISTED = 50
MAX_FEATURES_EMBEDDED = 2000  # semantic search embeds feature text; beyond this, filter first

Layer = Annotated[str, Field(description="Vector layer name (or id) in the project")]
Limit = Annotated[int, Field(ge=1, le=MAX_FEATURES_LISTED)]


@tool(annotations=READ, meta=policy(discovery=True))
async def list_vector_layers(ctx: Context) -> CallToolResult:
    """The project's vector layers: name, geometry type, CRS, feature and selection counts, fields (attributes). E.g. 'which fields does the parcels layer have?'"""
    deps = deps_of(ctx)
    layers = [layer_summary(lyr) for lyr in vector_layers(deps.project())]
    return ok({"layers": layers}, f"{len(layers)} vector layer(s): "
                                  + (", ".join(lyr["name"] for lyr in layers) or "none"))


@tool(annotations=READ, meta=policy(requires=["vector_layer"]))
async def query_vector_by_bbox(
    ctx: Context,
    layer: Layer, bbox: Annotated[list[float], Field(description="[minx, miny, maxx, maxy] in `crs`")],
    crs: Annotated[str, Field(description="CRS of the bbox, default EPSG:4326")] = "EPSG:4326",
    limit: Limit = 20,
) -> CallToolResult:
    """Features of a vector layer that intersect a bbox (e.g. the map extent): attributes and bbox of each. E.g. 'which parcels are in view?'"""
    deps = deps_of(ctx)
    from qgis.core import (
        QgsCoordinateReferenceSystem,
        QgsCoordinateTransform,
        QgsFeatureRequest,
        QgsGeometry,
        QgsRectangle,
    )

    project = require_project(deps.project())
    lyr = find_vector_layer(project, layer)
    source_crs = QgsCoordinateReferenceSystem(crs)
    if not source_crs.isValid():
        raise ToolInputError(f"Unknown CRS '{crs}'; give it like 'EPSG:4326'.")
    bbox = check_bbox(bbox, geographic=source_crs.isGeographic())
    area = QgsGeometry.fromRect(QgsRectangle(*bbox))
    area.transform(QgsCoordinateTransform(source_crs, lyr.crs(), project))
    request = QgsFeatureRequest().setFilterRect(area.boundingBox())
    request.setFlags(QgsFeatureRequest.Flag.ExactIntersect)
    hits, more = [], False
    for feature in lyr.getFeatures(request):  # streamed: stops at limit + 1, never loads the whole layer
        if feature.geometry().intersects(area):
            if len(hits) == limit:
                more = True
                break
            hits.append(feature)
    return ok({"layer": lyr.name(), "features": [feature_record(f) for f in hits], "more_available": more},
              f"{len(hits)} feature(s) of '{lyr.name()}' intersect the bbox"
              + ("; more exist: narrow the bbox or raise the limit" if more else ""))


@tool(annotations=READ, meta=policy(requires=["vector_layer"]))
async def get_vector_feature(ctx: Context, layer: Layer, fid: Annotated[int, Field(description="Feature id")]) -> CallToolResult:
    """One feature of a vector layer by id: all attributes and its geometry as GeoJSON in lon/lat (simplified when large)."""
    deps = deps_of(ctx)
    project = require_project(deps.project())
    lyr = find_vector_layer(project, layer)
    feature = lyr.getFeature(fid)
    if not feature.isValid():
        raise ToolInputError(f"Layer '{lyr.name()}' has no feature {fid}; use query_vector_by_bbox or "
                             "search_vector_features to find feature ids.")
    record = feature_record(feature, with_geometry=True, to_lonlat=to_lonlat_transform(lyr, project))
    return ok({"layer": lyr.name(), **record}, f"Feature {fid} of '{lyr.name()}'")


# a read, and judged: its expression may be code, so every call is judged by `assess_search` (the gate, the dock's card)
@tool(annotations=READ, meta=policy(requires=["vector_layer"], judged=True))
async def search_vector_features(
    ctx: Context,
    layer: Layer,
    expression: Annotated[str | None, Field(description="QGIS expression, e.g. \"population\" > 10000 AND \"type\" = 'city'")] = None,
    text: Annotated[str | None, Field(description="Meaning to look for in the features' text attributes (semantic search)")] = None,
    limit: Limit = 10,
) -> CallToolResult:
    """Find features by their attributes with a QGIS expression (checked before running), e.g. "area" > 5000 or type = 'motorway', and/or rank them by the meaning of their text attributes."""
    deps = deps_of(ctx)
    from qgis.core import QgsFeatureRequest

    if not expression and not text:
        raise ToolInputError("Give an expression, a text to search for, or both.")
    project = require_project(deps.project())
    lyr = find_vector_layer(project, layer)
    # the gate judged this call with the same check (assess_search): outside the layer, it was asked first
    request = expressions.filter_request(expressions.check_filter(expression, lyr)) if expression \
        else QgsFeatureRequest()
    # ranking by meaning needs every candidate (up to the embedding cap); a plain filter needs limit + 1
    request.setLimit((MAX_FEATURES_EMBEDDED if text else limit) + 1)
    records = [feature_record(f) for f in lyr.getFeatures(request)]
    if text:
        records = await _rank_by_meaning(deps, records, text)
    shown, left_out = capped(records, limit)
    more = left_out > 0
    return ok({"layer": lyr.name(), "features": shown, "more_available": more, "ranked_by_meaning": bool(text)},
              f"{len(shown)}{'+' if more else ''} feature(s) of '{lyr.name()}' match" + ("; best first" if text else ""))


@assesses("search_vector_features")
async def assess_search(deps: ToolDeps, arguments: dict[str, Any]) -> Assessment:
    """A filter that reads only its layer runs; anything else is code and asks (on the GUI thread, like the tool)."""
    expression = arguments.get("expression")
    if not expression:
        return Assessment(False)
    try:
        lyr = find_vector_layer(require_project(deps.project()), str(arguments.get("layer", "")))
        check = expressions.check_filter(str(expression), lyr)
    except ToolInputError:
        return Assessment(False)  # nothing can run: the tool answers with what to fix
    return expressions.assess_filter(check, f"Search '{lyr.name()}' with an expression that reads outside the layer")


@tool(annotations=READ, meta=policy(requires=["selection"]))
async def get_selected_features(ctx: Context, layer: Annotated[str | None, Field(description="Only this layer")] = None,
                                limit: Limit = 20) -> CallToolResult:
    """The features the user selected on the map (per layer): attributes and lon/lat geometry. E.g. 'what did I select?'"""
    deps = deps_of(ctx)
    project = require_project(deps.project())
    layers = [find_vector_layer(project, layer)] if layer else vector_layers(project)
    out = []
    for lyr in layers:
        if lyr.selectedFeatureCount() == 0:
            continue
        to_ll = to_lonlat_transform(lyr, project)
        from qgis.core import QgsFeatureRequest

        selected = lyr.getSelectedFeatures(QgsFeatureRequest().setLimit(limit))  # not every selected feature
        shown = [feature_record(f, with_geometry=True, to_lonlat=to_ll) for f in selected]
        out.append({"layer": lyr.name(), "features": shown,
                    "left_out": max(0, lyr.selectedFeatureCount() - len(shown))})
    total = sum(len(e["features"]) + e["left_out"] for e in out)
    if not total:
        return ok({"selections": []}, "Nothing is selected on the map.")
    return ok({"selections": out}, f"{total} selected feature(s) in {len(out)} layer(s)")


async def _rank_by_meaning(deps: ToolDeps, records: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    if deps.embed is None:
        raise ToolInputError("Semantic search needs the embedding model, which is not available; "
                             "search with an expression instead.")
    if len(records) > MAX_FEATURES_EMBEDDED:
        raise ToolInputError(f"Too many features (> {MAX_FEATURES_EMBEDDED}) to rank by meaning; "
                             "narrow them with an expression first.")
    if not records:
        return records
    texts = [" ".join(str(v) for v in r["attributes"].values() if isinstance(v, str)) or str(r["fid"])
             for r in records]
    vectors = np.asarray(await deps.embed([text, *texts]), dtype=np.float64)
    norms = np.linalg.norm(vectors, axis=1)
    norms[norms == 0] = 1.0
    unit = vectors / norms[:, None]
    scores = unit[1:] @ unit[0]
    order = np.argsort(-scores, kind="stable")
    return [{**records[i], "score": round(float(scores[i]), 4)} for i in order]
