"""What a raster tool reads: a project layer (by name or id) or a STAC asset href, as a GDAL path."""

from __future__ import annotations

from typing import Any

from .common import ToolInputError
from .deps import ToolDeps


def resolve_raster(deps: ToolDeps, source: str) -> tuple[str, dict[str, str]]:
    """(GDAL path, GDAL options). Call on the main thread: it may look at the QGIS project."""
    source = (source or "").strip()
    if not source:
        raise ToolInputError("Give a raster: a project layer name, or an asset href from get_item.")
    layer = _project_raster(deps.project(), source)
    if layer is not None:
        return layer, {}
    if "://" in source or source.startswith("/"):
        # the owning catalog's credentials, scoped to this asset's path (see stac/gdal_reads.py)
        return deps.catalogs.plan_read(source, deps.output_dir())
    raise ToolInputError(f"'{source}' is neither a raster layer of the project nor an href; "
                         "use list_vector_layers/layers://project for layer names, or get_item for asset hrefs.")


def _project_raster(project: Any, source: str) -> str | None:
    if project is None:
        return None
    from qgis.core import QgsRasterLayer

    for layer in project.mapLayers().values():
        if isinstance(layer, QgsRasterLayer) and source in (layer.name(), layer.id()):
            return layer.source()
    return None
