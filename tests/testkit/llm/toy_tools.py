"""A small real MCP server for loop tests: a toy catalogue and a toy project that tools change.

Tools follow the project's convention (agent/safety.py): annotations give the safety,
meta["stacgis"] the states a tool needs/provides and whether it is a discovery call.
`ToyWorld` records every call that really ran, so tests can assert what executed.
"""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import dataclass, field
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)
DESTRUCTIVE = ToolAnnotations(readOnlyHint=False, destructiveHint=True)

COLLECTIONS = {
    "sentinel-2-l2a": "Sentinel-2 Level-2A surface reflectance, 10 m, global, 2015-",
    "landsat-c2-l2": "Landsat Collection 2 Level-2 surface reflectance, 30 m, 1982-",
    "cop-dem-glo-30": "Copernicus DEM 30 m elevation model",
}


@dataclass
class ToyWorld:
    layers: dict[str, dict[str, Any]] = field(default_factory=dict)
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    cancelled: list[str] = field(default_factory=list)
    slow_started: asyncio.Event | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, name: str, args: dict[str, Any]) -> None:
        with self._lock:
            self.calls.append((name, args))

    def ran(self, name: str) -> list[dict[str, Any]]:
        return [args for n, args in self.calls if n == name]


def build_toy_server(world: ToyWorld | None = None) -> tuple[MCPServer, ToyWorld]:
    world = world or ToyWorld()
    server = MCPServer("toy-gis")

    @server.tool(annotations=READ, meta={"stacgis": {"discovery": True}})
    def list_collections() -> list[dict[str, str]]:
        """List the STAC collections of the configured catalog (id and title)."""
        world.record("list_collections", {})
        return [{"id": cid, "title": title} for cid, title in COLLECTIONS.items()]

    @server.tool(annotations=READ, meta={"stacgis": {"discovery": True}})
    def search_items(collection: str, bbox: list[float], datetime: str = "", limit: int = 5) -> dict[str, Any]:
        """Search STAC items of a collection intersecting a bbox [west, south, east, north] in a date range."""
        world.record("search_items", {"collection": collection, "bbox": bbox, "datetime": datetime, "limit": limit})
        if collection not in COLLECTIONS:
            raise ToolError(f"unknown collection '{collection}'; call list_collections")
        if len(bbox) != 4:
            raise ToolError("bbox needs 4 numbers: west, south, east, north")
        items = [{"id": f"{collection}-item-{i}", "cloud_cover": 3.5 * i, "datetime": f"2024-06-1{i}"}
                 for i in range(1, min(limit, 5) + 1)]
        return {"matched": 42, "returned": len(items), "items": items}

    @server.tool(annotations=READ, meta={"stacgis": {"discovery": True}})
    def describe_collection(collection: str) -> dict[str, Any]:
        """Describe a STAC collection: extent, bands and licence."""
        world.record("describe_collection", {"collection": collection})
        return {"id": collection, "title": COLLECTIONS.get(collection, "?"), "bands": ["B02", "B03", "B04", "B08"]}

    @server.tool(annotations=WRITE, meta={"stacgis": {"provides": ["raster_layer"]}})
    def load_item(item_id: str, asset: str = "visual") -> dict[str, Any]:
        """Load a STAC item's asset as a raster layer in the QGIS project."""
        world.record("load_item", {"item_id": item_id, "asset": asset})
        name = f"{item_id}:{asset}"
        world.layers[name] = {"kind": "raster", "mean": 0.42}
        return {"layer": name, "kind": "raster"}

    @server.tool(annotations=READ, meta={"stacgis": {"requires": ["raster_layer"]}})
    def raster_stats(layer: str, band: int = 1) -> dict[str, Any]:
        """Statistics (min, max, mean) of one band of a raster layer."""
        world.record("raster_stats", {"layer": layer, "band": band})
        if layer not in world.layers:
            raise ToolError(f"no layer named '{layer}'; layers: {sorted(world.layers)}")
        return {"layer": layer, "band": band, "min": 0.01, "max": 0.93, "mean": world.layers[layer]["mean"]}

    @server.tool(annotations=DESTRUCTIVE, meta={"stacgis": {"requires": ["layer"]}})
    def remove_layer(layer: str) -> dict[str, Any]:
        """Remove a layer from the QGIS project."""
        world.record("remove_layer", {"layer": layer})
        world.layers.pop(layer, None)
        return {"removed": layer}

    @server.tool(annotations=READ)
    def geocode(place: str) -> dict[str, Any]:
        """Find the bounding box of a place name."""
        world.record("geocode", {"place": place})
        if place.lower() == "atlantis":
            raise ValueError("the gazetteer crashed")  # an unexpected exception inside a tool
        return {"place": place, "bbox": [4.77, 45.70, 4.90, 45.80]}

    @server.tool(annotations=READ)
    async def wait_for_data(seconds: float) -> str:
        """Wait for a long-running data job (for cancellation tests)."""
        world.record("wait_for_data", {"seconds": seconds})
        if world.slow_started is not None:
            world.slow_started.set()
        try:
            await asyncio.sleep(seconds)
        except asyncio.CancelledError:
            world.cancelled.append("wait_for_data")
            raise
        return "data ready"

    @server.tool(annotations=WRITE)
    def open_raster_file(path: str) -> dict[str, Any]:
        """Open a local GeoTIFF as a raster layer (declares no state: the loop re-reads the project)."""
        world.record("open_raster_file", {"path": path})
        world.layers[path] = {"kind": "raster", "mean": 0.17}
        return {"layer": path}

    @server.resource("layers://project", mime_type="application/json", description="The project's layers")
    def project_layers() -> str:
        return json.dumps([{"name": name, "type": layer["kind"]} for name, layer in world.layers.items()])

    @server.resource("collections://list", mime_type="application/json", description="Catalog collections")
    def collections_list() -> str:
        return json.dumps([{"catalog": "toy", "kind": "api",
                            "collections": [{"id": cid, "title": t} for cid, t in COLLECTIONS.items()]}])

    @server.tool(annotations=READ)
    def big_report(size: int) -> str:
        """Return a long text report of `size` characters."""
        world.record("big_report", {"size": size})
        return ("NDVI 0.5 parcel 12 " * (size // 19 + 1))[:size]

    return server, world
