"""Before a Processing call measures polygons, their validity: QGIS stops an algorithm at an invalid geometry
only where the algorithm asks it to, and the field calculator does not (it skips the check), so `$area` of a
self-crossing ring returns the difference of its lobes, and a shapefile hole wound like an outer ring adds its area.

The input's features are read in a worker (measure_source: the layer's source reopened, or a memory layer's
rows read on the GUI thread) and checked with GEOS; an invalid one refuses the call with the reason and what to do.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from ...analysis.measure_geometry import REFUSE, check
from ...analysis.measure_source import FeatureFilter, LayerSnapshot, rows_of, snapshot
from ...common import ToolInputError
from . import allowlist as allow
from .params import strings_in

MEASURED = re.compile(r"\$area|\$perimeter|\b(?:area|perimeter)\s*\(", re.IGNORECASE)
MEASURING_ALGORITHMS = {"qgis:exportaddgeometrycolumns"}
CHECKED = 200_000  # features read; a bigger layer is checked that far and the answer says so
_QUOTED = re.compile(r"'(?:[^'\\]|\\.|'')*'|\"(?:[^\"\\]|\\.)*\"")


def code_of(expression: str) -> str:
    """An expression with its quoted text and field names blanked: what is left are the calls."""
    return _QUOTED.sub("''", expression)


def _measured_polygons(alg: Any, params: dict[str, Any], project: Any) -> Any:
    """The polygon layer this call measures, or None."""
    from qgis.core import QgsVectorLayer, QgsWkbTypes

    measures = allow.listed_id(alg) in MEASURING_ALGORITHMS or any(
        MEASURED.search(code_of(text)) for d in alg.parameterDefinitions() if not d.isDestination()
        and allow.role_of(allow.listed_id(alg), d.name(), d.type()) == allow.CODE for text in strings_in(params.get(d.name())))
    if not measures:
        return None
    for definition in alg.parameterDefinitions():
        value = params.get(definition.name())
        layer = project.mapLayer(value) if isinstance(value, str) else None
        if isinstance(layer, QgsVectorLayer) and layer.geometryType() == QgsWkbTypes.PolygonGeometry:
            return layer
    return None


async def refuse_invalid_measured(alg: Any, params: dict[str, Any], project: Any) -> list[str]:
    """Main thread; the features are checked in a worker. Returns a note when only part of the layer was checked."""
    layer = _measured_polygons(alg, params, project)
    if layer is None:
        return []
    snap = snapshot(layer, FeatureFilter())
    invalid, checked = await asyncio.to_thread(_invalid_features, snap)
    if invalid:
        listed = "; ".join(f"feature {fid}: {why}" for fid, why in invalid[:5])
        raise ToolInputError(
            f"{len(invalid)} feature(s) of '{layer.name()}' have invalid geometry ({listed}), so the areas or "
            f"perimeters {alg.id()} would compute are wrong. Measure with measure_area, which repairs them with "
            "makeValid and says so, or repair the layer with native:fixgeometries and run this on the result.")
    count = layer.featureCount()
    if count > checked:
        return [f"the validity of the first {checked:,} of {count:,} features of '{layer.name()}' was checked"]
    return []


def _invalid_features(snap: LayerSnapshot) -> tuple[list[tuple[int, str]], int]:
    """Worker thread: (fid, what is wrong) of the invalid features among the first CHECKED, and how many were read."""
    invalid, checked = [], 0
    for fid, _attributes, geometry in rows_of(snap, CHECKED):
        checked += 1
        result = check(geometry, REFUSE)
        if result.geometry is None and result.problem != "no geometry":
            invalid.append((fid, result.problem))
    return invalid, checked
