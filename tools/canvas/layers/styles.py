"""set_layer_style: raster ramps, min/max, band combinations, hillshade; vector single/categorized/graduated, labels."""

from __future__ import annotations

import asyncio
import logging
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field
from qgis.core import (
    QgsProviderRegistry,
    QgsRasterLayer,
    QgsRendererCategory,
    QgsRendererRange,
    QgsSingleSymbolRenderer,
    QgsSymbol,
    QgsVectorLayer,
    QgsVectorLayerSimpleLabeling,
)
from qgis.PyQt import sip
from qgis.PyQt.QtCore import QMetaType

from ...analysis import expressions
from ...common import WRITE, ToolInputError, ok, policy
from ...declare import deps_of, tool
from ...engine.gdal_names import project_source
from ..project_access import find_layer, history_of, project_of
from . import raster_styles, vector_values
from .mosaic import stretch_range

log = logging.getLogger(__name__)

MAX_CATEGORIES = 50


@tool(annotations=WRITE, meta=policy(requires=["qgis"]))
async def set_layer_style(
    ctx: Context,
    layer: Annotated[str, Field(description="Layer name")],
    ramp: Annotated[str | None, Field(description="Colour ramp by QGIS style name: Viridis, RdYlGn, Spectral, Greys, Blues, terrain...")] = None,
    invert_ramp: bool = False,
    minimum: Annotated[float | None, Field(description="Raster: value at the start of the ramp")] = None,
    maximum: Annotated[float | None, Field(description="Raster: value at the end of the ramp")] = None,
    band: Annotated[int | None, Field(description="Raster: band for a single-band ramp", ge=1)] = None,
    rgb_bands: Annotated[list[int] | None, Field(description="Raster: [red, green, blue] band numbers")] = None,
    hillshade: Annotated[bool, Field(description="Raster: show as hillshade (elevation)")] = False,
    opacity: Annotated[float | None, Field(description="0 (invisible) to 1 (opaque)", ge=0, le=1)] = None,
    renderer: Annotated[Literal["single", "categorized", "graduated"] | None, Field(description="Vector renderer")] = None,
    field: Annotated[str | None, Field(description="Vector: field for categorized/graduated")] = None,
    classes: Annotated[int, Field(description="Vector graduated: number of classes", ge=2, le=20)] = 5,
    color: Annotated[str | None, Field(description="Vector single: colour like '#3388ff' or 'red'")] = None,
    labels_field: Annotated[str | None, Field(description="Vector: label features with this field")] = None,
    labels: Annotated[bool | None, Field(description="Vector: turn labels on or off")] = None,
) -> CallToolResult:
    """Change how a layer looks: raster colour ramp, min/max stretch, band combination (true or false colour), hillshade, opacity; vector single/categorized/graduated colours by a field, labels on/off. E.g. 'use a red-yellow-green ramp on NDVI'."""
    deps = deps_of(ctx)
    target = find_layer(project_of(deps), layer)
    history_of(deps).renderer_changing(target)
    done: list[str] = []
    if isinstance(target, QgsRasterLayer):
        await _style_raster(target, ramp, invert_ramp, minimum, maximum, band, rgb_bands, hillshade, done)
    elif isinstance(target, QgsVectorLayer):
        await _style_vector(target, renderer, field, classes, ramp, invert_ramp, color, done)
        _labels(target, labels_field, labels, done)
    if opacity is not None:
        target.setOpacity(opacity)
        done.append(f"opacity {opacity:g}")
    if not done:
        raise ToolInputError("Nothing to change: give a ramp, min/max, bands, hillshade, opacity, renderer or labels.")
    target.triggerRepaint()
    return ok({"layer": target.name(), "renderer": target.renderer().type(), "changes": done},
              f"Styled '{target.name()}': {', '.join(done)}")


async def _style_raster(layer: QgsRasterLayer, ramp: str | None, invert: bool, vmin: float | None, vmax: float | None,
                  band: int | None, rgb_bands: list[int] | None, hillshade: bool, done: list[str]) -> None:
    count = layer.bandCount()
    for b in [band] + list(rgb_bands or []):
        if b is not None and not 1 <= b <= count:
            raise ToolInputError(f"Band {b} does not exist; '{layer.name()}' has bands 1..{count}.")
    if hillshade:
        raster_styles.hillshade(layer, band or 1)
        done.append("hillshade")
        return
    if rgb_bands:
        if len(rgb_bands) != 3:
            raise ToolInputError("rgb_bands needs three band numbers: [red, green, blue].")
        ranges = list(await asyncio.gather(*(band_range(layer, b) for b in rgb_bands)))
        raster_styles.rgb(layer, tuple(rgb_bands), ranges)
        done.append(f"bands {rgb_bands} as RGB")
        return
    if ramp or vmin is not None or vmax is not None or band:
        current = layer.renderer()
        use_band = band or (current.inputBand() if hasattr(current, "inputBand") else 1) or 1
        if vmin is not None and vmax is not None:
            low, high = vmin, vmax
        elif hasattr(current, "classificationMin") and band is None:
            low, high = current.classificationMin(), current.classificationMax()
        else:
            low, high = await band_range(layer, use_band)
        low = vmin if vmin is not None else low
        high = vmax if vmax is not None else high
        raster_styles.pseudocolor(layer, use_band, low, high, ramp or "Viridis", invert)
        done.append(f"ramp {ramp or 'Viridis'} {low:g}..{high:g} on band {use_band}")


async def band_range(layer: QgsRasterLayer, band: int) -> tuple[float, float]:
    """2–98 % of the band's values, sampled by GDAL in a worker thread: reading pixels of a remote raster on
    the GUI thread would freeze QGIS. Layers GDAL cannot open by their source fall back to QGIS's own cut."""
    name = layer.name()
    cut: tuple[float, float] | None = None
    gdal_read = layer.providerType() == "gdal"
    if gdal_read:
        try:
            cut = await asyncio.to_thread(stretch_range, project_source(layer.source()), band)
        except RuntimeError as exc:
            log.info("GDAL could not sample %s (%s); QGIS computes the stretch", name, exc)
            gdal_read = False
    if sip.isdeleted(layer):  # the user removed it while the worker read
        raise ToolInputError(f"'{name}' was removed from the project while its values were read; nothing changed.")
    if gdal_read:
        if cut is None:
            raise ToolInputError(f"Band {band} of '{name}' has no valid pixels to stretch over; give minimum and maximum.")
        return cut
    low, high = layer.dataProvider().cumulativeCut(band, 0.02, 0.98, layer.extent(), 250_000)
    return float(low), float(high)


async def _style_vector(layer: QgsVectorLayer, renderer: str | None, field: str | None, classes: int,
                        ramp: str | None, invert: bool, color: str | None, done: list[str]) -> None:
    if renderer is None and color is None:
        return
    if renderer in ("categorized", "graduated"):
        if not field or layer.fields().indexOf(field) < 0:
            names = ", ".join(f.name() for f in layer.fields())
            raise ToolInputError(f"Give `field`, one of: {names}")
    colour_ramp = raster_styles.color_ramp(ramp or ("Spectral" if renderer == "categorized" else "Viridis"), invert)
    read = await _field_values(layer, field) if renderer in ("categorized", "graduated") else None
    if renderer == "categorized":
        values = sorted(set(read) if read is not None else layer.uniqueValues(layer.fields().indexOf(field)), key=str)
        if len(values) > MAX_CATEGORIES:
            raise ToolInputError(f"'{field}' has {len(values)} distinct values; use graduated or another field.")
        categories = []
        for i, value in enumerate(values):
            symbol = QgsSymbol.defaultSymbol(layer.geometryType())
            symbol.setColor(colour_ramp.color(i / max(1, len(values) - 1)))
            categories.append(QgsRendererCategory(value, symbol, str(value)))
        layer.setRenderer(expressions.categorized_renderer(layer, field, categories))
        done.append(f"categorized by {field} ({len(categories)} classes)")
    elif renderer == "graduated":
        graduated = expressions.graduated_renderer(layer, field)
        graduated.setSourceColorRamp(colour_ramp.clone())
        graduated.setSourceSymbol(QgsSymbol.defaultSymbol(layer.geometryType()))
        method = _quantile()
        graduated.setClassificationMethod(method)
        if read is None:
            graduated.updateClasses(layer, classes)  # QGIS reads the values itself
        else:
            for bounds in method.classes([float(v) for v in read], classes):
                graduated.addClassRange(QgsRendererRange(bounds, QgsSymbol.defaultSymbol(layer.geometryType())))
            graduated.updateColorRamp(colour_ramp.clone())
        layer.setRenderer(graduated)
        done.append(f"graduated by {field} ({len(graduated.ranges())} classes)")
    else:
        symbol = QgsSymbol.defaultSymbol(layer.geometryType())
        if color:
            from qgis.PyQt.QtGui import QColor

            if not QColor(color).isValid():
                raise ToolInputError(f"'{color}' is not a colour; use '#rrggbb' or a name like 'red'.")
            symbol.setColor(QColor(color))
        layer.setRenderer(QgsSingleSymbolRenderer(symbol))
        done.append(f"single symbol {color or ''}".strip())


async def _field_values(layer: QgsVectorLayer, field: str) -> list[Any] | None:
    """The field's values read by OGR in a worker for a file-backed layer with a number or text field; None
    where QGIS must read them itself (other providers, other field types, SQL subsets)."""
    definition = layer.fields().field(field)
    if layer.providerType() != "ogr" or not (definition.isNumeric() or definition.type() == QMetaType.Type.QString):
        return None
    parts = QgsProviderRegistry.instance().decodeUri("ogr", layer.source())
    subset = layer.subsetString() or ""
    if not parts.get("path") or subset.lstrip().upper().startswith("SELECT"):
        return None
    name = layer.name()
    try:
        values = await asyncio.to_thread(vector_values.field_values, parts["path"], parts.get("layerName"),
                                         parts.get("layerId"), subset, field)
    except RuntimeError as exc:
        log.info("OGR could not read %s of %s (%s); QGIS reads the values", field, name, exc)
        values = None
    if sip.isdeleted(layer):
        raise ToolInputError(f"'{name}' was removed from the project while its values were read; nothing changed.")
    return values


def _quantile() -> Any:
    from qgis.core import QgsClassificationQuantile

    return QgsClassificationQuantile()


def _labels(layer: QgsVectorLayer, field: str | None, on: bool | None, done: list[str]) -> None:
    if field:
        if layer.fields().indexOf(field) < 0:
            raise ToolInputError(f"No field '{field}' in '{layer.name()}'.")
        layer.setLabeling(QgsVectorLayerSimpleLabeling(expressions.label_settings(layer, field)))
        layer.setLabelsEnabled(True)
        done.append(f"labels from {field}")
    elif on is not None:
        if on and layer.labeling() is None:
            raise ToolInputError("Say which field to label with: labels_field.")
        layer.setLabelsEnabled(on)
        done.append("labels on" if on else "labels off")
