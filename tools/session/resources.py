"""MCP resources: collections://list, layers://project, memory://recent, analytics://summary."""

from __future__ import annotations

import json
from typing import Any

from ..common import ToolInputError
from ..declare import resource
from ..deps import ToolDeps
from ..stac.summaries import collection_brief, collection_text
from ..stac.untrusted import envelope
from .memory_tools import hit_record

MAX_COLLECTIONS_PER_CATALOG = 100


def project_layers(project: Any) -> list[dict[str, Any]]:
    if project is None:
        return []
    from qgis.core import QgsRasterLayer, QgsVectorLayer

    from ..analysis.layer_data import layer_summary

    rows = []
    for layer in project.mapLayers().values():
        if isinstance(layer, QgsVectorLayer):
            rows.append({"type": "vector", **layer_summary(layer)})
        else:
            extent = layer.extent()
            row = {"type": "raster" if isinstance(layer, QgsRasterLayer) else "other", "name": layer.name(),
                   "id": layer.id(), "crs": layer.crs().authid(),
                   "extent": [round(v, 6) for v in (extent.xMinimum(), extent.yMinimum(), extent.xMaximum(),
                                                     extent.yMaximum())]}
            if isinstance(layer, QgsRasterLayer):
                row["bands"] = [layer.bandName(i) for i in range(1, layer.bandCount() + 1)]
            rows.append(row)
    return rows


@resource("collections://list", name="collections", mime_type="application/json",
                 description="The configured STAC catalogs and their collections")


async def collections_list(deps: ToolDeps) -> str:
    out = []
    for catalog in deps.catalogs.all():
        try:
            found = (await catalog.collections())[:MAX_COLLECTIONS_PER_CATALOG]
            out.append({"catalog": catalog.name, "kind": catalog.kind,
                        "collections": [{"id": collection_brief(c)["id"]} for c in found],
                        "catalog_text": envelope(titles={c.get("id"): collection_text(c).get("title", "")
                                                         for c in found})})
        except ToolInputError as exc:
            out.append({"catalog": catalog.name, "kind": catalog.kind, "error": str(exc)})
    return json.dumps(out)


@resource("layers://project", name="project layers", mime_type="application/json",
                 description="The project's layers with type, CRS, extent and fields")


async def layers_project(deps: ToolDeps) -> str:
    return json.dumps(project_layers(deps.project()))


@resource("memory://recent", name="recent memories", mime_type="application/json",
                 description="The user's most recent long-term memories")


async def memory_recent(deps: ToolDeps) -> str:
    if deps.memory_store is None:
        return "[]"
    return json.dumps([hit_record(h) for h in await deps.memory_store.recent(deps.settings.user, 10)])


@resource("analytics://summary", name="session statistics", mime_type="application/json",
                 description="Tool calls, errors and time spent in this session")


async def analytics_summary(deps: ToolDeps) -> str:
    return json.dumps(deps.stats.summary())
