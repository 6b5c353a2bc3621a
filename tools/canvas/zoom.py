"""zoom_to_location: a lon/lat with a scale or zoom level, a bbox, a layer, a feature, or a place name."""

from __future__ import annotations

import math
from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsCsException,
    QgsPointXY,
    QgsRectangle,
    QgsVectorLayer,
)

from ..common import WRITE, ToolInputError, check_bbox, ok, policy
from ..declare import deps_of, tool
from ..deps import ToolDeps
from .place_lookup import describe, find_place
from .project_access import canvas_of, find_layer, history_of, project_of

WGS84 = QgsCoordinateReferenceSystem("EPSG:4326")
ZOOM0_SCALE = 559_082_264.028  # web-map zoom level 0 at 96 dpi; each level halves it
DEFAULT_SCALE = 25_000  # when the map had no extent yet and no scale is asked
CITY_RADII_KM = ((1_000_000, 20.0), (100_000, 10.0), (0, 5.0))  # (population from, km around a city's centre)


@tool(annotations=WRITE, meta=policy(requires=["qgis"]))
async def zoom_to_location(
    ctx: Context,
    lon: Annotated[float | None, Field(description="Longitude in degrees (with lat)", ge=-180, le=180)] = None,
    lat: Annotated[float | None, Field(description="Latitude in degrees (with lon)", ge=-90, le=90)] = None,
    scale: Annotated[float | None, Field(description="Map scale denominator, e.g. 25000 for 1:25,000", gt=0)] = None,
    zoom_level: Annotated[float | None, Field(description="Web-map zoom level 0-22 instead of scale", ge=0, le=24)] = None,
    bbox: Annotated[list[float] | None, Field(description="[west, south, east, north] in degrees")] = None,
    layer: Annotated[str | None, Field(description="Zoom to this layer (name), or search its features")] = None,
    feature_id: Annotated[int | None, Field(description="Feature id within `layer`")] = None,
    place: Annotated[str | None, Field(description=(
        "A place name: a feature of the project's vector layers, else a city, region or country from the "
        "offline gazetteer, e.g. 'Lyon', 'Bavaria', 'Kenya', 'Paris, US'"))] = None,
    country: Annotated[str | None, Field(description=(
        "With place: the country or US state it is in (name or code), when several places share the name"))] = None,
) -> CallToolResult:
    """Move (pan, centre) or zoom the map: to a lon/lat at a scale or zoom level, to a bbox, to a layer or one of its features, or to a named place (city, region, country, or a feature of the project's layers), offline. E.g. 'zoom to Lyon'."""
    deps = deps_of(ctx)
    canvas = canvas_of(deps)
    project = project_of(deps)
    target_crs = canvas.mapSettings().destinationCrs()
    if scale is None and zoom_level is not None:
        scale = ZOOM0_SCALE / (2 ** zoom_level)
    found = await find_place(project, place, layer, country) if place and lon is None and bbox is None else None
    history_of(deps).view_changing(canvas)
    if lon is not None and lat is not None:
        centre = _transform(project, WGS84, target_crs).transform(QgsPointXY(lon, lat))
        current = canvas.scale() if not canvas.extent().isEmpty() else 0
        canvas.setExtent(QgsRectangle(centre.x() - 1e-3, centre.y() - 1e-3, centre.x() + 1e-3, centre.y() + 1e-3))
        canvas.setCenter(centre)
        canvas.zoomScale(scale or current or DEFAULT_SCALE)
        what = f"{lat:.5f}, {lon:.5f}"
    elif bbox is not None:
        w, s, e, n = check_bbox(bbox)
        canvas.setExtent(_transform(project, WGS84, target_crs).transformBoundingBox(QgsRectangle(w, s, e, n)))
        what = "the bbox"
    elif found is not None:
        if found.rect is not None:
            _zoom_to_rect(canvas, project, found.rect, found.crs, scale)
        elif scale:  # a city known by its centre only, at the scale asked
            centre = _transform(project, WGS84, target_crs).transform(QgsPointXY(found.place.lon, found.place.lat))
            _centre_at(canvas, centre, scale)
        else:  # the city and its surroundings, whatever the canvas' shape
            _zoom_to_rect(canvas, project, _around(found.place.lon, found.place.lat, found.place.population),
                          WGS84, None)
        what = describe(found, place)
    elif layer:
        target = find_layer(project, layer)
        rect, what = target.extent(), f"layer '{target.name()}'"
        if feature_id is not None:
            if not isinstance(target, QgsVectorLayer):
                raise ToolInputError(f"'{target.name()}' is not a vector layer; it has no features.")
            feature = target.getFeature(feature_id)
            if not feature.isValid() or not feature.hasGeometry():
                raise ToolInputError(f"Layer '{target.name()}' has no feature {feature_id} with a geometry.")
            rect, what = feature.geometry().boundingBox(), f"feature {feature_id} of '{target.name()}'"
        _zoom_to_rect(canvas, project, rect, target.crs(), scale)
    else:
        raise ToolInputError("Say where to zoom: lon and lat, a bbox, a layer (optionally feature_id), or a place name.")
    canvas.refresh()
    view = view_summary(canvas)
    if found is not None:
        p = found.place
        view["place"] = {"name": p.name, "kind": p.kind, "source": p.source, "context": p.context,
                         "lon": round(p.lon, 5), "lat": round(p.lat, 5)}
    return ok(view, f"Zoomed to {what} at 1:{canvas.scale():,.0f}")


def bring_into_view(deps: ToolDeps, layers: list) -> tuple[dict[str, Any], str]:
    """After a tool added `layers`: the analyst's view stays when it shows them; otherwise the map moves to
    them (undone with the turn). Returns what the result says about the view: data and words."""
    iface = deps.iface()
    canvas = iface.mapCanvas() if iface is not None else None
    if canvas is None or not layers:  # no map (Processing, outside clients): nothing to bring into view
        return {}, ""
    project = project_of(deps)
    target_crs = canvas.mapSettings().destinationCrs()
    if not target_crs.isValid():  # a map without a CRS yet: QGIS sets it up from the first layer itself
        return {}, ""
    rect = None
    for layer in layers:
        try:
            part = _transform(project, layer.crs(), target_crs).transformBoundingBox(layer.extent())
        except QgsCsException:
            continue
        if part.isEmpty() or not part.isFinite():
            continue
        if rect is None:
            rect = QgsRectangle(part)
        else:
            rect.combineExtentWith(part)
    if rect is None:
        return {}, ""
    if shows(canvas.extent(), rect):
        return {"view": "kept", **view_summary(canvas)}, "; it is in the current view"
    history_of(deps).view_changing(canvas)
    _zoom_to_rect(canvas, project, rect, target_crs, None)
    canvas.refresh()
    return ({"view": "moved to the new layer", **view_summary(canvas)},
            f"; the map showed another area, so it now shows the new layer at 1:{canvas.scale():,.0f}")


def shows(view: QgsRectangle, rect: QgsRectangle) -> bool:
    """Does a view show a layer of extent `rect` (same CRS) so that a person sees it: it fills a quarter of
    the view, or half of it lies in the view and it is not a speck (a twentieth of the view across)?"""
    if view.isEmpty() or not view.intersects(rect):
        return False
    inside = view.intersect(rect)
    if inside.area() >= 0.25 * view.area():
        return True
    big_enough = max(rect.width() / view.width(), rect.height() / view.height()) >= 0.05
    return inside.area() >= 0.5 * rect.area() and big_enough


def view_summary(canvas: Any) -> dict[str, Any]:
    extent = canvas.extent()
    return {"extent": [extent.xMinimum(), extent.yMinimum(), extent.xMaximum(), extent.yMaximum()],
            "crs": canvas.mapSettings().destinationCrs().authid(), "scale": round(canvas.scale(), 1)}


def _transform(project: Any, source: Any, target: Any) -> QgsCoordinateTransform:
    return QgsCoordinateTransform(source, target, project.transformContext())


def _zoom_to_rect(canvas: Any, project: Any, rect: QgsRectangle, crs: Any, scale: float | None) -> None:
    rect = _transform(project, crs, canvas.mapSettings().destinationCrs()).transformBoundingBox(rect)
    if rect.isEmpty():  # a point feature: centre on it
        _centre_at(canvas, rect.center(), scale or DEFAULT_SCALE)
        return
    canvas.setExtent(rect.buffered(max(rect.width(), rect.height()) * 0.05))
    if scale:
        canvas.zoomScale(scale)


def _centre_at(canvas: Any, centre: QgsPointXY, scale: float) -> None:
    canvas.setExtent(QgsRectangle(centre.x() - 1e-3, centre.y() - 1e-3, centre.x() + 1e-3, centre.y() + 1e-3))
    canvas.setCenter(centre)
    canvas.zoomScale(scale)


def _around(lon: float, lat: float, population: int) -> QgsRectangle:
    radius_km = next(km for floor, km in CITY_RADII_KM if population >= floor)
    dlat = radius_km / 111.0
    dlon = dlat / max(0.05, math.cos(math.radians(lat)))
    return QgsRectangle(lon - dlon, lat - dlat, lon + dlon, lat + dlat)
