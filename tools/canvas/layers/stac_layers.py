"""STAC items as QGIS layers: load_stac_asset, load_stac_items, visualize_collection."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Annotated, Any, Optional

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field
from qgis.core import QgsDateTimeRange, QgsLayerMetadata, QgsRasterLayer, QgsRasterLayerTemporalProperties
from qgis.PyQt.QtCore import QDateTime, Qt

from ...analysis.raster_inputs import check_outside_source
from ...common import WRITE, ToolInputError, check_bbox, ok, policy
from ...declare import deps_of, tool
from ...deps import ToolDeps
from ...engine.gdal_names import dataset, rules_for
from ...stac.gdal_reads import signing_in_this_thread
from ...stac.search import ItemSearch
from ...stac.timeutil import normalise_interval
from ..project_access import add_to_project
from ..zoom import bring_into_view
from .footprints import load_footprints
from .mosaic import build_mosaics
from .raster_styles import default_style
from .stac_assets import AssetChoice, band_kind, choose_assets

log = logging.getLogger(__name__)

MAX_MOSAIC_ITEMS = 100

CatalogName = Annotated[Optional[str], Field(description="Catalog name from list_catalogs; default: the first one")]
AssetKey = Annotated[Optional[str], Field(
    description="Asset key to show, e.g. 'visual', 'B04', 'ndvi'; default: visual, else red/green/blue, else first data asset")]


@tool(annotations=WRITE, meta=policy(requires=["qgis"]))
async def load_stac_asset(
    ctx: Context,
    collection: Annotated[str, Field(description="Collection id")],
    item_id: Annotated[str, Field(description="Item id from search_items")],
    asset: AssetKey = None, catalog: CatalogName = None,
) -> CallToolResult:
    """Put one asset (a band, the visual image, a DEM) of one STAC item on the map as a raster layer read in place (no download), styled by what it measures. E.g. 'load the red band of that scene'."""
    deps = deps_of(ctx)
    cat = deps.catalogs.get(catalog)
    item = await cat.item(collection, item_id)
    return await _show_items(deps, cat, [item], asset, f"{collection} {item_id}", footprints=False)


@tool(annotations=WRITE, meta=policy(requires=["qgis"]))
async def load_stac_items(
    ctx: Context,
    collection: Annotated[str | None, Field(description="Collection id")] = None,
    item_ids: Annotated[list[str] | None, Field(description="Item ids to mosaic")] = None,
    item_collection_file: Annotated[str | None, Field(
        description="The item_collection_file returned by search_items, instead of ids")] = None,
    asset: AssetKey = None, catalog: CatalogName = None,
    footprints: Annotated[bool, Field(description="Also draw the items' outlines")] = False,
) -> CallToolResult:
    """Put several STAC items on the map as ONE mosaic layer (one per CRS) in a layer group, read in place; items with dates can be animated with the Temporal Controller. E.g. 'mosaic the July scenes'."""
    deps = deps_of(ctx)
    cat = deps.catalogs.get(catalog)
    if item_collection_file:
        check_outside_source(deps, item_collection_file)  # outside clients: allowed folders only
        items = _read_item_collection(item_collection_file)
    elif item_ids and collection:
        items = list(await asyncio.gather(*(cat.item(collection, i) for i in item_ids)))
    else:
        raise ToolInputError("Give collection and item_ids, or the item_collection_file from search_items.")
    return await _show_items(deps, cat, items, asset, items_title(items, collection), footprints=footprints)


@tool(annotations=WRITE, meta=policy(requires=["qgis"]))
async def visualize_collection(
    ctx: Context,
    collection: Annotated[str, Field(description="Collection id")],
    bbox: Annotated[list[float] | None, Field(description="[west, south, east, north] in degrees")] = None,
    datetime: Annotated[str | None, Field(description="Date or interval, e.g. '2024-06-01/2024-06-30'")] = None,
    catalog: CatalogName = None, asset: AssetKey = None,
    show_imagery: Annotated[bool, Field(description="Also mosaic the items' imagery, not only outlines")] = True,
    limit: Annotated[int, Field(ge=1, le=MAX_MOSAIC_ITEMS, description="Most items to show")] = 20,
) -> CallToolResult:
    """Search a collection in an area and time and show it on the map in one go: a footprints layer of the scenes with their properties and, when asked, one mosaic of the imagery (true colour, NDVI, elevation), grouped together. E.g. 'show me Sentinel-2 over Lyon last June'."""
    deps = deps_of(ctx)
    cat = deps.catalogs.get(catalog)
    search = ItemSearch(collections=[collection], bbox=check_bbox(bbox), datetime=normalise_interval(datetime),
                        limit=limit)
    outcome = await cat.search(search)
    if not outcome.items:
        raise ToolInputError(f"No items of '{collection}' match that area and time; widen the bbox or dates.")
    title = f"{collection} {datetime or ''}".strip()
    if not show_imagery:
        return await _show_footprints_only(deps, cat, outcome.items, title)
    return await _show_items(deps, cat, outcome.items, asset, title, footprints=True)


def items_title(items: list[dict], collection: str | None = None) -> str:
    """'sentinel-2-l2a (3 items)'; an item without a collection goes by its id, never 'None'."""
    collections = sorted({str(i["collection"]) for i in items if i.get("collection")})
    label = collection or (collections[0] if len(collections) == 1 else "")
    if len(items) == 1:
        item_id = str(items[0].get("id") or "STAC item")
        return f"{label} {item_id}" if label else item_id
    return f"{label or 'STAC items'} ({len(items)} items)"


async def _show_footprints_only(deps: ToolDeps, cat: Any, items: list[dict], title: str) -> CallToolResult:
    layer = await load_footprints(items, deps.output_dir(), f"{title} footprints", cat.config.url)
    group = add_to_project(deps, [layer], title)
    return ok({"group": group, "layers": [{"name": layer.name(), "id": layer.id(), "features": layer.featureCount()}]},
              f"Added {layer.featureCount()} footprints as one layer in group '{group}'")


async def _show_items(deps: ToolDeps, cat: Any, items: list[dict], asset: str | None, title: str,
                      footprints: bool) -> CallToolResult:
    choices, results = await item_mosaics(deps, cat, items, asset, title, deps.output_dir())
    collection = str(items[0].get("collection") or "")
    layers, described = [], []
    for result in results:  # build every layer before adding any: a failure leaves the project untouched
        name = " ".join(part for part in (title, result["crs"] if result["several_crs"] else "", result["day"]) if part)
        layer = QgsRasterLayer(dataset(result["path"]), name, "gdal")
        if not layer.isValid():
            raise ToolInputError(f"QGIS could not open the mosaic for {result['crs']} ({result['path']}); "
                                 "nothing was added. Check the asset hrefs with get_item.")
        renderer = default_style(layer, band_kind(choices[0], collection), choices[0].kind, result["bands"],
                                 choices[0].classes)
        _link_metadata(layer, items, result["item_ids"], cat.config.url)
        _set_time(layer, result["start"], result["end"])
        layers.append(layer)
        described.append({"name": name, "id": layer.id(), "source": result["path"], "crs": result["crs"],
                          "crs_note": result["crs_note"], "items": len(result["item_ids"]), "renderer": renderer,
                          "bands": [b["name"] for b in result["bands"]], "bounds_lonlat": result["bounds_lonlat"]})
    if footprints:
        layers.insert(0, await load_footprints(items, deps.output_dir(), f"{title} footprints", cat.config.url))
    grouped = len(layers) > 1 or len(items) > 1
    group = add_to_project(deps, layers, title if grouped else None)
    where = f" in group '{group}'" if group else ""
    view, view_words = bring_into_view(deps, layers)
    return ok({"group": group, "layers": described, "items": len(items), **view},
              f"Added {len(described)} raster layer(s) from {len(items)} item(s){where}: "
              + ", ".join(f"{d['name']} ({d['renderer']}{_crs_words(d)})" for d in described) + view_words)


async def item_mosaics(deps: ToolDeps, cat: Any, items: list[dict], asset: str | None, title: str,
                       folder: Path) -> tuple[list[AssetChoice], list[dict]]:
    """The items' assets picked and mosaicked into `folder` (GDAL in a worker; no project): the choices and one
    result per CRS (and per day of a time series), each with the path of its file. The mosaics and the
    catalog's header files (credentials) are written in `folder`."""
    if not items:
        raise ToolInputError("No items to show.")
    if len(items) > MAX_MOSAIC_ITEMS:
        raise ToolInputError(f"{len(items)} items are too many for one mosaic (at most {MAX_MOSAIC_ITEMS}); "
                             "narrow the search by area, dates or cloud cover.")
    choices = [choose_assets(item, asset) for item in items]
    kinds = {c.kind for c in choices}
    if len(kinds) > 1:
        raise ToolInputError(f"The items offer different assets ({', '.join(sorted(kinds))}); name one with `asset`.")
    reads = []
    by_id = {str(i.get("id")): i for i in items}
    for choice in choices:  # the catalog's credentials, scoped to each asset's path (stac/gdal_reads.py)
        assets = (by_id.get(choice.item_id) or {}).get("assets") or {}
        hrefs = [deps.catalogs.asset_href(cat.name, assets.get(k) or {}, h) for k, h in zip(choice.keys, choice.hrefs)]
        planned = [deps.catalogs.plan_read(h, folder, cat.name, str(choice_collection(items, choice)),
                                           rules_for(deps)) for h in hrefs]
        choice.paths = [path for path, _ in planned]
        reads += [options for _, options in planned]
    results = await asyncio.to_thread(build_mosaics_with_access, reads, choices, str(folder), title)
    return choices, results


def _crs_words(described: dict) -> str:
    note = described["crs_note"]
    if not note:
        return ""
    return f"; CRS {described['crs']} {note}" if note.startswith("from") else f"; {note}"


def choice_collection(items: list[dict], choice: AssetChoice) -> str:
    return next((str(i.get("collection") or "") for i in items if str(i.get("id")) == choice.item_id), "")


def build_mosaics_with_access(reads: list, choices: list[AssetChoice], out_dir: str,
                              title: str) -> list[dict]:
    """In the worker: credentials in place first, then GDAL; an access failure says which catalog and what to do."""
    for options in reads:
        options.prepare()
    try:  # the pool's threads read with the catalog's own token endpoint too, not GDAL's public default
        return build_mosaics(choices, out_dir, title, in_thread=lambda: signing_in_this_thread(reads))
    except ToolInputError as exc:
        message = str(exc)
        named = [options for options in reads if options.href and options.href in message]
        explained = next((text for text in (options.explain(message) for options in named or reads) if text), "")
        if explained:
            raise ToolInputError(explained.rstrip(".") + "; nothing was added to the map.") from None
        raise


def _read_item_collection(path: str) -> list[dict]:
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ToolInputError(f"Cannot read item collection '{path}': {exc}. Run search_items again.") from None
    return list(doc.get("features") or [])


def _link_metadata(layer: QgsRasterLayer, items: list[dict], ids: list[str], catalog_url: str) -> None:
    metadata = QgsLayerMetadata()
    metadata.setTitle(layer.name())
    metadata.setIdentifier(ids[0] if len(ids) == 1 else layer.name())
    links = []
    by_id = {str(i.get("id")): i for i in items}
    for item_id in ids:
        item = by_id.get(item_id, {})
        href = next((lnk.get("href") for lnk in item.get("links") or [] if lnk.get("rel") == "self"), None) or \
            f"{catalog_url.rstrip('/')}/collections/{item.get('collection')}/items/{item_id}"
        link = QgsLayerMetadata.Link(item_id, "STAC item", href)
        link.mimeType = "application/geo+json"
        links.append(link)
    metadata.setLinks(links)
    layer.setMetadata(metadata)


def _set_time(layer: QgsRasterLayer, start: str | None, end: str | None) -> None:
    if not start:
        return
    begin = QDateTime.fromString(start.replace("Z", "+00:00")[:19], Qt.DateFormat.ISODate)
    finish = QDateTime.fromString((end or start).replace("Z", "+00:00")[:19], Qt.DateFormat.ISODate)
    if not begin.isValid():
        return
    begin.setTimeSpec(Qt.TimeSpec.UTC)
    finish.setTimeSpec(Qt.TimeSpec.UTC)
    temporal = layer.temporalProperties()
    temporal.setIsActive(True)
    temporal.setMode(QgsRasterLayerTemporalProperties.ModeFixedTemporalRange)
    temporal.setFixedTemporalRange(QgsDateTimeRange(begin, finish))


__all__ = ["AssetChoice"]
