"""What a raster tool reads: a project layer (by name or id) or a STAC asset href, as a GDAL path.

Outside MCP clients (deps.outside_client) may only read project layers, remote catalog assets and
files inside the folders the user allowed (ToolDeps.allowed_folders); anything else is refused with
the same words whether or not it exists, before GDAL opens it.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from ..common import ToolInputError
from ..deps import ToolDeps

REMOTE_SCHEMES = {"http", "https", "s3", "gs", "az", "abfs", "azure"}
REMOTE_VSI = ("/vsicurl/", "/vsis3/", "/vsigs/", "/vsiaz/", "/vsiadls/")


def resolve_raster(deps: ToolDeps, source: str) -> tuple[str, dict[str, str]]:
    """(GDAL path, GDAL options). Call on the main thread: it may look at the QGIS project."""
    source = (source or "").strip()
    if not source:
        raise ToolInputError("Give a raster: a project layer name, or an asset href from get_item.")
    layer = _project_raster(deps.project(), source)
    if layer is not None:
        return layer, {}
    if "://" in source or source.startswith("/"):
        check_outside_source(deps, source)
        # the owning catalog's credentials, scoped to this asset's path (see stac/gdal_reads.py)
        return deps.catalogs.plan_read(source, deps.output_dir())
    raise ToolInputError(f"'{source}' is neither a raster layer of the project nor an href; "
                         "use list_vector_layers/layers://project for layer names, or get_item for asset hrefs.")


def check_outside_source(deps: ToolDeps, source: str) -> None:
    """For outside clients: refuse a local file outside the allowed folders, or a URL to this machine's
    or the local network's services that is not a configured catalog's. The dock's own agent is not limited."""
    if may_read(deps, source):
        return
    raise ToolInputError(f"'{source}' is not available to outside MCP clients: they may read project layers, "
                         "assets of the configured catalogs, and files in the folders listed under Settings ▸ "
                         "Outside access.")


def may_read(deps: ToolDeps, source: str) -> bool:
    """Whether this client may learn what is at `source` (a local path or URL): the dock's agent always may."""
    return not deps.outside_client or _allowed(deps, source)


def _allowed(deps: ToolDeps, source: str) -> bool:
    for prefix in REMOTE_VSI:
        if source.startswith(prefix):
            source = source[len(prefix):]
            if "://" not in source:
                return prefix != "/vsicurl/"  # /vsis3/bucket/key: a bucket, not this machine's disk
            break
    parsed = urlparse(source)
    if parsed.scheme in REMOTE_SCHEMES:
        return _public_or_catalog_host(deps, parsed.hostname or "")
    if parsed.scheme == "file":
        source = unquote(parsed.path)
    elif parsed.scheme or source.startswith("/vsi"):
        return False  # /vsizip/, /vsitar/, /vsimem/ and other schemes: not checked, not allowed
    real = Path(os.path.realpath(os.path.expanduser(source)))
    return any(real == folder or folder in real.parents for folder in deps.allowed_folders())


def _public_or_catalog_host(deps: ToolDeps, host: str) -> bool:
    catalog_hosts = {urlparse(c.url).hostname for c in deps.settings.catalogs if "://" in c.url}
    if host in catalog_hosts:
        return True
    host = host.lower().rstrip(".")
    if host in ("localhost", "") or host.endswith(".localhost"):
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        try:  # the forms curl also reads as IPv4: 127.1, 2130706433, 0x7f000001
            address = ipaddress.ip_address(socket.inet_aton(host))
        except OSError:
            return True  # a name: resolved by GDAL/curl; internal names are the user's network's business
    return address.is_global


def _project_raster(project: Any, source: str) -> str | None:
    if project is None:
        return None
    from qgis.core import QgsRasterLayer

    for layer in project.mapLayers().values():
        if isinstance(layer, QgsRasterLayer) and source in (layer.name(), layer.id()):
            return layer.source()
    return None
