"""A Processing call in the analyst's words, for the confirmation card: "Buffer 'parcels' (4 features) by 10 m".

Built from the algorithm's own definitions (display name, parameter descriptions, enum options, the
distance unit of the input layer's CRS) and the project's layers. Call on the main thread.
"""

from __future__ import annotations

import os
from typing import Any

from .allowlist import listed_id

INPUT_TYPES = ("source", "vector", "raster", "layer", "mesh", "multilayer", "pointcloud")
PHRASES = {  # algorithm id → how an analyst says it; {NAME} is a parameter's value in words
    "native:buffer": "Buffer {INPUT} by {DISTANCE}",
    "native:clip": "Clip {INPUT} to {OVERLAY}",
    "native:reprojectlayer": "Reproject {INPUT} to {TARGET_CRS}",
    "native:dissolve": "Dissolve {INPUT}",
    "native:centroids": "Centroids of {INPUT}",
    "native:intersection": "Intersect {INPUT} with {OVERLAY}",
    "native:fieldcalculator": "Calculate field {FIELD_NAME} of {INPUT} as {FORMULA}",
    "native:extractbyexpression": "Extract the features of {INPUT} where {EXPRESSION}",
    "native:truncatetable": "Empty the table {INPUT}",
    "native:filedownloader": "Download {URL}",
    "gdal:cliprasterbymasklayer": "Clip raster {INPUT} to {MASK}",
    "gdal:warpreproject": "Reproject raster {INPUT} to {TARGET_CRS}",
}
MOST_SHOWN = 4  # parameters listed after the generic "<Algorithm> <input>"


def action_words(alg: Any, given: dict[str, Any], project: Any) -> str:
    definitions = {d.name(): d for d in alg.parameterDefinitions()}
    words = {name: _value_words(project, d, given.get(name), given) for name, d in definitions.items()}
    phrase = PHRASES.get(listed_id(alg))
    if phrase:
        try:
            return phrase.format(**words)
        except (KeyError, IndexError):
            pass  # another QGIS version renamed a parameter: fall back to the generic words
    first = next((d for d in definitions.values() if d.type() in INPUT_TYPES and given.get(d.name()) is not None), None)
    text = alg.displayName() + (f" {words[first.name()]}" if first is not None else "")
    shown = [f"{d.description().lower()} {words[name]}" for name, d in definitions.items()
             if given.get(name) not in (None, "") and not d.isDestination() and d is not first][:MOST_SHOWN]
    return text + (f" with {', '.join(shown)}" if shown else "")


def _value_words(project: Any, definition: Any, value: Any, given: dict[str, Any]) -> str:
    if value is None:
        return "(default)"
    kind = definition.type()
    if kind in INPUT_TYPES:
        values = value if isinstance(value, list) else [value]
        return " and ".join(_layer_words(project, v) for v in values)
    if kind == "enum":
        options = list(definition.options())
        chosen = [options[v] if isinstance(v, int) and 0 <= v < len(options) else str(v)
                  for v in (value if isinstance(value, list) else [value])]
        return ", ".join(chosen)
    if kind == "distance":
        if isinstance(value, str) and not value.strip().replace(".", "", 1).isdigit():
            return value.strip()  # given with its unit ('500 m'), which the run converts to the layer's
        return f"{value} {_distance_unit(project, definition, given)}".strip()
    if kind == "boolean":
        return "yes" if value else "no"
    if isinstance(value, str):
        return repr(value)
    return str(value)


def _layer_words(project: Any, value: Any) -> str:
    layer = layer_named(project, value)
    if layer is None:
        return repr(str(value))
    count = layer.featureCount() if hasattr(layer, "featureCount") else -1
    return f"'{layer.name()}'" + (f" ({count} feature{'s' if count != 1 else ''})" if count >= 0 else "")


def _distance_unit(project: Any, definition: Any, given: dict[str, Any]) -> str:
    from qgis.core import QgsUnitTypes

    layer = layer_named(project, given.get(definition.parentParameterName()))
    if layer is None or not layer.crs().isValid():
        return ""
    return QgsUnitTypes.toAbbreviatedString(layer.crs().mapUnits())


def layer_named(project: Any, value: Any) -> Any:
    """The project's layer a Processing parameter names (its id or name, any case), or None."""
    if project is None or not isinstance(value, str):
        return None
    layers = list(project.mapLayers().values())
    return next((lyr for lyr in layers if value in (lyr.id(), lyr.name())), None) or \
        next((lyr for lyr in layers if lyr.name().lower() == value.strip().lower()), None)


def file_and_layer(source: str) -> tuple[str, str | None]:
    """An OGR/GDAL source split into its file and the layer named inside it ('/d/city.gpkg|layername=parcels')."""
    file, *options = source.split("|")
    return file, next((o.split("=", 1)[1] for o in options if o.lower().startswith("layername=")), None)


def describe_layer(project: Any, value: Any) -> tuple[str, str]:
    """(the layer's name, where its data lives) for an in-place algorithm's input."""
    if isinstance(value, list):
        value = value[0] if value else None
    if value is None:
        return "its input", "its source"
    layer = layer_named(project, str(value))
    if layer is None:
        return repr(str(value)), "an unknown source"
    if layer.providerType() == "memory":
        return repr(layer.name()), "a memory layer (lost when QGIS closes)"
    source = layer.source()
    file, table = file_and_layer(source)
    where = f"file {file}" if os.path.exists(file) else f"data source {source}"
    return repr(table or layer.name()), where
