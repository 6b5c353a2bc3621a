"""Which of a chat's tool calls Processing can repeat, and as what (plain data; no QGIS).

Each completed call that has a Processing counterpart becomes a `Step`: the algorithm, its parameter values
taken from the call's arguments, and the layers the call put on the map as its result names them (their
ids and names are what a later call of the chat gave to read them: `run_processing_algorithm` takes layers
"by layer name", resolved by id, exact name, then any-case name).

- `collection_statistics` over a bbox → `stacgis:collectionstatistics`;
- `search_items` of one collection → `stacgis:searchfootprints`;
- `load_stac_items`, `load_stac_asset` and `visualize_collection` that made one raster → `stacgis:loaditems`
  (a load from a search's item collection file takes the ids that search listed);
- `compute_index` of one item (no area) → `stacgis:spectralindex`;
- `run_processing_algorithm(_to_files)` → the algorithm it ran, with the parameters as the chat gave them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..agent import events as ev
from ..agent.session_history import history_items
from ..agent.stores.base import SessionRecord

INDICES = ("NDVI", "NDWI", "NDMI", "NBR", "NDSI", "NDBI", "EVI", "SAVI")  # the provider's enum, in its order
GROUPS = ("date", "week", "month")
MAX_ITEMS = 100  # stacgis:loaditems' most items (the chat's MAX_MOSAIC_ITEMS)


@dataclass(frozen=True)
class Step:
    tool: str
    algorithm_id: str
    values: dict[str, Any]
    layers: tuple[dict[str, Any], ...] = ()  # the layers the call added, as its result describes them
    results: dict[str, Any] = field(default_factory=dict)  # a Processing call's results: output name → value


def _extent(bbox: Any) -> str | None:
    if not (isinstance(bbox, list) and len(bbox) == 4 and all(isinstance(v, (int, float)) for v in bbox)):
        return None
    west, south, east, north = bbox
    return f"{west},{east},{south},{north} [EPSG:4326]"


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _statistics(args: dict, _result: dict, _searches: dict) -> Step | None:
    index = str(args.get("index") or "").upper()
    if index not in INDICES or not _extent(args.get("bbox")):
        return None  # an asset summary or a selected-feature area has no counterpart yet
    return Step("collection_statistics", "stacgis:collectionstatistics", {
        "CATALOG": args.get("catalog") or "", "COLLECTION": args.get("collection"), "EXTENT": _extent(args["bbox"]),
        "DATETIME": args.get("datetime"), "INDEX": INDICES.index(index),
        "GROUP_BY": GROUPS.index(args.get("group_by")) if args.get("group_by") in GROUPS else 0,
        "EXACT": bool(args.get("exact", False))})


def _search(args: dict, _result: dict, _searches: dict) -> Step | None:
    collections = args.get("collections") or []
    if len(collections) != 1:
        return None
    values = {"CATALOG": args.get("catalog") or "", "COLLECTION": collections[0], "EXTENT": _extent(args.get("bbox")),
              "DATETIME": args.get("datetime"), "LIMIT": args.get("limit") or 10,
              "MAX_CLOUD": args.get("max_cloud_cover")}
    return Step("search_items", "stacgis:searchfootprints", {k: v for k, v in values.items() if v is not None})


def _raster_layers(result: dict) -> tuple[dict, ...] | None:
    """The raster layers a load described; None when it made several (one per CRS or day: loaditems writes one
    file and refuses those)."""
    layers = tuple(d for d in result.get("layers") or () if isinstance(d, dict))
    return None if len(layers) > 1 else layers


def _load(tool: str, args: dict, result: dict, values: dict) -> Step | None:
    layers = _raster_layers(result)
    if layers is None or not values.get("COLLECTION"):
        return None
    return Step(tool, "stacgis:loaditems", {"CATALOG": args.get("catalog") or "", "ASSET": args.get("asset") or "",
                                            **values}, layers)


def _load_items(args: dict, result: dict, searches: dict) -> Step | None:
    collection, ids = args.get("collection"), [str(i) for i in args.get("item_ids") or []]
    if args.get("item_collection_file"):
        _asked, listed = searches.get(str(args["item_collection_file"]), ({}, {}))
        if listed.get("left_out") or not listed.get("items"):
            return None  # the file's items are not all named in the chat: no ids to repeat
        ids = [str(brief.get("id")) for brief in listed["items"]]
        collections = {str(b.get("collection")) for b in listed["items"] if b.get("collection")}
        collection = collection or (collections.pop() if len(collections) == 1 else None)
    if not ids or len(ids) > MAX_ITEMS:
        return None
    return _load("load_stac_items", args, result, {"COLLECTION": collection, "ITEM_IDS": ",".join(ids),
                                                   "MAX_ITEMS": len(ids)})


def _load_asset(args: dict, result: dict, _searches: dict) -> Step | None:
    if not args.get("item_id"):
        return None
    return _load("load_stac_asset", args, result, {"COLLECTION": args.get("collection"),
                                                   "ITEM_IDS": str(args["item_id"]), "MAX_ITEMS": 1})


def _visualize(args: dict, result: dict, _searches: dict) -> Step | None:
    extent = _extent(args.get("bbox"))
    if not extent or args.get("show_imagery") is False:
        return None  # loaditems searches an extent; footprints alone are a search
    values = {"COLLECTION": args.get("collection"), "EXTENT": extent, "DATETIME": args.get("datetime"),
              "MAX_ITEMS": int(args.get("limit") or 20)}
    return _load("visualize_collection", args, result, {k: v for k, v in values.items() if v is not None})


def _index(args: dict, result: dict, _searches: dict) -> Step | None:
    index = str(args.get("index") or "").strip().upper()
    if (index not in INDICES or not args.get("item_id") or not args.get("collection") or args.get("bbox")
            or args.get("polygon") or args.get("use_selected_features")):
        return None  # a mosaic over an area and dates, or an item clipped to an area: no counterpart yet
    layer = {"name": result.get("layer"), "source": result.get("file")} if result.get("layer") else None
    return Step("compute_index", "stacgis:spectralindex", {
        "CATALOG": args.get("catalog") or "", "COLLECTION": args["collection"], "ITEM_ID": str(args["item_id"]),
        "INDEX": INDICES.index(index), "MASK_CLOUDS": bool(args.get("mask_clouds", True)),
        "EXACT": bool(args.get("exact", False))}, (layer,) if layer else ())


def _processing(args: dict, result: dict, _searches: dict) -> Step | None:
    algorithm = args.get("algorithm_id")
    parameters = args.get("parameters")
    if not isinstance(algorithm, str) or not isinstance(parameters, dict):
        return None
    layers = tuple(d for d in result.get("layers") or () if isinstance(d, dict))
    return Step("run_processing_algorithm", algorithm, dict(parameters), layers, _dict(result.get("results")))


STEPS: dict[str, Callable[[dict, dict, dict], Step | None]] = {
    "collection_statistics": _statistics, "search_items": _search, "load_stac_items": _load_items,
    "load_stac_asset": _load_asset, "visualize_collection": _visualize, "compute_index": _index,
    "run_processing_algorithm": _processing, "run_processing_algorithm_to_files": _processing}


def model_steps(record: SessionRecord) -> list[Step]:
    """The steps of the chat's calls that Processing can repeat, in the order they completed; only calls that
    completed (a refused or failed call made nothing)."""
    started: dict[str, tuple[str, dict]] = {}
    searches: dict[str, tuple[dict, dict]] = {}  # item collection file → the search that wrote it
    steps = []
    for item in history_items(record):
        if isinstance(item, ev.ToolStart) and (item.tool_name in STEPS):
            started[item.call_id] = (item.tool_name, dict(item.tool_args or {}))
        elif isinstance(item, ev.ToolResult) and item.call_id in started:
            name, args = started.pop(item.call_id)
            result = _dict(item.result)
            if name == "search_items" and result.get("item_collection_file"):
                searches[str(result["item_collection_file"])] = (args, result)
            step = STEPS[name](args, result, searches)
            if step is not None:
                steps.append(step)
    return steps
