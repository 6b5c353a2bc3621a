"""The measurements themselves, in a worker thread: areas and perimeters, lengths (3D when the lines have Z),
and the features within a distance of a reference, each feature checked for validity first. Plain dicts out,
every number in metres or square metres with the method that produced it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..common import ToolInputError
from .measure_geometry import REFUSE, Gaps, area_and_perimeter, check, has_z, length_3d
from .measure_method import CrsUnit, MeasureMethod, distance_area
from .measure_source import FeatureFilter, LayerSnapshot, read_features

LISTED = 50  # features listed one by one; totals count them all


@dataclass
class Setup:
    """What a worker measures with: the method, the layer's unit, the transform context (a value)."""
    method: MeasureMethod
    unit: CrsUnit
    transform_context: Any
    invalid: str = "repair"


def _label(snap: LayerSnapshot, fid: int, attributes: dict) -> str:
    value = attributes.get(snap.label_field) if snap.label_field else None
    return str(value) if value not in (None, "") and not (hasattr(value, "isNull") and value.isNull()) else f"#{fid}"


def _checked(snap: LayerSnapshot, rows: list, setup: Setup) -> tuple[list, list[dict], list[dict]]:
    """(rows ready to measure, repairs made, features left out), or a refusal naming the invalid features."""
    ready, repaired, left_out = [], [], []
    for fid, attributes, geometry in rows:
        result = check(geometry, setup.invalid)
        if result.geometry is None:
            left_out.append({"fid": fid, "name": _label(snap, fid, attributes), "why": result.problem})
            continue
        if result.repaired:
            repaired.append({"fid": fid, "name": _label(snap, fid, attributes), "problem": result.problem})
        ready.append((fid, attributes, result.geometry))
    refused = [f for f in left_out if f["why"] != "no geometry"]
    if refused and setup.invalid == REFUSE:
        listed = "; ".join(f"{f['name']}: {f['why']}" for f in refused[:5])
        raise ToolInputError(f"{len(refused)} feature(s) of '{snap.name}' have invalid geometry ({listed}), so their "
                             "measure would be wrong. Measure with invalid='repair' (makeValid, said in the answer), "
                             "or fix them with native:fixgeometries.")
    return ready, repaired, left_out


def checks_words(repaired: list[dict], left_out: list[dict]) -> str:
    bits = []
    if repaired:
        kinds = Counter(r["problem"] for r in repaired)
        bits.append(f"{len(repaired)} invalid geometr{'y' if len(repaired) == 1 else 'ies'} repaired with makeValid: "
                    + "; ".join(f"{kind} ×{n}" if n > 1 else kind for kind, n in kinds.items()))
    if left_out:
        bits.append(f"{len(left_out)} feature(s) not measured and not in the totals: " + "; ".join(
            f"{f['name']}: {f['why']}" for f in left_out[:3]))
    return "; ".join(bits)


def areas(snap: LayerSnapshot, wanted: FeatureFilter, setup: Setup) -> dict[str, Any]:
    rows, matched = read_features(snap, wanted)
    ready, repaired, left_out = _checked(snap, rows, setup)
    measure = distance_area(snap.crs, setup.transform_context, setup.method)
    listed, total_area, total_perimeter = [], 0.0, 0.0
    for fid, attributes, geometry in ready:
        area, perimeter = area_and_perimeter(geometry, measure)
        total_area += area
        total_perimeter += perimeter
        if len(listed) < LISTED:
            listed.append({"fid": fid, "name": _label(snap, fid, attributes), "area_m2": round(area, 2),
                           "area_ha": round(area / 10_000, 4), "perimeter_m": round(perimeter, 2)})
    return {"features": listed, "measured": len(ready), "matched": matched, "repaired": repaired,
            "not_measured": left_out, "checks": checks_words(repaired, left_out),
            "total": {"area_m2": round(total_area, 2), "area_ha": round(total_area / 10_000, 4),
                      "area_km2": round(total_area / 1e6, 6), "perimeter_m": round(total_perimeter, 2)}}


def lengths(snap: LayerSnapshot, wanted: FeatureFilter, setup: Setup) -> dict[str, Any]:
    rows, matched = read_features(snap, wanted)
    ready, repaired, left_out = _checked(snap, rows, setup)
    measure = distance_area(snap.crs, setup.transform_context, setup.method)
    z_metres = setup.unit.metres if setup.unit.metres is not None else 1.0  # degrees: heights are in metres
    listed, total, total_flat, with_z = [], 0.0, 0.0, 0
    for fid, attributes, geometry in ready:
        flat = measure.measureLength(geometry)
        length = length_3d(geometry, measure, z_metres) if has_z(geometry) else flat
        with_z += has_z(geometry)
        total += length
        total_flat += flat
        if len(listed) < LISTED:
            listed.append({"fid": fid, "name": _label(snap, fid, attributes), "length_m": round(length, 3),
                           "horizontal_length_m": round(flat, 3)})
    heights = ""
    if with_z:
        unit = setup.unit.name if setup.unit.metres is not None else "metre"
        heights = (f"3D length along the slope ({with_z} line(s) with Z, heights read in {unit}s); "
                   f"the horizontal (2D) length is {total_flat:,.2f} m")
    return {"features": listed, "measured": len(ready), "matched": matched, "repaired": repaired,
            "not_measured": left_out, "checks": checks_words(repaired, left_out), "heights": heights,
            "total": {"length_m": round(total, 3), "length_km": round(total / 1000, 6),
                      "horizontal_length_m": round(total_flat, 3)}}


def to_lonlat(geometry: Any, crs: Any, transform_context: Any) -> Any:
    from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsGeometry

    moved = QgsGeometry(geometry)
    moved.transform(QgsCoordinateTransform(crs, QgsCoordinateReferenceSystem("EPSG:4326"), transform_context))
    return moved


def lonlat_measure(setup: Setup) -> Any:
    from qgis.core import QgsCoordinateReferenceSystem

    return distance_area(QgsCoordinateReferenceSystem("EPSG:4326"), setup.transform_context, setup.method)


def within(snap: LayerSnapshot, wanted: FeatureFilter, reference_lonlat: Any, metres: float,
           setup: Setup) -> dict[str, Any]:
    """Features of `snap` whose nearest point lies within `metres` of the reference (geodesic), nearest first."""
    rows, matched = read_features(snap, wanted)
    ready, repaired, left_out = _checked(snap, rows, setup)
    gaps = Gaps(reference_lonlat, lonlat_measure(setup), setup.transform_context)
    inside, near_misses = [], []
    for fid, attributes, geometry in ready:
        local = gaps.local(to_lonlat(geometry, snap.crs, setup.transform_context))
        if gaps.rough(local) > metres * 1.05 + 1.0:  # clearly beyond, whatever the projection's stretch
            continue
        gap = gaps.geodesic(local)
        row = {"fid": fid, "name": _label(snap, fid, attributes), "distance_m": round(gap, 2)}
        (inside if gap <= metres else near_misses).append(row)
    inside.sort(key=lambda r: r["distance_m"])
    near_misses.sort(key=lambda r: r["distance_m"])
    return {"count": len(inside), "features": inside[:LISTED], "ids": [r["fid"] for r in inside],
            "just_beyond": near_misses[:5], "measured": len(ready), "matched": matched, "repaired": repaired,
            "not_measured": left_out, "checks": checks_words(repaired, left_out)}
