"""An atlas page's own numbers: the area-weighted statistics of a raster (the index the chat just computed)
inside each page's feature, computed once in worker threads, and printed on the page by a label whose
expression picks the page's value by feature id. The expression is built from integers and numbers
formatted here, never from a layer's or a model's text, so it stays editable and inert."""

from __future__ import annotations

import json
from typing import Any

from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsFeatureRequest

from ...analysis.expressions import value_literal
from ...analysis.raster_inputs import resolve_raster
from ...analysis.raster_tools import run_gdal
from ...common import ToolInputError
from ...deps import ToolDeps
from ...engine import change_grid

MAX_PAGES = 200  # features whose statistics an atlas computes


def page_geometries(project: Any, coverage: Any, ids: list[int]) -> dict[int, dict]:
    """The pages' features as GeoJSON in lon/lat (GUI thread; at most MAX_PAGES features read)."""
    request = QgsFeatureRequest().setFilterFids(ids) if ids else QgsFeatureRequest()
    request.setLimit(MAX_PAGES + 1)
    to_lonlat = QgsCoordinateTransform(coverage.crs(), QgsCoordinateReferenceSystem("EPSG:4326"), project)
    shapes: dict[int, dict] = {}
    for feature in coverage.getFeatures(request):
        geometry = feature.geometry()
        if geometry.isEmpty():
            continue
        geometry.transform(to_lonlat)
        shapes[feature.id()] = json.loads(geometry.asJson(8))
    if len(shapes) > MAX_PAGES:
        raise ToolInputError(f"Statistics are computed for at most {MAX_PAGES} pages; select fewer features.")
    return shapes


async def page_statistics(deps: ToolDeps, raster: str, shapes: dict[int, dict]) -> dict[int, dict]:
    """Per feature id: the raster's area-weighted mean, min, max and pixels inside it (band 1)."""
    path, options = resolve_raster(deps, raster)
    found = {}
    for fid, shape in shapes.items():
        polygon = shape if shape.get("type") == "Polygon" else _largest_part(shape)
        if polygon is None:
            continue
        stats = await run_gdal(change_grid.zonal, options, path, 1, polygon, "EPSG:4326")
        if stats.get("pixels_touched"):
            found[fid] = {"mean": stats["weighted_mean"], "min": stats["min"], "max": stats["max"],
                          "pixels": stats["pixels_touched"]}
    return found


def _largest_part(shape: dict) -> dict | None:
    if shape.get("type") != "MultiPolygon" or not shape.get("coordinates"):
        return None
    part = max(shape["coordinates"], key=lambda rings: len(rings[0]))
    return {"type": "Polygon", "coordinates": part}


def statistics_expression(stats: dict[int, dict]) -> str:
    """The label text that prints the page's own numbers: a CASE on the atlas feature's id, built from
    integers and formatted numbers only."""
    if not stats:
        return "no valid pixel"
    cases = " ".join(f"WHEN $id = {int(fid)} THEN {value_literal(_line(values))}" for fid, values in sorted(stats.items()))
    return f"[% CASE {cases} ELSE {value_literal('no valid pixel')} END %]"


def _line(values: dict) -> str:
    return (f"mean {float(values['mean']):.3f} (min {float(values['min']):.3f}, max {float(values['max']):.3f}; "
            f"{int(values['pixels'])} pixels)")

