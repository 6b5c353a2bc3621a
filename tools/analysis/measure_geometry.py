"""One geometry measured on the ellipsoid, checked first: validity (GEOS's own test, repaired with makeValid or
refused), holes (an area subtracts them), heights (a line with Z is measured along its slope), and the distance
between two geometries as a geodesic between their nearest points.

Runs in a worker thread: QgsGeometry, QgsDistanceArea and QgsCoordinateTransform are values here, no project
object is reached.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

REPAIR, REFUSE = "repair", "refuse"
PROBLEM_WORDS = {  # GEOS's reason → what it means for a measurement
    "self-intersection": "a self-crossing ring (a 'bowtie'), whose plain area cancels out",
    "ring self-intersection": "a ring that touches itself",
    "nested shells": "a ring inside another outer ring (a hole wound like an outer ring is read as a second shell)",
    "hole lies outside shell": "a hole outside its outer ring",
    "nested holes": "a hole inside another hole",
    "interior is disconnected": "holes that cut the polygon in pieces",
    "too few points in geometry component": "a ring or line with too few points",
    "invalid coordinate": "a coordinate that is not a number",
    "ring is not closed": "a ring that is not closed",
}


@dataclass
class Checked:
    """A geometry ready to measure, or None with the reason it cannot be."""
    geometry: Any
    problem: str = ""  # what was wrong with it, in words; "" when it was valid
    repaired: bool = False


def check(geometry: Any, invalid: str) -> Checked:
    """GEOS's validity test; an invalid polygon is repaired (makeValid) or refused, as `invalid` says."""
    from qgis.core import QgsGeometry, QgsWkbTypes

    if geometry is None or geometry.isNull() or geometry.isEmpty():
        return Checked(None, "no geometry")
    if QgsWkbTypes.geometryType(geometry.wkbType()) == QgsWkbTypes.PointGeometry:
        return Checked(geometry)
    errors = geometry.validateGeometry(QgsGeometry.ValidatorGeos)
    if not errors:
        return Checked(geometry)
    problem = problem_words(errors[0].what())
    if invalid == REFUSE:
        return Checked(None, problem)
    fixed = geometry.makeValid()
    if fixed is None or fixed.isNull() or fixed.isEmpty():
        return Checked(None, f"{problem}, which makeValid could not repair")
    return Checked(fixed, problem, repaired=True)


def problem_words(reason: str) -> str:
    key = reason.strip().rstrip(".").lower()
    for known, words in PROBLEM_WORDS.items():
        if key.startswith(known):
            return words
    if " lies inside polygon " in key:  # QGIS's own validator's words for nested shells
        return PROBLEM_WORDS["nested shells"]
    return reason.strip() or "an invalid geometry"


def area_and_perimeter(geometry: Any, measure: Any) -> tuple[float, float]:
    """Square metres and metres on the ellipsoid; holes are subtracted, Z is not used (a horizontal area)."""
    return measure.measureArea(geometry), measure.measurePerimeter(geometry)


def has_z(geometry: Any) -> bool:
    from qgis.core import QgsWkbTypes

    return QgsWkbTypes.hasZ(geometry.wkbType())


def length_3d(geometry: Any, measure: Any, z_metres: float) -> float:
    """Metres along the line: each segment's ellipsoidal length and its rise (Z × `z_metres`), Pythagoras."""
    from qgis.core import QgsPointXY

    total = 0.0
    for part in geometry.asGeometryCollection() if geometry.isMultipart() else [geometry]:
        previous = None
        for vertex in part.vertices():
            if previous is not None:
                flat = measure.measureLine(QgsPointXY(previous.x(), previous.y()), QgsPointXY(vertex.x(), vertex.y()))
                rise = (vertex.z() - previous.z()) * z_metres if not (math.isnan(vertex.z()) or math.isnan(previous.z())) else 0.0
                total += math.hypot(flat, rise)
            previous = vertex
    return total


def local_crs(centre_lon: float, centre_lat: float) -> Any:
    """An azimuthal equidistant projection centred on the area: GEOS finds nearest points there, in metres."""
    from qgis.core import QgsCoordinateReferenceSystem

    return QgsCoordinateReferenceSystem.fromProj(
        f"+proj=aeqd +lat_0={centre_lat:.8f} +lon_0={centre_lon:.8f} +ellps=WGS84 +units=m +no_defs")


class Gaps:
    """Geodesic distances from one reference geometry (in lon/lat) to others (in lon/lat), in metres."""

    def __init__(self, reference_lonlat: Any, measure_lonlat: Any, transform_context: Any) -> None:
        from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsGeometry

        centre = reference_lonlat.centroid().asPoint()
        wgs84 = QgsCoordinateReferenceSystem("EPSG:4326")
        self._to_local = QgsCoordinateTransform(wgs84, local_crs(centre.x(), centre.y()), transform_context)
        self._to_lonlat = QgsCoordinateTransform(local_crs(centre.x(), centre.y()), wgs84, transform_context)
        self._measure = measure_lonlat
        self.reference = QgsGeometry(reference_lonlat)
        self.reference.transform(self._to_local)

    def local(self, geometry_lonlat: Any) -> Any:
        from qgis.core import QgsGeometry

        moved = QgsGeometry(geometry_lonlat)
        moved.transform(self._to_local)
        return moved

    def rough(self, local_geometry: Any) -> float:
        """The distance in the local projection (exact from its centre, close elsewhere): a first sieve."""
        return self.reference.distance(local_geometry)

    def geodesic(self, local_geometry: Any) -> float:
        """The geodesic between the nearest points GEOS finds; 0 when the geometries touch or overlap."""
        if self.reference.intersects(local_geometry):
            return 0.0
        line = self.reference.shortestLine(local_geometry)
        if line is None or line.isEmpty():
            return self.rough(local_geometry)
        line.transform(self._to_lonlat)
        ends = line.asPolyline()
        return self._measure.measureLine(ends[0], ends[-1])
