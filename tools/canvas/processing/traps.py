"""After a Processing run: each number it returns with its unit, and the known traps stated next to it.

QGIS returns numbers without units and measures what it is told to: the 2D length of lines that have heights,
a centroid that falls outside an L-shaped parcel, points lying on the line between two districts (counted in
neither, or in both), the plain mean of a rate where each row stands for a different population. Each check reads
at most CHECKED features of the inputs (on the GUI thread, so never a whole large layer) and says so.
"""

from __future__ import annotations

import re
from typing import Any

from ...analysis.measure_method import crs_unit
from .allowlist import listed_id
from .inputs import processing_ellipsoid

CHECKED = 5_000  # features a check reads from one input
LENGTH_ALGORITHMS = {"native:sumlinelengths", "qgis:exportaddgeometrycolumns"}
LOCATION_ALGORITHMS = {  # algorithm → (the layer tested, the layer it is tested against)
    "native:countpointsinpolygon": ("POINTS", "POLYGONS"), "native:joinattributesbylocation": ("INPUT", "JOIN"),
    "qgis:joinbylocationsummary": ("INPUT", "JOIN"), "native:extractbylocation": ("INPUT", "INTERSECT"),
    "native:selectbylocation": ("INPUT", "INTERSECT"),
}
RATE_FIELD = re.compile(r"rate|ratio|pct|percent|share|prop|density|per_?cap|per_?1000|_per_|avg|average|mean",
                        re.IGNORECASE)
WEIGHT_FIELD = re.compile(r"pop|inhabitant|resident|household|persons|people|labou?r|workforce|employ|total|"
                          r"count|weight|enrol", re.IGNORECASE)
COUNTS = {"COUNT", "UNIQUE", "EMPTY", "FILLED", "NUMPOINTS", "FEATURE_COUNT", "TOTAL_COUNT"}
LENGTH_WORDS = ("LENGTH", "DISTANCE", "PERIMETER", "WIDTH", "HEIGHT")


def _layer(project: Any, params: dict[str, Any], name: str) -> Any:
    value = params.get(name)
    return project.mapLayer(value) if isinstance(value, str) else None


def _first_input(alg: Any, params: dict[str, Any], project: Any) -> Any:
    for definition in alg.parameterDefinitions():
        if definition.type() in ("source", "vector", "raster", "layer"):
            layer = _layer(project, params, definition.name())
            if layer is not None:
                return layer
    return None


def numbers_with_units(alg: Any, results: dict[str, Any], params: dict[str, Any], project: Any) -> dict[str, Any]:
    """Each numeric result of the run with its unit, as far as the algorithm and its input say it."""
    layer = _first_input(alg, params, project)
    field = params.get("FIELD_NAME") or params.get("VALUES_FIELD_NAME")
    found = {}
    for output in alg.outputDefinitions():
        value = results.get(output.name())
        if output.type() != "outputNumber" or not isinstance(value, (int, float)) or isinstance(value, bool):
            continue
        found[output.name()] = {"value": value, "unit": _unit_of(output.name(), layer, field)}
    return found


def _unit_of(name: str, layer: Any, field: Any) -> str:
    upper = name.upper()
    if upper in COUNTS or upper.endswith("_COUNT"):
        return "a count"
    if upper.endswith(("MIN_LENGTH", "MAX_LENGTH", "MEAN_LENGTH")) and field:
        return "characters (of the text values)"
    if field:
        return f"the unit of field '{field}' (QGIS does not know it; the data's documentation does)"
    if layer is None or not layer.crs().isValid():
        return "unknown (QGIS states none)"
    unit = crs_unit(layer.crs())
    base = "degrees" if unit.geographic else unit.plural
    if "AREA" in upper:
        return f"square {base} (planar, the unit of {unit.crs})"
    if any(word in upper for word in LENGTH_WORDS):
        return f"{base} (planar, the unit of {unit.crs})"
    return "unknown (QGIS states none)"


def traps_after(alg: Any, params: dict[str, Any], project: Any) -> list[str]:
    """The known traps of this run, each a sentence to put next to its numbers."""
    notes, algorithm_id = [], listed_id(alg)
    notes += _flat_lengths(alg, params, project)
    if algorithm_id == "native:centroids":
        notes += _centroids_outside(_layer(project, params, "INPUT"), bool(params.get("ALL_PARTS")))
    if algorithm_id in LOCATION_ALGORITHMS:
        notes += _points_on_boundaries(algorithm_id, *(_layer(project, params, n) for n in LOCATION_ALGORITHMS[algorithm_id]))
    notes += _unweighted_rates(alg, params, project)
    return notes


def field_units(alg: Any, params: dict[str, Any], project: Any) -> dict[str, str]:
    """What the numbers in the fields an algorithm adds are (the measuring ones)."""
    ellipsoid, algorithm_id = processing_ellipsoid(project).words(), listed_id(alg)
    if algorithm_id == "native:sumlinelengths":
        return {str(params.get("LEN_FIELD") or "LENGTH"): f"metres, {ellipsoid}, 2D (heights not used)",
                str(params.get("COUNT_FIELD") or "COUNT"): "a count of lines"}
    if algorithm_id == "qgis:exportaddgeometrycolumns":
        # CALC_METHOD up to QGIS 3.40; METHOD once the algorithm moved to C++ (native:exportaddgeometrycolumns, 3.44)
        choice = "CALC_METHOD" if alg.parameterDefinition("CALC_METHOD") is not None else "METHOD"
        method = params.get(choice, 0)
        layer = _first_input(alg, params, project)
        if method == 2:
            return {"*": f"{ellipsoid}, in the project's units (metres / square metres by default), 2D"}
        crs = project.crs() if method == 1 else (layer.crs() if layer is not None else None)
        if crs is not None and crs.isValid():
            unit = crs_unit(crs)
            base = "degrees" if unit.geographic else unit.plural
            return {"*": f"planar in {unit.crs}: {base} and square {base}, 2D ({choice} 2 measures on the ellipsoid)"}
    return {}


def _flat_lengths(alg: Any, params: dict[str, Any], project: Any) -> list[str]:
    from qgis.core import QgsWkbTypes

    measures = listed_id(alg) in LENGTH_ALGORITHMS or any(
        re.search(r"\$length|\blength\s*\(|\$perimeter", str(params.get(n) or ""), re.IGNORECASE)
        for n in ("FORMULA", "EXPRESSION"))
    if not measures:
        return []
    notes = []
    for definition in alg.parameterDefinitions():
        layer = _layer(project, params, definition.name())
        if layer is not None and hasattr(layer, "wkbType") and QgsWkbTypes.hasZ(layer.wkbType()):
            notes.append(f"'{layer.name()}' has heights (Z), which QGIS's lengths leave out: the lengths here are 2D "
                         "(horizontal), shorter than along the slope. measure_length gives the 3D length.")
    return notes


def _features(layer: Any) -> list[Any]:
    from qgis.core import QgsFeatureRequest

    return list(layer.getFeatures(QgsFeatureRequest().setLimit(CHECKED)))


def _checked_words(layer: Any) -> str:
    count = layer.featureCount()
    return "" if count <= CHECKED else f" (among the first {CHECKED:,} of {count:,} features checked)"


def _centroids_outside(layer: Any, all_parts: bool) -> list[str]:
    if layer is None or not hasattr(layer, "getFeatures"):
        return []
    outside = []
    for feature in _features(layer):
        geometry = feature.geometry()
        parts = geometry.asGeometryCollection() if all_parts and geometry.isMultipart() else [geometry]
        if any(not part.isEmpty() and not part.contains(part.centroid()) for part in parts):
            outside.append(feature.id())
    if not outside:
        return []
    listed = ", ".join(str(f) for f in outside[:8]) + ("…" if len(outside) > 8 else "")
    return [f"{len(outside)} centroid(s) fall outside their own polygon of '{layer.name()}' (L-shaped, ring or "
            f"multi-part shapes; features {listed}){_checked_words(layer)}: joined by location they land in a "
            "neighbour. native:pointonsurface gives a point inside each polygon."]


def _points_on_boundaries(algorithm_id: str, tested: Any, against: Any) -> list[str]:
    from qgis.core import QgsGeometry, QgsSpatialIndex, QgsWkbTypes

    layers = [lyr for lyr in (tested, against) if lyr is not None and hasattr(lyr, "geometryType")]
    points = next((lyr for lyr in layers if lyr.geometryType() == QgsWkbTypes.PointGeometry), None)
    polygons = next((lyr for lyr in layers if lyr.geometryType() == QgsWkbTypes.PolygonGeometry), None)
    if points is None or polygons is None or points.crs() != polygons.crs():
        return []
    edges = {f.id(): QgsGeometry(f.geometry().constGet().boundary()) for f in _features(polygons)
             if not f.geometry().isEmpty()}
    index = QgsSpatialIndex()
    for fid, edge in edges.items():
        index.addFeature(fid, edge.boundingBox())
    extent = polygons.extent()
    tolerance = max(extent.width(), extent.height(), 1e-9) * 1e-9
    on_edge, total = 0, 0
    for feature in _features(points):
        total += 1
        point = feature.geometry()
        near = index.intersects(point.boundingBox().buffered(tolerance))
        if any(edges[fid].distance(point) <= tolerance for fid in near):
            on_edge += 1
    if not on_edge:
        return []
    how = ("countpointsinpolygon counts such a point in none of them" if algorithm_id == "native:countpointsinpolygon"
           else "a test by 'intersects' or 'touches' puts it in every polygon it touches, 'within' or 'contains' in none")
    return [f"{on_edge} of {total} point(s) of '{points.name()}' lie exactly on a boundary of '{polygons.name()}' "
            f"(on the line between two polygons, or an outer edge){_checked_words(points)}: {how}. Decide which "
            "polygon each belongs to before trusting counts or joins."]


def _unweighted_rates(alg: Any, params: dict[str, Any], project: Any) -> list[str]:
    algorithm_id = listed_id(alg)
    if algorithm_id == "qgis:basicstatisticsforfields":
        layer, fields = _layer(project, params, "INPUT_LAYER"), [params.get("FIELD_NAME")]
    elif algorithm_id == "qgis:statisticsbycategories":
        layer, fields = _layer(project, params, "INPUT"), [params.get("VALUES_FIELD_NAME")]
    elif algorithm_id == "native:aggregate":
        layer = _layer(project, params, "INPUT")
        fields = [a.get("input", "").strip('"') for a in params.get("AGGREGATES") or []
                  if isinstance(a, dict) and a.get("aggregate") == "mean"]
    else:
        return []
    if layer is None or not hasattr(layer, "fields"):
        return []
    notes = []
    for rate in (f for f in fields if isinstance(f, str) and RATE_FIELD.search(f) and f in layer.fields().names()):
        weight = next((f.name() for f in layer.fields() if f.name() != rate and f.isNumeric()
                       and WEIGHT_FIELD.search(f.name())), None)
        if weight is None:
            continue
        weighted = _weighted_mean(layer, rate, weight)
        shown = f" Weighted by '{weight}' it is {weighted:.6g} (Σ {rate} × {weight} ÷ Σ {weight})" if weighted is not None else ""
        notes.append(f"The mean of '{rate}' is unweighted: each feature counts once, whatever its '{weight}'. A rate is "
                     f"averaged weighted by what it is a rate of.{shown}{_checked_words(layer)}.")
    return notes


def _weighted_mean(layer: Any, rate: str, weight: str) -> float | None:
    numerator = denominator = 0.0
    for feature in _features(layer):
        r, w = feature[rate], feature[weight]
        try:
            r, w = float(r), float(w)
        except (TypeError, ValueError):
            continue
        numerator += r * w
        denominator += w
    return numerator / denominator if denominator else None
