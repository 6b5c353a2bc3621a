"""Distances and measure expressions of a Processing call, checked against the unit of the layer they apply to,
before it runs.

QGIS reads a distance parameter in the units of its parent layer's CRS: DISTANCE 500 on an EPSG:4326 layer is
500 degrees. A value given with its unit ('500 m', '0.3 km', '1000 ft', '0.01 deg') is converted to the layer's
unit and the conversion is said; a plain number is taken as the layer's unit only where that unit is the metre,
and refused elsewhere with the unit it would have meant. A length in metres has no single size in degrees, so on a
geographic layer it is refused with what to do instead. In Web Mercator a metre on the map is 1/cos(latitude)
metres on the ground: converted at the layer's latitude when that is one scale, refused when the layer spans many.

Measure functions in an expression: `area()`, `length()`, `perimeter()` are planar in the layer's units (square
degrees, square feet), so they are refused where that unit is not the metre or the CRS stretches (Web Mercator);
`$area`, `$length` and `$perimeter` measure on the ellipsoid in the project's units, which the answer states.
Call on the main thread (reads the project's layers).
"""

from __future__ import annotations

import math
import re
from typing import Any

from ...analysis.measure_method import DEGREE_WORDS, CrsUnit, crs_unit, metres_in
from ...common import ToolInputError
from . import allowlist as allow
from .inputs import processing_ellipsoid
from .params import strings_in
from .validity import code_of

NUMBER_DISTANCES = {  # number (not distance) parameters QGIS reads in the input layer's units → their parent
    ("native:taperedbuffer", "START_WIDTH"): "INPUT", ("native:taperedbuffer", "END_WIDTH"): "INPUT",
    ("native:wedgebuffers", "OUTER_RADIUS"): "INPUT", ("native:wedgebuffers", "INNER_RADIUS"): "INPUT",
}
MERCATOR_SPREAD = 0.02  # the ground scale of Web Mercator may vary this much across a layer before we refuse
_WITH_UNIT = re.compile(r"^\s*([-+]?\d+(?:[.,]\d+)?(?:e[-+]?\d+)?)\s*([^\d\s].*?)?\s*$", re.IGNORECASE)
_PLANAR = re.compile(r"\b(area|length|perimeter)\s*\(", re.IGNORECASE)
_ELLIPSOIDAL = re.compile(r"\$(area|length|perimeter)\b", re.IGNORECASE)


def qualify_inputs(alg: Any, params: dict[str, Any], project: Any) -> list[str]:
    """Converts the distances of `params` in place to their layers' units; returns what was done, in words.
    Refuses (ToolInputError) a distance or measure expression whose number would be in the wrong unit."""
    notes: list[str] = []
    for definition in alg.parameterDefinitions():
        name = definition.name()
        parent = definition.parentParameterName() if definition.type() == "distance" else \
            NUMBER_DISTANCES.get((allow.listed_id(alg), name))
        if parent is None:
            continue
        value = params.get(name)
        if value is None:  # not given: QGIS's own default, in the layer's unit as in its dialog; said, not changed
            notes.append(_default_note(name, definition.defaultValue(), *_parent(params.get(parent), project)))
            continue
        if value == "" or (isinstance(value, (int, float)) and value == 0):
            continue
        converted, note = _distance(allow.listed_id(alg), name, value, *_parent(params.get(parent), project))
        params[name] = converted
        notes.append(note)
    notes += _measure_expressions(alg, params, project)
    return [n for n in notes if n]


def _parent(value: Any, project: Any) -> tuple[Any, Any, str]:
    """(CRS, extent or None, name in words) of what a distance is measured in: a layer, or a CRS parameter."""
    from qgis.core import QgsCoordinateReferenceSystem

    layer = project.mapLayer(value) if isinstance(value, str) else None
    if layer is not None:
        return layer.crs(), layer.extent(), f"'{layer.name()}'"
    if isinstance(value, str) and value.strip():
        crs = QgsCoordinateReferenceSystem(value.strip())
        return (crs, None, value.strip()) if crs.isValid() else (None, None, repr(value))
    return None, None, "its input"


def _default_note(name: str, default: Any, crs: Any, _extent: Any, layer: str) -> str:
    if not isinstance(default, (int, float)) or isinstance(default, bool) or default == 0 or crs is None:
        return ""
    unit = crs_unit(crs)
    return (f"{name} not given: QGIS uses its default {default:g} in {'degrees' if unit.geographic else unit.plural}, "
            f"the unit of {unit.crs} ({layer})")


def split_unit(value: Any) -> tuple[float, str | None]:
    """(number, unit as written or None) of a distance value: 500, '500', '500 m', '0.01°'."""
    if isinstance(value, bool):
        raise ToolInputError(f"{value!r} is not a distance.")
    if isinstance(value, (int, float)):
        return float(value), None
    found = _WITH_UNIT.match(str(value))
    if not found:
        raise ToolInputError(f"'{value}' is not a distance; give a number with its unit, e.g. '500 m' or '0.5 km'.")
    return float(found.group(1).replace(",", ".")), (found.group(2) or None)


def _distance(algorithm_id: str, name: str, value: Any, crs: Any, extent: Any, layer: str) -> tuple[float, str]:
    number, unit = split_unit(value)
    if crs is None:
        if unit is not None:
            raise ToolInputError(f"{algorithm_id} {name} = {value!r}: the CRS of {layer} is unknown, so the distance "
                                 "cannot be put in its unit. Give the input layer first.")
        return number, f"{name} {number:g} is in the units of {layer}'s CRS, which could not be read"
    target = crs_unit(crs)
    if unit is not None and unit.strip().lower() in DEGREE_WORDS:
        if not target.geographic:
            raise ToolInputError(f"{algorithm_id} {name} = {value!r}: {layer} is in {target.words()}, not degrees; "
                                 "give the distance in metres, e.g. '500 m'.")
        return number, f"{name} = {number:g} degree(s), the unit of {target.crs}, as given"
    if target.geographic:
        meant = (f"is in {target.crs}, whose unit is the degree" if unit else
                 f"would be {number:g} degrees, the unit of {target.crs} (about {_ground(number * 111_320)} at the "
                 "equator)")
        raise ToolInputError(
            f"{algorithm_id} {name} = {value!r}: {layer} {meant}. QGIS reads this distance in the layer's unit, the "
            f"degree, and a length in metres has no single size in degrees (a degree of longitude shrinks toward the "
            f"poles). Reproject the layer to a projected CRS in metres first (native:reprojectlayer, "
            f"e.g. TARGET_CRS {utm_zone(crs, extent)}) and run this on the new layer with the distance in metres; or "
            "count/select with count_within_distance or select_within_distance, which measure in metres on the "
            f"ellipsoid. If you really mean degrees, give '{number:g} deg'.")
    metres = number * metres_in(unit) if unit is not None else None
    if target.web_mercator:
        return _mercator(algorithm_id, name, value, number if metres is None else metres, crs, extent, layer)
    if metres is None:
        if target.is_metre:
            return number, f"{name} = {number:g} m (the unit of {target.crs})"
        raise ToolInputError(
            f"{algorithm_id} {name} = {number:g} on {layer} would be {number:g} {target.plural} "
            f"({number * target.metres:,.2f} m), the unit of {target.crs}. Give the distance with its unit, "
            f"e.g. '{number:g} m' or '{number:g} ft', and it is converted to the layer's unit.")
    converted = metres / target.metres
    return converted, (f"{name} = {number:g} {unit} = {converted:,.4f} {target.plural}, "
                       f"the unit of {target.crs} (converted)")


def _ground(metres: float) -> str:
    return f"{metres / 1000:,.0f} km" if metres >= 10_000 else f"{metres:,.0f} m"


def _mercator(algorithm_id: str, name: str, value: Any, ground_metres: float, crs: Any, box: Any,
             layer: str) -> tuple[float, str]:
    """Ground metres → Web Mercator units at the layer's latitudes; refused when those span several scales."""
    from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsProject

    to_lonlat = QgsCoordinateTransform(crs, QgsCoordinateReferenceSystem("EPSG:4326"), QgsProject.instance())
    if box is None or box.isNull():
        raise ToolInputError(f"{algorithm_id} {name} = {value!r} on {layer} (Web Mercator): the ground size of a "
                             "Web Mercator metre depends on the latitude, which is unknown here; reproject to a "
                             "local projected CRS first (native:reprojectlayer).")
    south, north = (to_lonlat.transform(box.center().x(), y).y() for y in (box.yMinimum(), box.yMaximum()))
    scales = [1 / math.cos(math.radians(lat)) for lat in (south, north)]
    if max(scales) / min(scales) - 1 > MERCATOR_SPREAD:
        raise ToolInputError(
            f"{algorithm_id} {name} = {value!r} on {layer}: in Web Mercator a metre on the map is 1/cos(latitude) "
            f"metres on the ground, and this layer spans {south:.1f}° to {north:.1f}° of latitude, where that scale "
            f"changes by {100 * (max(scales) / min(scales) - 1):.0f} %. Reproject the layer to a local projected CRS "
            f"(native:reprojectlayer, e.g. TARGET_CRS {utm_zone(crs, box)}) and run this there.")
    centre = (south + north) / 2
    converted = ground_metres / math.cos(math.radians(centre))
    return converted, (f"{name} = {ground_metres:,.2f} m on the ground = {converted:,.2f} Web Mercator units at "
                       f"{centre:.2f}° latitude (converted; Web Mercator stretches lengths by 1/cos(latitude))")


def utm_zone(crs: Any, extent: Any) -> str:
    """The UTM zone of a layer's centre, as an EPSG id, to suggest for a reprojection."""
    from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsProject

    if extent is None or extent.isNull():
        return "the UTM zone of the data"
    centre = QgsCoordinateTransform(crs, QgsCoordinateReferenceSystem("EPSG:4326"),
                                    QgsProject.instance()).transform(extent.center())
    zone = min(60, max(1, int((centre.x() + 180) // 6) + 1))
    return f"EPSG:{(32600 if centre.y() >= 0 else 32700) + zone}"


def _measure_expressions(alg: Any, params: dict[str, Any], project: Any) -> list[str]:
    """Planar measure functions refused where their unit is not the metre; ellipsoidal ones stated."""
    texts = [t for d in alg.parameterDefinitions() if not d.isDestination()
             and allow.role_of(allow.listed_id(alg), d.name(), d.type()) == allow.CODE for t in strings_in(params.get(d.name()))]
    if not texts:
        return []
    layer = next((project.mapLayer(params.get(d.name())) for d in alg.parameterDefinitions()
                  if d.type() in ("source", "vector") and isinstance(params.get(d.name()), str)
                  and project.mapLayer(params.get(d.name())) is not None), None)
    if layer is None:
        return []
    unit = crs_unit(layer.crs())
    notes = []
    for text in texts:
        code = code_of(text)  # text in quotes is data, not a call
        planar = sorted({m.lower() for m in _PLANAR.findall(code)})
        if planar:
            notes.append(_planar_note(planar, unit, layer))
        ellipsoidal = sorted({m.lower() for m in _ELLIPSOIDAL.findall(code)})
        if ellipsoidal:
            notes.append(_ellipsoidal_note(ellipsoidal, project, layer))
    return list(dict.fromkeys(notes))


def _planar_note(functions: list[str], unit: CrsUnit, layer: Any) -> str:
    called = ", ".join(f"{f}()" for f in functions)
    if unit.is_metre and not unit.web_mercator:
        return f"{called} measure planar in {unit.crs}, in metres (square metres for area)"
    why = ("square degrees and degrees" if unit.geographic else
           "Web Mercator units, stretched by 1/cos(latitude) (areas by its square)" if unit.web_mercator else
           f"{unit.plural} (square {unit.plural} for area)")
    raise ToolInputError(
        f"{called} in this expression measure planar in the layer's own units: on '{layer.name()}' ({unit.crs}) that "
        f"is {why}, not metres. Use $area, $length or $perimeter (ellipsoidal, in the project's units: metres and "
        "square metres by default), or measure_area / measure_length, which answer in m² and m with their method.")


def _ellipsoidal_note(functions: list[str], project: Any, layer: Any) -> str:
    from qgis.core import QgsUnitTypes

    method = processing_ellipsoid(project)
    called = ", ".join(f"${f}" for f in functions)
    units = (f"{QgsUnitTypes.toAbbreviatedString(project.distanceUnits())} for lengths, "
             f"{QgsUnitTypes.toAbbreviatedString(project.areaUnits())} for areas")
    return f"{called}: {method.words()}, in the project's units ({units}); 2D, heights not used"


