"""What a raster tool reads: a project layer (by name or id) or a STAC asset href, as a GDAL path."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

from .common import ToolInputError
from .deps import ToolDeps
from .stac.hrefs import gdal_options, gdal_path


def resolve_raster(deps: ToolDeps, source: str) -> tuple[str, dict[str, str]]:
    """(GDAL path, GDAL options). Call on the main thread: it may look at the QGIS project."""
    source = (source or "").strip()
    if not source:
        raise ToolInputError("Give a raster: a project layer name, or an asset href from get_item.")
    layer = _project_raster(deps.project(), source)
    if layer is not None:
        return layer, {}
    if "://" in source or source.startswith("/"):
        requester_pays = any(c.s3_requester_pays for c in deps.settings.catalogs)
        # a catalog's headers (API keys) go to GDAL only for assets on that catalog's own host
        host = urlparse(source).netloc
        headers = next((c.headers for c in deps.settings.catalogs
                        if c.headers and host and urlparse(c.url).netloc == host), None)
        return gdal_path(source), gdal_options(source, requester_pays, headers)
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
