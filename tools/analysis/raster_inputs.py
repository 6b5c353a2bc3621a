"""What a raster tool reads: a project layer (by name or id) or a STAC asset href, as a GDAL path.

Outside MCP clients (deps.outside_client) may only read project layers, remote catalog assets and
files inside the folders the user allowed (ToolDeps.allowed_folders); anything else is refused with
the same words whether or not it exists, before GDAL opens it. The rules themselves live with the one guard of
GDAL's dataset names (tools/engine/gdal_names.py), which every href passes on its way to GDAL.
"""

from __future__ import annotations

from typing import Any

from ..common import ToolInputError
from ..deps import ToolDeps
from ..engine.gdal_names import GdalName, outside_refusal, project_source, rules_for
from ..engine.gdal_names import may_read as rules_allow


def resolve_raster(deps: ToolDeps, source: str) -> tuple[GdalName, dict[str, str]]:
    """(GDAL path, GDAL options). Call on the main thread: it may look at the QGIS project."""
    source = (source or "").strip()
    if not source:
        raise ToolInputError("Give a raster: a project layer name, or an asset href from get_item.")
    layer_source = _project_raster(deps.project(), source)
    if layer_source is not None:
        return project_source(layer_source), {}
    if "://" in source or source.startswith("/"):
        check_outside_source(deps, source)
        # the owning catalog's credentials, scoped to this asset's path (see stac/gdal_reads.py); the name made
        # by the one guard of GDAL's dataset names (engine/gdal_names.py)
        return deps.catalogs.plan_read(source, deps.output_dir(), rules=rules_for(deps))
    raise ToolInputError(f"'{source}' is neither a raster layer of the project nor an href; "
                         "use list_vector_layers/layers://project for layer names, or get_item for asset hrefs.")


def check_outside_source(deps: ToolDeps, source: str) -> None:
    """For outside clients: refuse a local file outside the allowed folders, or a URL to this machine's
    or the local network's services that is not a configured catalog's. The dock's own agent is not limited."""
    if may_read(deps, source):
        return
    raise outside_refusal(source)


def may_read(deps: ToolDeps, source: str) -> bool:
    """Whether this client may learn what is at `source` (a local path or URL): the dock's agent always may."""
    return not deps.outside_client or rules_allow(rules_for(deps), source)


def _project_raster(project: Any, source: str) -> str | None:
    if project is None:
        return None
    from qgis.core import QgsRasterLayer

    for layer in project.mapLayers().values():
        if isinstance(layer, QgsRasterLayer) and source in (layer.name(), layer.id()):
            return layer.source()
    return None
