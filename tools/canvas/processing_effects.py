"""What a Processing call would do to data, judged from its actual parameters before it runs.

Safe only when every effect is a new output in the plugin's own output folder or a temporary/memory
layer. An algorithm with no destination parameter (truncate table, create spatial index, build
overviews, assign projection, execute SQL…) works on its inputs in place; an output outside the
output folder or onto an existing file may overwrite data; algorithms from scripts, models or
other providers cannot be checked. All of these are destructive and wait for the user's OK, with
each effect stated in full.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from qgis.core import QgsApplication, QgsProject

from ..confirmation import Assessment
from ..deps import ToolDeps

TEMPORARY = (None, "", "TEMPORARY_OUTPUT", "memory:")
CHECKED_PROVIDERS = {"native", "qgis", "gdal", "3d"}  # QGIS's own algorithms: their outputs are declared
RAW_OPTIONS = {"EXTRA", "OPTIONS"}  # free command-line text handed to GDAL: may name other files
IN_PLACE = {  # algorithm id → what it does to its first input, in the user's words
    "native:truncatetable": "empties table {layer} in {source}",
    "native:createspatialindex": "adds a spatial index to {layer} in {source}",
    "gdal:overviews": "builds overviews into (or next to) {source}",
    "gdal:assignprojection": "rewrites the CRS recorded in {source}",
    "qgis:definecurrentprojection": "rewrites the projection file (.prj) of {source}",
    "native:spatialiteexecutesql": "runs SQL {sql} on the database {source}",
    "qgis:spatialiteexecutesql": "runs SQL {sql} on the database {source}",
    "native:postgisexecutesql": "runs SQL {sql} on the PostgreSQL connection {connection}",
    "qgis:postgisexecutesql": "runs SQL {sql} on the PostgreSQL connection {connection}",
}


def real_path(value: str) -> Path:
    """The path as the OS will write it: ~ expanded, relative parts and symlinks resolved."""
    return Path(os.path.realpath(os.path.expanduser(value)))


def inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def assess_algorithm(deps: ToolDeps, alg: Any, given: dict[str, Any]) -> Assessment:
    """Call on the main thread (reads the project's layers)."""
    project = deps.project() or QgsProject.instance()
    outputs = real_path(str(deps.output_dir()))
    effects: list[str] = []
    definitions = alg.parameterDefinitions()
    destinations = [d for d in definitions if d.isDestination()]
    provider = alg.provider().id() if alg.provider() else ""
    if provider not in CHECKED_PROVIDERS:
        effects.append(f"runs {alg.id()} from provider '{provider or 'unknown'}', whose effects on files "
                       "cannot be checked beforehand")
    if not destinations:
        effects.append(_in_place_effect(alg, given, project))
    for definition in destinations:
        effect = _destination_effect(definition.name(), given.get(definition.name()), outputs)
        if effect:
            effects.append(effect)
    for name in RAW_OPTIONS:
        raw = given.get(name)
        if provider == "gdal" and isinstance(raw, str) and raw.strip():
            effects.append(f"passes the raw GDAL options {name} = {raw!r}, which may read or write other files")
    return Assessment(bool(effects), tuple(effects))


def _destination_effect(name: str, value: Any, outputs: Path) -> str | None:
    if value in TEMPORARY or (isinstance(value, str) and value.strip() in ("TEMPORARY_OUTPUT", "memory:")):
        return None  # a new temporary file or memory layer
    text = str(value)
    if not isinstance(value, str) or is_provider_uri(text):
        return f"writes output {name} into {text} (a data source, not a new file in the plugin's output folder)"
    path = real_path(text)
    given = "" if str(path) == text else f" (given as {text})"
    if not inside(path, outputs):
        # the same words whether or not the file exists: an outside client learns nothing about the disk
        return (f"writes output {name} to {path}{given}, outside the plugin's output folder {outputs}; "
                "an existing file there is replaced")
    if path.exists():
        return f"overwrites the existing file {path}{given} with output {name}"
    return None


def is_provider_uri(text: str) -> bool:
    lowered = text.lower()
    return (lowered.startswith(("ogr:", "postgis:", "postgres:", "spatialite:", "memory:", "mssql:", "oracle:"))
            or "|layername=" in lowered or "dbname=" in lowered)


def _in_place_effect(alg: Any, given: dict[str, Any], project: Any) -> str:
    first_input = next((d for d in alg.parameterDefinitions()
                        if d.type() in ("vector", "raster", "source", "layer", "mesh", "multilayer")), None)
    value = given.get(first_input.name()) if first_input is not None else None
    layer, source = _describe_layer(project, value)
    template = IN_PLACE.get(alg.id())
    if template:
        return template.format(layer=layer, source=source, sql=repr(str(given.get("SQL", ""))),
                               connection=repr(str(given.get("DATABASE", ""))))
    inputs = f" on {layer} in {source}" if value is not None else ""
    return (f"runs {alg.id()}{inputs}: it declares no new output, so it changes its inputs or other data in place")


def _describe_layer(project: Any, value: Any) -> tuple[str, str]:
    if isinstance(value, list):
        value = value[0] if value else None
    if value is None:
        return "its input", "its source"
    text = str(value)
    layer = None
    if project is not None:
        layers = project.mapLayers().values()
        layer = next((lyr for lyr in layers if text in (lyr.id(), lyr.name())), None) or \
            next((lyr for lyr in layers if lyr.name().lower() == text.strip().lower()), None)
    if layer is None:
        return repr(text), "an unknown source"
    provider = layer.providerType()
    if provider == "memory":
        return repr(layer.name()), "a memory layer (lost when QGIS closes)"
    source = layer.source()
    file = source.split("|")[0]
    table = next((part.split("=", 1)[1] for part in source.split("|")[1:] if part.startswith("layername=")), None)
    where = f"file {file}" if os.path.exists(file) else f"data source {source}"
    return repr(table or layer.name()), where


def algorithm_of(algorithm_id: str) -> Any:
    return QgsApplication.processingRegistry().algorithmById(algorithm_id)
