"""What a Processing call would do to data, judged from its actual parameters before it runs.

Safe only when the algorithm is on the explicit list (processing_allowlist), none of its given parameters
is code (a QGIS expression, which can call Python functions; SQL; raw GDAL arguments), nothing is fetched,
and every output is a new file in the plugin's own output folder or a temporary layer — judged on the files
Processing really writes (the extension it adds, every sidecar), not on the string given. An algorithm with
no destination parameter works on its inputs in place. Everything else waits for the user's OK, each effect
stated in the analyst's words; an algorithm that runs code outright (Python calculator, scripts, models) is
refused.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from qgis.core import QgsApplication, QgsProject

from ...analysis.raster_inputs import check_outside_source, may_read
from ...common import ToolInputError
from ...confirmation import Assessment
from ...deps import ToolDeps
from ...engine import gdal_names
from . import allowlist as allow
from .outputs import Target, describe_on_disk, file_target, table_target
from .words import action_words, describe_layer, file_and_layer, layer_named

TEMPORARY = (None, "", "TEMPORARY_OUTPUT", "memory:")
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
NEW_FILE = ": it creates a new file"  # ends the effect of an output that replaces nothing (new_files_kind reads it)
DEFAULT_EXTENSIONS = {"sink": "gpkg", "vectorDestination": "gpkg", "rasterDestination": "tif"}
INPUT_TYPES = ("vector", "raster", "source", "layer", "mesh", "multilayer", "file", "point_cloud")


def real_path(value: str) -> Path:
    """The path as the OS will write it: ~ expanded, relative parts and symlinks resolved."""
    return Path(os.path.realpath(os.path.expanduser(value)))


def inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def offered(alg: Any) -> bool:
    """Whether the plugin offers this algorithm at all (search lists only these)."""
    return allow.refusal(allow.listed_id(alg), alg.provider().id() if alg.provider() else "") is None


def refuse_if_not_offered(alg: Any) -> None:
    """Code-running algorithms are not offered on any path: no OK makes them safe to run for a model."""
    why = allow.refusal(allow.listed_id(alg), alg.provider().id() if alg.provider() else "")
    if why:
        raise ToolInputError(f"{why} Choose another algorithm with search_processing_algorithms.")


async def assess_algorithm(deps: ToolDeps, alg: Any, given: dict[str, Any]) -> Assessment:
    """Call on the main thread (reads the project's layers); what is on disk is read in a worker."""
    refuse_if_not_offered(alg)
    project = deps.project() or QgsProject.instance()
    outputs = real_path(str(deps.output_dir()))
    effects = _algorithm_effects(deps, alg, given)
    destinations = [d for d in alg.parameterDefinitions() if d.isDestination()]
    if not destinations:
        effects.append(_in_place_effect(alg, given, project))
    targets = []
    for definition in destinations:
        planned = _plan_destination(definition, given.get(definition.name()))
        if isinstance(planned, str):
            effects.append(planned)
        elif planned is not None:
            targets.append((definition.name(), planned, str(given.get(definition.name())), may_read(deps, str(planned.path))))
    sources = _input_sources(alg, given, project)
    effects += await asyncio.to_thread(_destination_effects, targets, outputs, sources)
    return Assessment(bool(effects), tuple(effects), action=action_words(alg, given, project),
                      kind=new_files_kind(allow.listed_id(alg), effects, [target for _n, target, _g, _l in targets]))


def new_files_kind(algorithm_id: str, effects: list[str], targets: list[Target]) -> str:
    """What "don't ask again in this chat" covers for a call whose only effects are new files outside the plugin's
    output folder (agent/trust.py): this algorithm writing new files into these same folders. Anything else (code,
    a download, an overwrite, a change in place, an unknown algorithm) gets no kind and asks every time."""
    if not effects or not targets or not all(effect.endswith(NEW_FILE) for effect in effects):
        return ""
    folders = sorted({str(target.path.parent) for target in targets})
    return f"run {algorithm_id} writing new files into {', '.join(folders)} (never over an existing file)"


def _algorithm_effects(deps: ToolDeps, alg: Any, given: dict[str, Any]) -> list[str]:
    provider = alg.provider().id() if alg.provider() else ""
    if not allow.is_listed(allow.listed_id(alg)):
        return [f"runs {alg.id()} from provider '{provider or 'unknown'}', whose effects on files cannot be "
                "checked beforehand (it is not on the plugin's list of known algorithms)"]
    effects = [allow.ALWAYS_ASKS[allow.listed_id(alg)]] if allow.listed_id(alg) in allow.ALWAYS_ASKS else []
    for definition in alg.parameterDefinitions():
        value = given.get(definition.name())
        if definition.isDestination() or value in (None, "", []):
            continue
        effect = _parameter_effect(deps, alg, definition, value)
        if effect:
            effects.append(effect)
    return effects


def _parameter_effect(deps: ToolDeps, alg: Any, definition: Any, value: Any) -> str | None:
    name, role = definition.name(), allow.role_of(allow.listed_id(alg), definition.name(), definition.type())
    shown = value if isinstance(value, str) else str(value)
    if role == allow.CODE:
        if allow.listed_id(alg) in IN_PLACE:
            return None  # the in-place sentence states the SQL
        if name in ("SQL", "WHERE") or definition.type() == "execute_sql":
            return f"runs the SQL {name} = {shown!r}"
        return (f"evaluates {name} = {shown!r} as a QGIS expression, which can call Python functions "
                "(code) on every feature")
    if role == allow.GDAL_ARGS:
        return f"passes the raw GDAL options {name} = {shown!r}, which may read or write other files"
    if role == allow.URL:
        check_outside_source(deps, shown)  # an outside client is refused before anyone is asked
        return _download_effect(shown)
    if role == allow.READ:
        for path in value if isinstance(value, list) else [value]:
            check_outside_source(deps, str(path))
        return None
    if role == allow.UNCHECKED:
        return f"passes {name} = {shown!r}, which the plugin cannot check (it may name other files or filters)"
    if alg.provider() is not None and alg.provider().id() == "gdal" and isinstance(value, str) \
            and value.lstrip().startswith("-"):
        # GDAL algorithms build a command line: text starting with '-' becomes options of their own
        return f"passes {name} = {shown!r}, which GDAL reads as extra command-line options that may read or write other files"
    return None


def _download_effect(url: str) -> str:
    if url.lower().startswith("file:") or "://" not in url:
        return f"copies the local file {url} (a download from this computer's disk)"
    return f"downloads {url} from the network and saves it as a file"


def _plan_destination(definition: Any, value: Any) -> Target | str | None:
    """Where an output really goes (a Target to look at on disk), an effect sentence, or None (temporary)."""
    name = definition.name()
    if value in TEMPORARY or (isinstance(value, str) and value.strip() in ("TEMPORARY_OUTPUT", "memory:")):
        return None  # a new temporary file or memory layer
    text = str(value)
    if not isinstance(value, str):
        return f"writes output {name} into {text} (a data source, not a new file in the plugin's output folder)"
    if is_provider_uri(text):
        table = table_target(text)
        if table is None:
            return f"writes output {name} into the data source {text}; an existing table there is replaced"
        return table
    extension = definition.defaultFileExtension() if hasattr(definition, "defaultFileExtension") else ""
    return file_target(real_path(text), extension or DEFAULT_EXTENSIONS.get(definition.type(), ""))


def _input_sources(alg: Any, given: dict[str, Any], project: Any) -> list[tuple[str, Path, str | None]]:
    """Main thread: (the input as the analyst knows it, its file, its layer inside that file or None) of every
    layer or file the call reads."""
    found = []
    for definition in alg.parameterDefinitions():
        if definition.isDestination() or definition.type() not in INPUT_TYPES:
            continue
        values = given.get(definition.name())
        for value in values if isinstance(values, list) else [values]:
            if not isinstance(value, str) or not value.strip():
                continue
            layer = layer_named(project, value)
            if layer is not None and layer.providerType() == "memory":
                continue
            file, table = file_and_layer(layer.source() if layer is not None else value)
            shown = repr(layer.name()) if layer is not None else repr(value)
            found.append((shown, real_path(file), table))
    return found


def refuse_reading_what_it_writes(targets: list[Target], sources: list[tuple[str, Path, str | None]]) -> None:
    """Worker thread: an output that is one of the call's own inputs is refused before anyone is asked: QGIS
    empties (or truncates) the destination before the algorithm reads its input, so 'Yes' would destroy the
    data it was meant to process (a buffer of 'parcels' written into 'parcels' left it with 0 features)."""
    for target in targets:
        for shown, path, table in sources:
            if target.table is None:
                same = path in target.files() or path in target.also
            else:
                same = path == target.path and (table or _first_layer(path) or "").lower() == target.table.lower()
            if same and target.table is not None:
                raise ToolInputError(
                    f"The output would overwrite layer '{target.table}' of {target.path}, which is also the input "
                    f"{shown}: QGIS empties the output before the algorithm reads its input, so its data would be "
                    "lost. Write the result to a new layer instead (another table name), then remove the old one if "
                    "the user wants it replaced.")
            if same:
                raise ToolInputError(
                    f"The output would overwrite {target.path}, which is also the input {shown}: QGIS empties the "
                    "output before the algorithm reads its input, so its data would be lost. Write the result to a "
                    "new file instead, then remove the old one if the user wants it replaced.")


def _first_layer(path: Path) -> str | None:
    """The layer OGR opens for a database file given without a layer name."""
    from osgeo import gdal

    dataset = gdal.OpenEx(gdal_names.dataset(gdal_names.local_file(path)), gdal.OF_VECTOR | gdal.OF_READONLY)
    try:
        return dataset.GetLayer(0).GetName() if dataset is not None and dataset.GetLayerCount() else None
    finally:
        dataset = None


def _destination_effects(targets: list[tuple[str, Target, str, bool]], outputs: Path,
                         sources: list[tuple[str, Path, str | None]]) -> list[str]:
    """Worker thread: each output's effect, checked against what is on disk where the client may look; an output
    that is one of the call's inputs is refused (refuse_reading_what_it_writes)."""
    refuse_reading_what_it_writes([target for _name, target, _text, _look in targets], sources)
    effects = []
    for name, target, given_text, may_look in targets:
        effect = _table_effect(name, target, outputs, may_look) if target.table is not None else \
            _file_effect(name, target, given_text, outputs, may_look)
        if effect:
            effects.append(effect)
    return effects


def _file_effect(name: str, target: Target, given_text: str, outputs: Path, may_look: bool) -> str | None:
    given = "" if str(target.path) == given_text else f" (given as {given_text})"
    escaping = [f for f in target.files() if not inside(real_path(str(f)), outputs)]
    on_disk = describe_on_disk(target) if may_look else None
    if not inside(target.path, outputs) or escaping:
        # the same words whether or not the file exists, unless the client may read that folder anyway
        tail = (f": it replaces {on_disk}" if on_disk else NEW_FILE) if may_look else \
            "; an existing file there is replaced"
        links = [f"{f} → {real_path(str(f))}" for f in escaping if real_path(str(f)) != f]
        via = f" (through the link(s) {', '.join(links)})" if links and inside(target.path, outputs) else ""
        return f"writes output {name} to {target.path}{given}, outside the plugin's output folder {outputs}{via}{tail}"
    if on_disk:
        return f"overwrites {on_disk} with output {name}{given}"
    return None


def _table_effect(name: str, target: Target, outputs: Path, may_look: bool) -> str | None:
    where = "" if inside(target.path, outputs) else f", outside the plugin's output folder {outputs}"
    if not may_look:
        return (f"writes output {name} as layer '{target.table}' into {target.path}{where}; an existing layer "
                "of that name is replaced")
    on_disk = describe_on_disk(target)
    if not where and on_disk.startswith("creates"):
        return None  # a new database file in the output folder
    replaced, others, kept = on_disk.partition("; its ")  # the layers that stay come last, after where it goes
    return f"{replaced} with output {name}{where}{others}{kept}"


def is_provider_uri(text: str) -> bool:
    lowered = text.lower()
    return (lowered.startswith(("ogr:", "postgis:", "postgres:", "spatialite:", "memory:", "mssql:", "oracle:"))
            or "|layername=" in lowered or "dbname=" in lowered)


def _in_place_effect(alg: Any, given: dict[str, Any], project: Any) -> str:
    first_input = next((d for d in alg.parameterDefinitions()
                        if d.type() in ("vector", "raster", "source", "layer", "mesh", "multilayer")), None)
    value = given.get(first_input.name()) if first_input is not None else None
    layer, source = describe_layer(project, value)
    template = IN_PLACE.get(allow.listed_id(alg))
    if template:
        return template.format(layer=layer, source=source, sql=repr(str(given.get("SQL", ""))),
                               connection=repr(str(given.get("DATABASE", ""))))
    inputs = f" on {layer} in {source}" if value is not None else ""
    return (f"runs {alg.id()}{inputs}: it declares no new output, so it changes its inputs or other data in place")


def algorithm_of(algorithm_id: str) -> Any:
    return QgsApplication.processingRegistry().algorithmById(algorithm_id)
