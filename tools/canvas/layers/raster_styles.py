"""Raster renderers: pseudocolour ramps chosen by what a band measures, RGB composites, classes, hillshade."""

from __future__ import annotations

from typing import Any

from qgis.core import (
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
                invert: bool = False) -> QgsSingleBandPseudoColorRenderer:
    if vmax <= vmin:
        vmax = vmin + 1.0
    ramp_shader = QgsColorRampShader(vmin, vmax)
    ramp_shader.setSourceColorRamp(color_ramp(ramp_name, invert).clone())
    ramp_shader.setColorRampType(QgsColorRampShader.Interpolated)
    ramp_shader.classifyColorRamp(9, -1)  # 9 evenly spaced stops between vmin and vmax
    shader = QgsRasterShader(vmin, vmax)
    shader.setRasterShaderFunction(ramp_shader)
    renderer = QgsSingleBandPseudoColorRenderer(layer.dataProvider(), band, shader)
    renderer.setClassificationMin(vmin)
    renderer.setClassificationMax(vmax)
    layer.setRenderer(renderer)
    return renderer


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
    if kind == "elevation":
        pseudocolor(layer, 1, low, high, "terrain")
    else:
        if kind == "index":  # diverging ramp centred on zero
            bound = max(abs(low), abs(high)) or 1.0
            low, high = -bound, bound
        name, invert = RAMP_BY_KIND.get(kind, RAMP_BY_KIND["other"])
        pseudocolor(layer, 1, low, high, name, invert)
    return "pseudocolour"
