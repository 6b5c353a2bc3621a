"""The model's parameter values for a Processing call, checked against the algorithm's own definitions.

Layer names become project layers, enum names indexes, outputs the exact paths the confirmation named
(with the extension Processing would add). Anything that names a place to read from — a file parameter,
a URL, a CRS or extent given as a path (QGIS loads it as a layer) — passes the same outside-source check
as every file an outside client names. Algorithms that run code are refused here too, whatever was asked.
"""

from __future__ import annotations

import re
from typing import Any

from qgis.core import QgsProcessingOutputLayerDefinition

from ...analysis.raster_inputs import check_outside_source
from ...common import ToolInputError
from ...deps import ToolDeps
from ..project_access import find_layer, project_of
from . import allowlist as allow
from .effects import DEFAULT_EXTENSIONS, is_provider_uri, real_path, refuse_if_not_offered
from .inputs import LAYER_TYPES
from .outputs import file_target

LOADED_FROM_TEXT = {"crs", "extent", "point"}  # QGIS reads a layer from a path given here
PLAIN_DESTINATIONS = {"folderDestination", "fileDestination"}
_LOCATION = re.compile(r"^\s*(?:[a-z][a-z0-9+.-]*://|file:|/|~|\\\\|[a-z]:[\\/])", re.IGNORECASE)


def prepare_parameters(deps: ToolDeps, alg: Any, given: dict[str, Any]) -> dict[str, Any]:
    """The model's values checked against the algorithm's own definitions: layer names → layers, enum names → indexes."""
    refuse_if_not_offered(alg)
    project = project_of(deps)
    known = {p.name(): p for p in alg.parameterDefinitions()}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise ToolInputError(f"{alg.id()} has no parameter(s) {', '.join(unknown)}; its parameters: {', '.join(known)}")
    params: dict[str, Any] = {}
    for name, definition in known.items():
        value = given.get(name)
        if definition.isDestination():
            params[name] = _destination(definition, value)
            continue
        if value is None:
            if not definition.flags() & definition.FlagOptional and definition.defaultValue() is None:
                raise ToolInputError(f"{alg.id()} needs parameter '{name}' ({definition.description()}).")
            continue
        if isinstance(value, dict):  # QGIS would read a map as a data-defined property or a source definition
            raise ToolInputError(f"Parameter {name} of {alg.id()} takes a value, a list or a layer name, not an object.")
        _check_locations(deps, alg, definition, value)
        kind = definition.type()
        if kind in LAYER_TYPES and isinstance(value, str):
            value = find_layer(project, value).id()
        elif kind == "multilayer":
            value = [find_layer(project, v).id() if isinstance(v, str) else v for v in (value if isinstance(value, list) else [value])]
        elif kind == "enum":
            value = _enum_index(definition, value)
        params[name] = value
    return params


def _check_locations(deps: ToolDeps, alg: Any, definition: Any, value: Any) -> None:
    """Outside clients read only what the user allowed: files, URLs (downloads) and paths in disguise."""
    role = allow.role_of(allow.listed_id(alg), definition.name(), definition.type())
    texts = [v for v in strings_in(value)]
    if role in (allow.READ, allow.URL):
        checked = texts
    elif definition.type() in LOADED_FROM_TEXT or role == allow.UNCHECKED or not allow.is_listed(allow.listed_id(alg)):
        checked = [t for t in texts if _LOCATION.match(t)]
    else:
        checked = []
    for text in checked:
        check_outside_source(deps, text.strip())


def strings_in(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in strings_in(v)]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings_in(v)]
    return []


def _destination(definition: Any, value: Any) -> Any:
    # The confirmation gate has judged this call (processing_effects): a file path is written where it
    # really points, symlinks resolved and with the extension Processing adds — the path the user saw.
    name = definition.name()
    if definition.type() in PLAIN_DESTINATIONS:  # a folder or a file is a path, not a layer: QGIS refuses the wrapper
        return _plain_destination(definition, value)
    if value in (None, "", "TEMPORARY_OUTPUT", "memory:"):
        return QgsProcessingOutputLayerDefinition("TEMPORARY_OUTPUT")
    if not isinstance(value, str):
        raise ToolInputError(f"Output {name} must be a file path or omitted (temporary layer).")
    if is_provider_uri(value):
        return QgsProcessingOutputLayerDefinition(value)  # a data-source URI (ogr:, postgis:…), asked for as such
    extension = definition.defaultFileExtension() if hasattr(definition, "defaultFileExtension") else ""
    target = file_target(real_path(value), extension or DEFAULT_EXTENSIONS.get(definition.type(), ""))
    return QgsProcessingOutputLayerDefinition(str(target.path))


def _plain_destination(definition: Any, value: Any) -> str:
    if value in (None, "", "TEMPORARY_OUTPUT", "memory:"):
        return "TEMPORARY_OUTPUT"  # QGIS makes a new folder or file in its temporary folder
    if not isinstance(value, str):
        raise ToolInputError(f"Output {definition.name()} must be a path or omitted (a temporary one).")
    if definition.type() == "folderDestination":
        return str(real_path(value))
    extension = definition.defaultFileExtension() if hasattr(definition, "defaultFileExtension") else ""
    return str(file_target(real_path(value), extension).path)


def _enum_index(definition: Any, value: Any) -> Any:
    options = list(definition.options())
    values = value if isinstance(value, list) else [value]
    indexes = []
    for v in values:
        if isinstance(v, int) and 0 <= v < len(options):
            indexes.append(v)
            continue
        match = [i for i, o in enumerate(options) if o.lower() == str(v).strip().lower()]
        if not match:
            raise ToolInputError(f"'{v}' is not an option of {definition.name()}; choose one of: {', '.join(options)}")
        indexes.append(match[0])
    return indexes if isinstance(value, list) else indexes[0]
