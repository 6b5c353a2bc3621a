"""Measurements the analyst can hand to a client: areas, perimeters, lengths, distances and what lies within a
distance, on the ellipsoid and in metres / square metres / hectares whatever the layer's CRS (metres, US survey
feet, degrees, Web Mercator), 3D along lines that have Z, each geometry checked for validity (repaired with
makeValid and said, or refused with the reason), and the method in every answer.

The layer is read on the GUI thread only as far as is cheap (measure_source); the features are read and
measured in a worker thread (measure_runs).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from ..common import READ, WRITE, ToolInputError, ok, policy
from ..declare import deps_of, tool
from . import measure_runs as runs
from .layer_data import find_vector_layer, require_project
from .measure_method import crs_unit, method_for, metres_in
from .measure_source import FeatureFilter, snapshot

Layer = Annotated[str, Field(description="Vector layer name (or id) in the project")]
SelectedOnly = Annotated[bool, Field(description="Measure only the features selected on the map")]
FeatureIds = Annotated[list[int] | None, Field(description="Only these feature ids")]
Where = Annotated[str | None, Field(description="Only features matching this QGIS expression on the layer's fields, "
                                               "e.g. \"landuse\" = 'forest'")]
Invalid = Annotated[Literal["repair", "refuse"], Field(
    description="Invalid geometry (self-crossing ring, hole wound as a shell): repair it with makeValid and say so, "
                "or refuse with the reason")]


def _setup(project: Any, layer: Any, invalid: str) -> runs.Setup:
    unit = crs_unit(layer.crs())
    if unit.geographic and not layer.extent().isEmpty():
        box = layer.extent()
        if box.xMinimum() < -180.5 or box.xMaximum() > 360.5 or box.yMinimum() < -90.5 or box.yMaximum() > 90.5:
            raise ToolInputError(
                f"Layer '{layer.name()}' says its CRS is {unit.crs} (degrees) but its coordinates reach "
                f"{box.xMaximum():,.0f}, {box.yMaximum():,.0f}, which are not longitudes/latitudes: its CRS is wrong. "
                "Set the layer's real CRS (Layer Properties ▸ Source) and measure again.")
    return runs.Setup(method_for(project, layer.crs()), unit, project.transformContext(), invalid)


def _geometry_kind(layer: Any) -> str:
    from qgis.core import QgsWkbTypes

    return {QgsWkbTypes.PointGeometry: "point", QgsWkbTypes.LineGeometry: "line",
            QgsWkbTypes.PolygonGeometry: "polygon"}.get(layer.geometryType(), "table")


def _method_data(setup: runs.Setup) -> dict[str, Any]:
    return {"ellipsoid": setup.method.ellipsoid, "ellipsoid_name": setup.method.name, "layer_crs": setup.unit.crs,
            "layer_unit": setup.unit.name}


def _how(setup: runs.Setup, checks: str) -> str:
    how = f"{setup.method.words()}; layer CRS {setup.unit.words()}"
    return f"{how}; {checks}" if checks else how


@tool(annotations=READ, meta=policy(requires=["vector_layer"]))
async def measure_area(
    ctx: Context, layer: Layer, selected_only: SelectedOnly = False, feature_ids: FeatureIds = None,
    where: Where = None, invalid: Invalid = "repair",
) -> CallToolResult:
    """Area and perimeter of polygons in m², hectares, km², on the ellipsoid in any CRS; invalid rings repaired. E.g. 'area of this parcel in hectares'"""
    deps = deps_of(ctx)
    project = require_project(deps.project())
    lyr = find_vector_layer(project, layer)
    if _geometry_kind(lyr) != "polygon":
        raise ToolInputError(f"Layer '{lyr.name()}' holds {_geometry_kind(lyr)}s, which have no area; "
                             "use measure_length for lines.")
    setup = _setup(project, lyr, invalid)
    wanted = FeatureFilter(selected_only, feature_ids, where)
    snap = snapshot(lyr, wanted)
    result = await asyncio.to_thread(runs.areas, snap, wanted, setup)
    total = result["total"]
    how = _how(setup, result["checks"])
    summary = (f"Area of {result['measured']} feature(s) of '{lyr.name()}' ({wanted.words()}): "
               f"{total['area_ha']:,.4f} ha = {total['area_m2']:,.2f} m² in all; perimeter {total['perimeter_m']:,.2f} m. "
               f"Method: {how}.")
    return ok({"layer": lyr.name(), "filter": wanted.words(), **_method_data(setup), **result,
               "units": {"area": "m² (area_m2), ha (area_ha), km² (area_km2)", "perimeter": "m"}, "method": how}, summary)


@tool(annotations=READ, meta=policy(requires=["vector_layer"]))
async def measure_length(
    ctx: Context, layer: Layer, selected_only: SelectedOnly = False, feature_ids: FeatureIds = None,
    where: Where = None, invalid: Invalid = "repair",
) -> CallToolResult:
    """Length of lines in metres and km, on the ellipsoid in any CRS, 3D when lines have Z. E.g. 'how long is the pipeline?'"""
    deps = deps_of(ctx)
    project = require_project(deps.project())
    lyr = find_vector_layer(project, layer)
    if _geometry_kind(lyr) != "line":
        raise ToolInputError(f"Layer '{lyr.name()}' holds {_geometry_kind(lyr)}s, not lines; "
                             "measure_area gives the perimeter of polygons.")
    setup = _setup(project, lyr, invalid)
    wanted = FeatureFilter(selected_only, feature_ids, where)
    snap = snapshot(lyr, wanted)
    result = await asyncio.to_thread(runs.lengths, snap, wanted, setup)
    total = result["total"]
    how = "; ".join(b for b in (_how(setup, result["checks"]), result["heights"]) if b)
    summary = (f"Length of {result['measured']} feature(s) of '{lyr.name()}' ({wanted.words()}): "
               f"{total['length_m']:,.3f} m ({total['length_km']:,.4f} km) in all. Method: {how}.")
    return ok({"layer": lyr.name(), "filter": wanted.words(), **_method_data(setup), **result,
               "units": {"length": "m (length_m), km (length_km)"}, "method": how}, summary)


@tool(annotations=READ, meta=policy(requires=["vector_layer"]))
async def measure_distance(
    ctx: Context,
    from_layer: Annotated[str | None, Field(description="Layer of the first feature")] = None,
    from_feature_id: Annotated[int | None, Field(description="Its feature id (default: the one selected)")] = None,
    from_lonlat: Annotated[list[float] | None, Field(description="Or a point [lon, lat]")] = None,
    to_layer: Annotated[str | None, Field(description="Layer of the second feature")] = None,
    to_feature_id: Annotated[int | None, Field(description="Its feature id (default: the one selected)")] = None,
    to_lonlat: Annotated[list[float] | None, Field(description="Or a point [lon, lat]")] = None,
) -> CallToolResult:
    """Geodesic distance in metres between two shapes or points. E.g. 'how far is the school from the river?'"""
    deps = deps_of(ctx)
    project = require_project(deps.project())
    first, first_name, first_crs = _one_place(project, from_layer, from_feature_id, from_lonlat, "from")
    second, second_name, second_crs = _one_place(project, to_layer, to_feature_id, to_lonlat, "to")
    setup = runs.Setup(method_for(project, first_crs), crs_unit(first_crs), project.transformContext())

    def measure() -> float:
        a = runs.to_lonlat(first, first_crs, setup.transform_context)
        b = runs.to_lonlat(second, second_crs, setup.transform_context)
        gaps = runs.Gaps(a, runs.lonlat_measure(setup), setup.transform_context)
        return gaps.geodesic(gaps.local(b))

    metres = await asyncio.to_thread(measure)
    how = f"geodesic between the nearest points, {setup.method.words()}"
    return ok({"from": first_name, "to": second_name, "distance_m": round(metres, 2), "distance_km": round(metres / 1000, 4),
               "method": how, "ellipsoid": setup.method.ellipsoid, "units": {"distance": "m (distance_m), km (distance_km)"}},
              f"Distance from {first_name} to {second_name}: {metres:,.2f} m ({metres / 1000:,.3f} km). Method: {how}.")


def _one_place(project: Any, layer: str | None, feature_id: int | None, lonlat: list[float] | None,
               side: str) -> tuple[Any, str, Any]:
    """GUI thread: (geometry, its name in words, its CRS) of one end of a distance."""
    from qgis.core import QgsCoordinateReferenceSystem, QgsGeometry, QgsPointXY

    if lonlat is not None:
        if len(lonlat) != 2 or not (-180 <= lonlat[0] <= 180 and -90 <= lonlat[1] <= 90):
            raise ToolInputError(f"{side}_lonlat must be [longitude, latitude] in degrees.")
        return (QgsGeometry.fromPointXY(QgsPointXY(*lonlat)), f"({lonlat[0]:.5f}, {lonlat[1]:.5f})",
                QgsCoordinateReferenceSystem("EPSG:4326"))
    if not layer:
        raise ToolInputError(f"Say where the distance goes {side}: {side}_layer with {side}_feature_id, or {side}_lonlat.")
    lyr = find_vector_layer(project, layer)
    if feature_id is None:
        selected = lyr.selectedFeatureIds()
        if len(selected) != 1:
            raise ToolInputError(f"Give {side}_feature_id: '{lyr.name()}' has {len(selected)} selected features, "
                                 "and a distance needs one.")
        feature_id = selected[0]
    feature = lyr.getFeature(feature_id)
    if not feature.isValid() or feature.geometry().isEmpty():
        raise ToolInputError(f"Layer '{lyr.name()}' has no feature {feature_id} with a geometry.")
    return QgsGeometry(feature.geometry()), f"feature {feature_id} of '{lyr.name()}'", lyr.crs()


async def _within(ctx: Context, layer: str, distance: float, unit: str, of_layer: str | None,
                  of_feature_id: int | None, of_lonlat: list[float] | None) -> tuple[Any, dict[str, Any], str]:
    deps = deps_of(ctx)
    project = require_project(deps.project())
    lyr = find_vector_layer(project, layer)
    if distance < 0:
        raise ToolInputError("The distance must be 0 or more.")
    metres = distance * metres_in(unit)
    setup = _setup(project, lyr, "repair")
    wanted = FeatureFilter()
    snap = snapshot(lyr, wanted)
    if of_lonlat is not None or of_feature_id is not None:
        reference, reference_name, reference_crs = _one_place(project, of_layer, of_feature_id, of_lonlat, "of")
        reference_snap = None
    elif of_layer:
        of = find_vector_layer(project, of_layer)
        use_selection = of.selectedFeatureCount() > 0
        reference_snap = (snapshot(of, FeatureFilter(selected_only=use_selection)), of.crs())
        reference_name = f"the {'selected' if use_selection else ''} features of '{of.name()}'".replace("the  ", "the ")
        reference = reference_crs = None
    else:
        raise ToolInputError("Say within what distance of what: of_layer (its selection, or all its features), "
                             "of_layer with of_feature_id, or of_lonlat [lon, lat].")

    def measure() -> dict[str, Any]:
        if reference_snap is not None:
            rows, _ = runs.read_features(reference_snap[0], FeatureFilter())
            from qgis.core import QgsGeometry

            parts = [runs.to_lonlat(g, reference_snap[1], setup.transform_context) for _f, _a, g in rows
                     if g is not None and not g.isEmpty()]
            if not parts:
                raise ToolInputError(f"{reference_name} have no geometry to measure from.")
            ref = QgsGeometry.unaryUnion([p.makeValid() for p in parts])
        else:
            ref = runs.to_lonlat(reference, reference_crs, setup.transform_context)
        return runs.within(snap, wanted, ref, metres, setup)

    result = await asyncio.to_thread(measure)
    how = (f"geodesic distance between nearest points, {setup.method.words()}; {distance:g} {unit} = {metres:,.2f} m"
           + (f"; {result['checks']}" if result["checks"] else ""))
    return lyr, {**result, "layer": lyr.name(), "of": reference_name, "distance_m": round(metres, 3),
                 "method": how, "ellipsoid": setup.method.ellipsoid, "units": {"distance_m": "m"}}, how


@tool(annotations=READ, meta=policy(requires=["vector_layer"]))
async def count_within_distance(
    ctx: Context, layer: Annotated[str, Field(description="Layer whose features are counted")],
    distance: Annotated[float, Field(description="The distance, in `unit`")],
    unit: Annotated[str, Field(description="m, km, ft, US ft, mi")] = "m",
    of_layer: Annotated[str | None, Field(description="Distance from this layer's selected features (or all of them)")] = None,
    of_feature_id: Annotated[int | None, Field(description="Or from this feature of of_layer")] = None,
    of_lonlat: Annotated[list[float] | None, Field(description="Or from this point [lon, lat]")] = None,
) -> CallToolResult:
    """How many lie within a distance in metres of a line, area or point, nearest first. E.g. 'how many wells are within 500 m of the river?'"""
    lyr, data, how = await _within(ctx, layer, distance, unit, of_layer, of_feature_id, of_lonlat)
    return ok(data, f"{data['count']} feature(s) of '{lyr.name()}' lie within {distance:g} {unit} of {data['of']}. "
                    f"Method: {how}.")


@tool(annotations=WRITE, meta=policy(requires=["vector_layer"]))
async def select_within_distance(
    ctx: Context, layer: Annotated[str, Field(description="Layer whose features are selected")],
    distance: Annotated[float, Field(description="The distance, in `unit`")],
    unit: Annotated[str, Field(description="m, km, ft, US ft, mi")] = "m",
    of_layer: Annotated[str | None, Field(description="Distance from this layer's selected features (or all of them)")] = None,
    of_feature_id: Annotated[int | None, Field(description="Or from this feature of of_layer")] = None,
    of_lonlat: Annotated[list[float] | None, Field(description="Or from this point [lon, lat]")] = None,
) -> CallToolResult:
    """Select what lies within a distance in metres of a line, area or point. E.g. 'select the buildings within 100 m of the road'."""
    lyr, data, how = await _within(ctx, layer, distance, unit, of_layer, of_feature_id, of_lonlat)
    lyr.selectByIds(data["ids"])
    return ok({**data, "selected": len(data["ids"])},
              f"Selected {data['count']} feature(s) of '{lyr.name()}' within {distance:g} {unit} of {data['of']}. "
              f"Method: {how}.")
