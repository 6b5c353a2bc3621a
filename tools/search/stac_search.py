"""STAC tools: list_catalogs, search_collections, get_collection_info, search_items, get_item."""

from __future__ import annotations

import json
import logging
import uuid
from typing import Annotated, Any, Optional

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from ..analysis.selected_features import selected_geometry_lonlat
from ..common import READ, ToolInputError, capped, check_bbox, ok, policy
from ..declare import deps_of, tool
from ..stac.search import MAX_ITEMS, ItemSearch
from ..stac.summaries import collection_brief, collection_detail, collection_text, item_brief, item_detail
from ..stac.timeutil import interval_bounds, normalise_interval, overlaps
from ..stac.untrusted import envelope

log = logging.getLogger(__name__)

MAX_LISTED_COLLECTIONS = 30
MAX_LISTED_ITEMS = 50

CatalogName = Annotated[Optional[str], Field(description="Catalog name from list_catalogs; default: the first one")]
Bbox = Annotated[Optional[list[float]], Field(description="[west, south, east, north] in degrees (EPSG:4326)")]
Interval = Annotated[Optional[str], Field(
    description="Date or interval: '2024-06-01', '2024-06-01/2024-06-30', open ends '../2024-06-30' or '2024-06-01/..'")]


@tool(annotations=READ, meta=policy(discovery=True))
async def list_catalogs(ctx: Context) -> CallToolResult:
    """Which STAC catalogs (data sources) are configured: name, API or static, URL, how assets are read, and whether an API can filter and sort. E.g. 'which catalogs can you reach?'"""
    deps = deps_of(ctx)
    rows = []
    for catalog in deps.catalogs.all():
        row: dict[str, Any] = {"name": catalog.name, "kind": catalog.kind, "url": catalog.config.url,
                               "access": deps.catalogs.access(catalog.name).label,
                               "source": ("QGIS Browser connection (read-only here; edit it in the Browser)"
                                          if catalog.name in deps.catalogs.from_browser else "plugin settings")}
        if catalog.kind == "api":
            try:
                row["filter"] = await catalog.conforms("filter")
                row["sort"] = await catalog.conforms("#sort")
            except ToolInputError as exc:
                row["error"] = str(exc)
        rows.append(row)
    names = ", ".join(r["name"] for r in rows) or "none"
    return ok({"catalogs": rows}, f"{len(rows)} catalog(s): {names}")


@tool(annotations=READ, meta=policy(discovery=True))
async def search_collections(
    ctx: Context,
    query: Annotated[str, Field(description="Words to find in collection id, title, description or keywords; '' lists all")] = "",
    catalog: CatalogName = None,
    catalogs: Annotated[list[str] | None, Field(
        description="Search several catalogs at once: names from list_catalogs, or ['*'] for all")] = None,
    bbox: Bbox = None, datetime: Interval = None,
    limit: Annotated[int, Field(ge=1, le=100)] = 10,
) -> CallToolResult:
    """Find datasets (STAC collections) in one or several catalogs by words (the API's collection search when it has one): satellite imagery (Sentinel-2, Landsat, radar), elevation models (DEM), NDVI, land cover; optionally only those covering an area and dates; each result names its catalog. E.g. 'what data do I have?', 'is there a DEM of Grenoble?'"""
    deps = deps_of(ctx)
    names = deps.catalogs.names() if catalogs == ["*"] else list(catalogs or [])
    targets = [deps.catalogs.get(n) for n in names] if names else [deps.catalogs.get(catalog)]
    bbox = check_bbox(bbox)
    wanted_time = interval_bounds(normalise_interval(datetime))
    found, texts, errors, counted, beyond = [], {}, {}, {}, False
    for cat in targets:
        try:
            matches, served = await _matching_collections(cat, query, limit, bbox, normalise_interval(datetime))
        except ToolInputError as exc:
            if len(targets) == 1:
                raise
            errors[cat.name] = str(exc)
            continue
        applied = served.applied if served else set()
        narrowed = []
        for c in matches:
            brief = {"catalog": cat.name, **collection_brief(c)}
            if bbox and "bbox" not in applied and brief["bbox"] and not _boxes_overlap(brief["bbox"], bbox):
                continue
            if datetime and "datetime" not in applied and brief["interval"] \
                    and not overlaps(_interval_range(brief["interval"]), wanted_time):
                continue
            narrowed.append(brief)
            texts[f"{cat.name} / {brief['id']}"] = collection_text(c)
        found += narrowed
        # the API's count stands when it counted everything asked; a page narrowed here counts what is kept
        whole = served is not None and served.number_matched is not None and len(narrowed) == len(matches)
        counted[cat.name] = max(served.number_matched, len(narrowed)) if whole else len(narrowed)
        beyond = beyond or (served is not None and served.next_page and not whole)
    shown, left_out = capped(found, min(limit * len(targets), MAX_LISTED_COLLECTIONS))
    shown_keys = {f"{b['catalog']} / {b['id']}" for b in shown}
    matched = sum(counted.values())
    data = {"catalogs": [t.name for t in targets], "collections": shown, "matched": matched,
            "more_available": matched > len(shown) or beyond, "left_out": left_out,
            "catalog_text": envelope(collections={k: v for k, v in texts.items() if k in shown_keys})}
    if errors:
        data["errors"] = errors
    ids = ", ".join(f"{c['id']} ({c['catalog']})" if len(targets) > 1 else str(c["id"]) for c in shown) or "none"
    where = f"'{targets[0].name}'" if len(targets) == 1 else f"{len(targets)} catalogs"
    return ok(data, f"{matched} collection(s) in {where} match"
                    + (f" ({len(shown)} listed)" if matched > len(shown) else "") + f": {ids}"
                    + (f"; unreachable: {', '.join(errors)}" if errors else ""))


@tool(annotations=READ, meta=policy(discovery=True))
async def get_collection_info(
    ctx: Context,
    collection: Annotated[str, Field(description="Collection id")], catalog: CatalogName = None,
) -> CallToolResult:
    """Describe one dataset (collection): bands and their names, resolution, scale/offset, spatial and temporal extent, licence. E.g. 'what bands does sentinel-2-l2a have?'"""
    deps = deps_of(ctx)
    cat = deps.catalogs.get(catalog)
    detail = collection_detail(await cat.collection(collection))
    assets = ", ".join(a["key"] for a in detail["item_assets"]) or "not declared"
    return ok(detail, f"Collection '{collection}' ({detail['license']}); item assets: {assets}")


@tool(annotations=READ, meta=policy(discovery=True))
async def search_items(
    ctx: Context,
    collections: Annotated[list[str] | None, Field(description="Collection ids to search")] = None,
    catalog: CatalogName = None, bbox: Bbox = None,
    use_selected_feature: Annotated[bool, Field(
        description="Search where the feature(s) selected on the map are, instead of a bbox")] = False,
    datetime: Interval = None,
    filter: Annotated[dict | None, Field(
        description="CQL2-JSON filter on item properties, e.g. {'op':'<=','args':[{'property':'eo:cloud_cover'},20]}")] = None,
    sortby: Annotated[str | None, Field(
        description="Comma-separated fields, '-' for descending, e.g. '-datetime' or 'eo:cloud_cover'")] = None,
    ids: Annotated[list[str] | None, Field(description="Only these item ids")] = None,
    limit: Annotated[int, Field(ge=1, le=MAX_ITEMS, description=f"Most items to return (at most {MAX_ITEMS})")] = 10,
    max_cloud_cover: Annotated[float | None, Field(
        ge=0, le=100, description="Only items with eo:cloud_cover at most this (percent)")] = None,
) -> CallToolResult:
    """Find satellite scenes/images (STAC items) of collections over an area (bbox or the selected map feature) and dates, filtered (CQL2, e.g. cloud cover) and sorted. Returns item ids, dates and asset keys; the full result is saved as a GeoJSON file of footprints. E.g. 'least cloudy Sentinel-2 scene of Lyon in June'."""
    deps = deps_of(ctx)
    cat = deps.catalogs.get(catalog)
    bbox = check_bbox(bbox)
    intersects = None
    if use_selected_feature:
        project = deps.project()
        intersects = selected_geometry_lonlat(project) if project is not None else None
        if intersects is None:
            raise ToolInputError("No feature is selected on the map. Select one, or give a bbox instead.")
        bbox = None
    search = ItemSearch(collections=list(collections or []), bbox=bbox, intersects=intersects,
                        datetime=normalise_interval(datetime), ids=list(ids or []), limit=limit,
                        sortby=_parse_sortby(sortby), max_cloud_cover=max_cloud_cover)
    if search.sortby and cat.kind == "api" and not await cat.conforms("#sort"):
        raise ToolInputError(f"Catalog '{cat.name}' cannot sort results; search without sortby.")
    if filter:
        await _check_filter(cat, filter, search.collections)
        search.filter = filter
    if cat.kind == "api":
        for collection_id in search.collections:
            await cat.collection(collection_id)  # an unknown collection gets a clear message, not 0 items
    outcome = await cat.search(search)
    path = deps.output_dir() / f"items-{uuid.uuid4().hex[:8]}.geojson"
    path.write_text(json.dumps({"type": "FeatureCollection", "features": outcome.items}), encoding="utf-8")
    briefs = [item_brief(i) for i in outcome.items]
    shown, left_out = capped(briefs, MAX_LISTED_ITEMS)
    data = {"catalog": cat.name, "returned": len(outcome.items), "number_matched": outcome.number_matched,
            "more_available": outcome.more_available, "pages_fetched": outcome.pages_fetched,
            "items": shown, "left_out": left_out, "item_collection_file": str(path)}
    if outcome.notes:
        data["notes"] = outcome.notes
    matched = f" of {outcome.number_matched} matched" if outcome.number_matched is not None else ""
    return ok(data, f"{len(outcome.items)} item(s){matched} in '{cat.name}'"
                    + (f"; first {len(shown)} listed" if left_out else "")
                    + ("; more are available (raise limit or narrow the search)" if outcome.more_available else "")
                    + "".join(f". {note}" for note in outcome.notes))


@tool(annotations=READ, meta=policy(discovery=True))
async def get_item(
    ctx: Context,
    collection: Annotated[str, Field(description="Collection id")],
    item_id: Annotated[str, Field(description="Item id from search_items")],
    catalog: CatalogName = None,
) -> CallToolResult:
    """One scene (STAC item) by id: its properties (date, cloud cover, projection) and every asset/band with roles, media type, href and the GDAL path to read it in place. E.g. 'which assets does this scene have?'"""
    deps = deps_of(ctx)
    cat = deps.catalogs.get(catalog)
    detail = item_detail(await cat.item(collection, item_id))
    keys = ", ".join(a["key"] for a in detail["assets"])
    return ok(detail, f"Item '{item_id}' with assets: {keys}")


def _parse_sortby(text: str | None) -> list[dict]:
    out = []
    for part in (text or "").split(","):
        part = part.strip()
        if not part:
            continue
        direction = "desc" if part.startswith("-") else "asc"
        out.append({"field": part.lstrip("+-"), "direction": direction})
    return out


def _filter_properties(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = {node["property"]} if isinstance(node.get("property"), str) else set()
        for value in node.values():
            found |= _filter_properties(value)
        return found
    if isinstance(node, list):
        return set().union(*(_filter_properties(v) for v in node)) if node else set()
    return set()


async def _check_filter(cat: Any, cql2: dict, collections: list[str]) -> None:
    if cat.kind != "api" or not await cat.conforms("filter"):
        raise ToolInputError(f"Catalog '{cat.name}' cannot run CQL2 filters; search with collections, bbox "
                             "and datetime, then compare item properties yourself.")
    if "op" not in cql2 or "args" not in cql2:
        raise ToolInputError("filter must be CQL2-JSON: {'op': '<=', 'args': [{'property': 'eo:cloud_cover'}, 20]}")
    known: set[str] = set()
    any_property = True  # additionalProperties: true in every searched collection: any property is taken
    for collection_id in collections or [None]:
        declared = (await cat.queryables(collection_id)) or {}
        known |= set(declared.get("properties") or {})
        any_property = any_property and declared.get("additionalProperties") is True
    unknown = sorted(_filter_properties(cql2) - known)
    if unknown and known and not any_property:
        raise ToolInputError(f"Cannot filter on {', '.join(unknown)}: not queryable in '{cat.name}'. "
                             f"Queryable properties: {', '.join(sorted(known))}")


async def _matching_collections(cat: Any, query: str, limit: int, bbox: list[float] | None,
                                datetime: str | None) -> tuple[list[dict], Any]:
    """The API's own collection search when it can take the words (and the area and dates it can), with its
    numberMatched; else every word matched locally over all collections (no count from the API: None)."""
    served = await cat.search_collections(query, limit, bbox, datetime, wider=MAX_LISTED_COLLECTIONS)
    if served is not None:
        return served.collections, served
    words = [w.lower() for w in query.split() if w.strip()]
    matches = []
    for c in await cat.collections():
        text = " ".join([str(c.get("id", "")), str(c.get("title", "")), str(c.get("description", "")),
                         " ".join(map(str, c.get("keywords") or []))]).lower()
        if not words or all(w in text for w in words):
            matches.append(c)
    return matches, None


def _boxes_overlap(a: list[float], b: list[float]) -> bool:
    return not (a[2] < b[0] or a[0] > b[2] or a[3] < b[1] or a[1] > b[3])


def _interval_range(interval: list) -> tuple:
    start, end = (interval + [None, None])[:2]
    return interval_bounds(f"{start or '..'}/{end or '..'}")
