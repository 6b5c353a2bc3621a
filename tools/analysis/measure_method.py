"""How a measurement is made, in words the analyst can check: which ellipsoid (the project's, or the layer CRS's
when the project sets none: QGIS would then measure planar, in the CRS's own units), and what a layer's
coordinates are counted in (metre, US survey foot, degree), read from the CRS itself.

Plain values only: `MeasureMethod` and `CrsUnit` cross to worker threads, `distance_area` is built where the
measuring happens (QgsDistanceArea is a value type, no project object in it).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from ..common import ToolInputError

NO_ELLIPSOID = ("", "NONE")
FALLBACK_ELLIPSOID = "EPSG:7030"  # WGS 84, when neither the project nor the layer's CRS names one
WEB_MERCATOR = ("EPSG:3857", "EPSG:900913", "EPSG:3785", "ESRI:102100", "ESRI:102113")


@dataclass(frozen=True)
class CrsUnit:
    """What one coordinate of a CRS counts: `name` ('metre', 'US survey foot', 'degree'), how many metres one unit
    is (None for degrees, whose size on the ground depends on the latitude), and the CRS's id."""
    crs: str
    name: str
    metres: float | None
    geographic: bool

    @property
    def is_metre(self) -> bool:
        return self.metres is not None and abs(self.metres - 1.0) < 1e-12

    @property
    def web_mercator(self) -> bool:
        """A projected CRS whose planar lengths are stretched by 1/cos(latitude) (areas by its square)."""
        return self.crs.upper() in WEB_MERCATOR

    @property
    def plural(self) -> str:
        return self.name[:-4] + "feet" if self.name.endswith("foot") else f"{self.name}s"

    def words(self) -> str:
        return f"{self.crs} (unit: {self.name})"


@dataclass(frozen=True)
class MeasureMethod:
    """The ellipsoid a measurement is made on, and why that one."""
    ellipsoid: str  # QGIS's acronym, e.g. 'EPSG:7030'
    name: str  # 'WGS 84'
    chosen: str  # "the project's ellipsoid" / "the ellipsoid of the layer's CRS; the project sets none"

    def words(self) -> str:
        shown = self.name if self.ellipsoid in self.name else f"{self.name} ({self.ellipsoid})"
        return f"ellipsoidal on {shown}, {self.chosen}"


def crs_unit(crs: Any) -> CrsUnit:
    """The unit of a QgsCoordinateReferenceSystem, as its own definition says (GDAL's reading of its WKT)."""
    from osgeo import osr
    from qgis.core import QgsCoordinateReferenceSystem

    label = crs.authid() or crs.description() or "a custom CRS"
    if not crs.isValid():
        raise ToolInputError("The layer has no valid CRS, so its coordinates have no known unit; set its CRS "
                             "(Layer Properties ▸ Source) and ask again.")
    srs = osr.SpatialReference()
    if srs.ImportFromWkt(crs.toWkt(QgsCoordinateReferenceSystem.WKT_PREFERRED_GDAL)) != 0:
        raise ToolInputError(f"GDAL cannot read the definition of {label}, so its unit is unknown; "
                             "reproject the layer to a known CRS first.")
    if srs.IsGeographic():
        return CrsUnit(label, "degree", None, True)
    return CrsUnit(label, _unit_name(srs.GetLinearUnitsName()), float(srs.GetLinearUnits()), False)


def _unit_name(name: str) -> str:
    plain = {"metre": "metre", "meter": "metre", "foot": "foot", "us survey foot": "US survey foot",
             "foot_us": "US survey foot", "us_survey_foot": "US survey foot"}
    return plain.get(name.strip().lower(), name)


@functools.lru_cache(maxsize=1)
def _ellipsoid_names() -> dict[str, str]:
    from qgis.core import QgsEllipsoidUtils

    return {d.acronym: d.description for d in QgsEllipsoidUtils.definitions()}


def ellipsoid_name(acronym: str) -> str:
    if acronym.upper() in NO_ELLIPSOID:
        return "none (planar)"
    return _ellipsoid_names().get(acronym, acronym)


def known_ellipsoid(text: str) -> str | None:
    """QGIS's acronym of an ellipsoid named by its acronym, EPSG code or description ('GRS 1980'), or None."""
    from qgis.core import QgsEllipsoidUtils

    wanted = text.strip()
    if not wanted:
        return None
    names = _ellipsoid_names()
    if wanted in names or QgsEllipsoidUtils.ellipsoidParameters(wanted).valid:
        return wanted
    folded = _fold(wanted)
    for acronym, description in names.items():
        if folded in (_fold(acronym), _fold(description), _fold(description.split("(")[0])):
            return acronym
    return None


def _fold(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())


def method_for(project: Any, layer_crs: Any, whose: str = "layer") -> MeasureMethod:
    """The project's ellipsoid; when it sets none, the one of the layer's (or `whose`) CRS (or WGS 84), said so."""
    chosen = project.ellipsoid() if project is not None else ""
    if chosen and chosen.upper() not in NO_ELLIPSOID:
        return MeasureMethod(chosen, ellipsoid_name(chosen), "the project's ellipsoid")
    own = layer_crs.ellipsoidAcronym() if layer_crs is not None and layer_crs.isValid() else ""
    if own and own.upper() not in NO_ELLIPSOID:
        return MeasureMethod(own, ellipsoid_name(own),
                             f"the {whose} CRS's ellipsoid (the project sets none, so QGIS itself would measure planar)")
    return MeasureMethod(FALLBACK_ELLIPSOID, ellipsoid_name(FALLBACK_ELLIPSOID),
                         "WGS 84 by default (neither the project nor the layer's CRS names an ellipsoid)")


def distance_area(crs: Any, transform_context: Any, method: MeasureMethod) -> Any:
    """A QgsDistanceArea that measures geometries in `crs` on the method's ellipsoid, in metres."""
    from qgis.core import QgsDistanceArea

    area = QgsDistanceArea()
    area.setSourceCrs(crs, transform_context)
    area.setEllipsoid(method.ellipsoid)
    if not area.willUseEllipsoid():
        raise ToolInputError(f"QGIS cannot measure on the ellipsoid {method.ellipsoid} from {crs.authid()}; "
                             "set another ellipsoid with set_measurement_ellipsoid.")
    return area


LENGTH_UNITS = {  # a unit as the analyst writes it → metres in one
    "m": 1.0, "metre": 1.0, "metres": 1.0, "meter": 1.0, "meters": 1.0, "km": 1000.0, "kilometre": 1000.0,
    "kilometres": 1000.0, "kilometer": 1000.0, "kilometers": 1000.0, "cm": 0.01,
    "ft": 0.3048, "foot": 0.3048, "feet": 0.3048, "us ft": 1200 / 3937, "us survey foot": 1200 / 3937,
    "us survey feet": 1200 / 3937, "ftus": 1200 / 3937, "yd": 0.9144, "yard": 0.9144, "yards": 0.9144,
    "mi": 1609.344, "mile": 1609.344, "miles": 1609.344, "nmi": 1852.0, "nautical mile": 1852.0,
    "nautical miles": 1852.0,
}
DEGREE_WORDS = ("deg", "degree", "degrees", "°")


def metres_in(unit: str) -> float:
    """Metres in one `unit` ('m', 'km', 'ft', 'US ft', 'mi'…); a ToolInputError lists the units known."""
    key = " ".join(unit.strip().lower().replace("_", " ").split())
    if key in LENGTH_UNITS:
        return LENGTH_UNITS[key]
    raise ToolInputError(f"Unknown length unit '{unit}'; use m, km, ft, US ft, yd, mi or nmi.")
