"""Raster renderers: pseudocolour ramps chosen by what a band measures, RGB composites, classes, hillshade; and
what a single band measures, read from its STAC description (roles, unit, common name) and its names."""

from __future__ import annotations

import math
from typing import Any

from qgis.core import (
    QgsBasicNumericFormat,
    QgsColorRampLegendNodeSettings,
    QgsColorRampShader,
    QgsContrastEnhancement,
    QgsGradientColorRamp,
    QgsGradientStop,
    QgsHillshadeRenderer,
    QgsMultiBandColorRenderer,
    QgsPalettedRasterRenderer,
    QgsRasterLayer,
    QgsRasterShader,
    QgsSingleBandPseudoColorRenderer,
    QgsStyle,
)
from qgis.PyQt.QtGui import QColor

from ...common import ToolInputError
from .stac_assets import true_colour_bands

RAMP_BY_KIND = {"index": ("RdYlGn", False), "temperature": ("Spectral", True), "other": ("Viridis", False)}
INDEX_WORDS = ("ndvi", "ndwi", "ndmi", "evi", "savi", "nbr", "ndsi", "index", "indices")
ELEVATION_WORDS = ("elev", "dem", "dsm", "dtm", "height", "altitude", "terrain", "bathym", "relief")
TEMPERATURE_WORDS = ("temp", "lst", "thermal", "brightness_temperature", "lwir")
UNIT_WORDS = {"m": "m", "metre": "m", "metres": "m", "meter": "m", "meters": "m", "ft": "ft", "foot": "ft",
              "feet": "ft", "k": "K", "kelvin": "K", "degc": "°C", "celsius": "°C", "°c": "°C"}


def color_ramp(name: str, invert: bool = False) -> Any:
    if name.lower() == "terrain":
        ramp = _terrain_ramp()
    else:
        style = QgsStyle.defaultStyle()
        match = next((n for n in style.colorRampNames() if n.lower() == name.lower()), None)
        if match is None:
            raise ToolInputError(f"Unknown colour ramp '{name}'. Use one of: terrain, "
                                 + ", ".join(sorted(style.colorRampNames())[:40]))
        ramp = style.colorRamp(match)
    if invert:
        ramp.invert()
    return ramp


def _terrain_ramp() -> QgsGradientColorRamp:
    stops = [QgsGradientStop(0.25, QColor(126, 174, 86)), QgsGradientStop(0.5, QColor(235, 219, 140)),
             QgsGradientStop(0.75, QColor(160, 110, 70))]
    return QgsGradientColorRamp(QColor(40, 110, 60), QColor(250, 250, 250), False, stops)


def pseudocolor(layer: QgsRasterLayer, band: int, vmin: float, vmax: float, ramp_name: str,
                invert: bool = False, unit: str = "") -> QgsSingleBandPseudoColorRenderer:
    if vmax <= vmin:
        vmax = vmin + 1.0
    ramp_shader = QgsColorRampShader(vmin, vmax)
    ramp_shader.setSourceColorRamp(color_ramp(ramp_name, invert).clone())
    ramp_shader.setColorRampType(QgsColorRampShader.Interpolated)
    ramp_shader.classifyColorRamp(9, -1)  # 9 evenly spaced stops between vmin and vmax
    ramp_shader.setLegendSettings(legend_settings(vmin, vmax, unit))
    shader = QgsRasterShader(vmin, vmax)
    shader.setRasterShaderFunction(ramp_shader)
    renderer = QgsSingleBandPseudoColorRenderer(layer.dataProvider(), band, shader)
    renderer.setClassificationMin(vmin)
    renderer.setClassificationMax(vmax)
    layer.setRenderer(renderer)
    return renderer


def legend_settings(vmin: float, vmax: float, unit: str = "") -> QgsColorRampLegendNodeSettings:
    """The ramp's legend labels rounded to what the range can tell apart ("0.8", "160 m", not "0.793500"),
    with the unit after the number."""
    settings = QgsColorRampLegendNodeSettings()
    number = QgsBasicNumericFormat()
    number.setNumberDecimalPlaces(decimals_for(vmin, vmax))
    number.setShowTrailingZeros(True)
    number.setShowThousandsSeparator(False)
    settings.setNumericFormat(number)
    if unit:
        settings.setSuffix(f" {unit}")
    return settings


def decimals_for(vmin: float, vmax: float) -> int:
    """Decimals that tell a tenth of the range apart: 1 for −0.8…0.8, 0 for 160…520."""
    span = abs(vmax - vmin)
    if not math.isfinite(span) or span <= 0:
        return 2
    return max(0, min(6, 1 - math.floor(math.log10(span))))


def nice_bounds(low: float, high: float, centred: bool = False) -> tuple[float, float]:
    """The stretch widened to round numbers (−0.7935…0.7935 → −0.8…0.8; 159…516 → 150…550), so the legend's ends
    read as round values; `centred` keeps zero in the middle (a diverging index)."""
    if centred:
        bound = _round_up(max(abs(low), abs(high)) or 1.0)
        return -bound, bound
    span = high - low
    if span <= 0:
        return low, high
    step = 10 ** math.floor(math.log10(span)) / 2
    return math.floor(low / step) * step, math.ceil(high / step) * step


def _round_up(value: float) -> float:
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if step * power >= value * 0.999:
            return step * power
    return 10 * power


def measured_unit(text: str | None) -> str:
    """A STAC `unit` or a GDAL unit type in the legend's words ("metre" → "m"); "" when there is none."""
    word = str(text or "").strip()
    return UNIT_WORDS.get(word.lower(), word if 0 < len(word) <= 12 else "")


def what_it_measures(words: str, unit: str = "", roles: list[str] | tuple[str, ...] = ()) -> str:
    """What one band measures, from its names (asset key, band name and description, collection), its STAC
    roles and its unit: "index", "elevation", "temperature" or "other". A band in metres that says nothing
    else is an elevation (a DEM's asset is often just "data")."""
    text = " ".join([words, *roles]).lower()
    unit = measured_unit(unit)
    if any(w in text for w in INDEX_WORDS):
        return "index"
    if any(w in text for w in ELEVATION_WORDS) or unit in ("m", "ft"):
        return "elevation"
    if any(w in text for w in TEMPERATURE_WORDS) or unit in ("K", "°C"):
        return "temperature"
    return "other"


def style_for(layer: QgsRasterLayer, kind: str, low: float, high: float, unit: str = "") -> str:
    """A single-band layer styled for what it measures: an index on its diverging ramp centred on zero, an
    elevation on a hypsometric ramp, a temperature on a warm-cold ramp; round ends and the unit in the legend."""
    if kind == "elevation":
        low, high = nice_bounds(low, high)
        pseudocolor(layer, 1, low, high, "terrain", unit=unit)
        return f"hypsometric ramp {low:g}–{high:g}{' ' + unit if unit else ''}"
    centred = kind == "index"
    low, high = nice_bounds(low, high, centred=centred)
    name, invert = RAMP_BY_KIND.get(kind, RAMP_BY_KIND["other"])
    pseudocolor(layer, 1, low, high, name, invert, unit=unit)
    return f"{name} ramp {low:g}–{high:g}{' ' + unit if unit else ''}" + (" centred on 0" if centred else "")


def paletted(layer: QgsRasterLayer, band: int, values: list[float], labels: dict[float, str] | None = None,
             ramp_name: str = "Spectral") -> QgsPalettedRasterRenderer:
    ramp = color_ramp(ramp_name)
    classes = []
    for i, value in enumerate(values):
        colour = ramp.color(i / max(1, len(values) - 1))
        classes.append(QgsPalettedRasterRenderer.Class(value, colour, (labels or {}).get(value, f"{value:g}")))
    renderer = QgsPalettedRasterRenderer(layer.dataProvider(), band, classes)
    layer.setRenderer(renderer)
    return renderer


def rgb(layer: QgsRasterLayer, bands: tuple[int, int, int], ranges: list[tuple[float, float]] | None) -> Any:
    renderer = QgsMultiBandColorRenderer(layer.dataProvider(), *bands)
    setters = (renderer.setRedContrastEnhancement, renderer.setGreenContrastEnhancement,
               renderer.setBlueContrastEnhancement)
    for i, setter in enumerate(setters):
        enhancement = QgsContrastEnhancement(layer.dataProvider().dataType(bands[i]))
        low, high = ranges[i] if ranges else (0.0, 255.0)
        enhancement.setMinimumValue(low)
        enhancement.setMaximumValue(high if high > low else low + 1)
        enhancement.setContrastEnhancementAlgorithm(QgsContrastEnhancement.StretchToMinimumMaximum)
        setter(enhancement)
    layer.setRenderer(renderer)
    return renderer


def hillshade(layer: QgsRasterLayer, band: int = 1, azimuth: float = 315.0, altitude: float = 45.0) -> Any:
    renderer = QgsHillshadeRenderer(layer.dataProvider(), band, azimuth, altitude)
    layer.setRenderer(renderer)
    return renderer


def default_style(layer: QgsRasterLayer, kind: str, choice_kind: str, bands: list[dict[str, Any]],
                  classes: list[dict] | None = None) -> str:
    """Styles a freshly loaded STAC layer; returns the renderer's name for the tool's summary."""
    if choice_kind in ("visual", "rgb") and len(bands) >= 3:
        colour = true_colour_bands([{"common_name": b.get("common_name"), "name": b.get("stac_name") or b.get("name")}
                                    for b in bands])
        chosen = [bands[n - 1] for n in colour.bands]
        scaled = any((b.get("scale") or 1.0) != 1.0 or (b.get("offset") or 0.0) != 0.0 for b in chosen)
        byte = all(b.get("dtype") == "Byte" for b in chosen) and not scaled
        ranges = None if byte else [(b.get("p2", 0.0), b.get("p98", 1.0)) for b in chosen]
        rgb(layer, colour.bands, ranges)
        return f"multiband colour: {colour.words([str(b.get('name') or '') for b in bands])}"
    first = bands[0] if bands else {}
    if kind == "classes" and (classes or first.get("classes")):
        labels = {float(c["value"]): str(c.get("description") or c.get("name") or c["value"]) for c in classes or []}
        values = sorted(labels) if labels else first["classes"]
        paletted(layer, 1, values, labels)
        return "paletted classes"
    low, high = first.get("p2", 0.0), first.get("p98", 1.0)
    style_for(layer, kind, low, high, measured_unit(first.get("unit")))
    return "pseudocolour"
