"""A static STAC catalog (a local folder or a URL to catalog.json), walked once and searched locally.

Its hrefs are made absolute against the document that names them, within the catalog's bounds
(gdal_names.within_catalog): a catalog read over HTTP never names a file of this computer, a local one only
files under its own folder. A link or asset that points elsewhere is left out, and the log says so."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx

from ...agent.config import CatalogConfig
from ..common import ToolInputError
from ..engine.fetched_urls import catalog_link
from ..engine.gdal_names import within_catalog
from .http_json import CatalogError, fetch_json
from .legacy import upgraded_item
from .search import ItemSearch, SearchOutcome, cloud_ok
from .timeutil import interval_bounds, item_time_range, overlaps

log = logging.getLogger(__name__)

MAX_WALKED_ITEMS = 50_000
MAX_DEPTH = 8


def _is_url(location: str) -> bool:
    return urlparse(location).scheme in ("http", "https")


class StaticCatalog:
    kind = "static"

    def __init__(self, config: CatalogConfig, http: httpx.AsyncClient) -> None:
        self.config = config
        self.name = config.name
        location = config.url
        if not _is_url(location) and Path(location).is_dir():
            location = str(Path(location) / "catalog.json")
        self.location = location
        self.http = http
        self.headers_for = lambda url: dict(config.headers)  # the registry scopes credentials to the catalog's hosts
        self.remedy = ""  # what to do when refused, for the catalog's access method (set by the registry)
        self._collections: dict[str, dict] | None = None
        self._items: list[dict] = []
        self._lock = asyncio.Lock()

    async def _read(self, location: str) -> Any:
        if _is_url(location):
            return await fetch_json(self.http, catalog_link(location, self.location, self.config.asset_hosts),
                                    catalog=self.name, headers=self.headers_for(location) or None,
                                    remedy=self.remedy)
        try:
            return json.loads(await asyncio.to_thread(Path(location).read_text, encoding="utf-8"))
        except FileNotFoundError:
            raise CatalogError(f"Static catalog '{self.name}': file {location} does not exist. "
                               "Check the catalog path in the plugin settings.") from None
        except (OSError, ValueError) as exc:
            raise CatalogError(f"Static catalog '{self.name}': cannot read {location} as JSON ({exc}).") from None

    async def _walk(self) -> None:
        async with self._lock:
            if self._collections is not None:
                return
            collections: dict[str, dict] = {}
            items: list[dict] = []
            stack: list[tuple[str, int, str | None]] = [(self.location, 0, None)]
            seen: set[str] = set()
            while stack:
                location, depth, parent_collection = stack.pop()
                if location in seen or depth > MAX_DEPTH or len(items) >= MAX_WALKED_ITEMS:
                    continue
                seen.add(location)
                doc = await self._read(location)
                if not isinstance(doc, dict):
                    continue
                kind = doc.get("type")
                if kind == "Feature":
                    items.append(self._absolute_item(doc, location, parent_collection))
                    continue
                if kind == "FeatureCollection":
                    for feature in doc.get("features") or []:
                        items.append(self._absolute_item(feature, location, parent_collection))
                    continue
                current = parent_collection
                if kind == "Collection" or (kind is None and "extent" in doc and "id" in doc):  # 0.8/0.9: no type
                    collections[doc["id"]] = doc
                    current = doc["id"]
                for link in doc.get("links") or []:
                    if link.get("rel") in ("child", "item") and link.get("href"):
                        target = self._resolve(location, link["href"])
                        if target:
                            stack.append((target, depth + 1, current))
            self._collections = collections
            self._items = items
            log.info("static catalog %s: %d collections, %d items", self.name, len(collections), len(items))

    def _resolve(self, location: str, href: str) -> str:
        """`href` of the document at `location`, absolute; "" (and a log line) where the catalog may not point."""
        try:
            return within_catalog(location, str(href), root=self.location)
        except ToolInputError as exc:
            log.warning("static catalog %s: %s", self.name, exc)
            return ""

    def _absolute_item(self, item: dict, location: str, collection: str | None) -> dict:
        item = upgraded_item(item)  # 0.8/0.9 band layout read as 1.0
        item.setdefault("collection", collection)
        assets = {}
        for key, asset in (item.get("assets") or {}).items():
            if isinstance(asset, dict) and asset.get("href"):
                href = self._resolve(location, asset["href"])
                if not href:
                    continue  # an asset pointing where its catalog may not is not offered
                asset = {**asset, "href": href}
            assets[key] = asset
        item["assets"] = assets
        return item

    async def conformance(self) -> list[str]:
        return []

    async def conforms(self, fragment: str) -> bool:
        return False

    async def queryables(self, collection: str | None = None) -> dict:
        return {}

    async def collections(self) -> list[dict]:
        await self._walk()
        return list(self._collections.values())

    async def collection(self, collection_id: str) -> dict:
        await self._walk()
        if collection_id not in self._collections:
            raise ToolInputError(f"Collection '{collection_id}' is not in catalog '{self.name}'. "
                                 f"Known collections: {', '.join(list(self._collections)[:30])}")
        return self._collections[collection_id]

    async def item(self, collection_id: str, item_id: str) -> dict:
        await self._walk()
        for item in self._items:  # an item may name a collection the catalog holds no document for
            if item.get("id") == item_id and item.get("collection") == collection_id:
                return item
        await self.collection(collection_id)
        raise ToolInputError(f"Item '{item_id}' is not in collection '{collection_id}'; "
                             "use search_items to find item ids.")

    async def search_collections(self, q: str, limit: int, bbox: list[float] | None = None,
                                 datetime: str | None = None, wider: int = 0) -> None:
        return None  # a static catalog has no collection search: the caller matches words locally

    async def search(self, search: ItemSearch) -> SearchOutcome:
        await self._walk()
        if search.filter:
            raise ToolInputError(f"Catalog '{self.name}' is a static catalog and cannot run CQL2 filters; "
                                 "search with collections, bbox and datetime, then read item properties.")
        for collection_id in search.collections:
            await self.collection(collection_id)
        wanted_time = interval_bounds(search.datetime)
        bbox = search.bbox or (_geometry_bbox(search.intersects) if search.intersects else None)
        matched = []
        for item in self._items:
            if search.collections and item.get("collection") not in search.collections:
                continue
            if search.ids and item.get("id") not in search.ids:
                continue
            if bbox and not _bbox_intersects(item.get("bbox"), bbox):
                continue
            if search.datetime and not overlaps(item_time_range(item.get("properties") or {}), wanted_time):
                continue
            if not cloud_ok(item, search.max_cloud_cover):
                continue
            matched.append(item)
        for sort in reversed(search.sortby):
            name = sort["field"].removeprefix("properties.")
            matched.sort(key=lambda it, n=name: _sort_key((it.get("properties") or {}).get(n, it.get(n))),
                         reverse=sort.get("direction") == "desc")
        return SearchOutcome(matched[: search.limit], len(matched), 0, len(matched) > search.limit)


def _sort_key(value: Any) -> tuple:
    return (value is None, str(value) if not isinstance(value, (int, float)) else value)


def _bbox_intersects(a: Any, b: list[float]) -> bool:
    if not isinstance(a, (list, tuple)) or len(a) < 4:
        return False
    if len(a) == 6:
        a = [a[0], a[1], a[3], a[4]]
    return not (a[2] < b[0] or a[0] > b[2] or a[3] < b[1] or a[1] > b[3])


def _geometry_bbox(geometry: dict) -> list[float]:
    xs: list[float] = []
    ys: list[float] = []

    def walk(coords: Any) -> None:
        if coords and isinstance(coords[0], (int, float)):
            xs.append(coords[0])
            ys.append(coords[1])
        else:
            for c in coords:
                walk(c)

    walk(geometry.get("coordinates") or [])
    if not xs:
        raise ToolInputError("The geometry has no coordinates.")
    return [min(xs), min(ys), max(xs), max(ys)]
