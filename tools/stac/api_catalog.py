"""A STAC API: conformance checked once, collections, item search that follows `next` links linearly."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urljoin

import httpx

from ...agent.config import CatalogConfig
from ..common import ToolInputError
from .http_json import CatalogError, NotFound, fetch_json
from .search import PAGE_SIZE, ItemSearch, SearchOutcome, and_filters, cloud_filter, cloud_ok

log = logging.getLogger(__name__)

MAX_COLLECTION_PAGES = 20


class ApiCatalog:
    kind = "api"

    def __init__(self, config: CatalogConfig, http: httpx.AsyncClient) -> None:
        self.config = config
        self.name = config.name
        self.root = config.url.rstrip("/")
        self.http = http
        self.headers_for = lambda url: dict(config.headers)  # the registry scopes credentials to the catalog's hosts
        self.remedy = ""  # what to do when refused, for the catalog's access method (set by the registry)
        self._conformance: list[str] | None = None
        self._queryables: dict[str, dict] = {}
        self._collections: list[dict] | None = None
        self._collection_docs: dict[str, dict] = {}

    async def _get(self, path_or_url: str, **kwargs: Any) -> Any:
        url = path_or_url if path_or_url.startswith("http") else self.root + path_or_url
        return await fetch_json(self.http, url, catalog=self.name, headers=self.headers_for(url) or None,
                                remedy=self.remedy, **kwargs)

    async def conformance(self) -> list[str]:
        if self._conformance is None:
            try:
                doc = await self._get("/conformance")
            except NotFound:
                doc = await self._get("/")
            self._conformance = list(doc.get("conformsTo") or []) if isinstance(doc, dict) else []
        return self._conformance

    async def conforms(self, fragment: str) -> bool:
        return any(fragment in c for c in await self.conformance())

    async def queryables(self, collection: str | None = None) -> dict:
        key = collection or ""
        if key not in self._queryables:
            path = f"/collections/{collection}/queryables" if collection else "/queryables"
            try:
                self._queryables[key] = await self._get(path)
            except NotFound:
                self._queryables[key] = {}
        return self._queryables[key]

    async def collections(self) -> list[dict]:
        if self._collections is None:
            found: list[dict] = []
            url: str | None = "/collections"
            for _ in range(MAX_COLLECTION_PAGES):
                if not url:
                    break
                doc = await self._get(url)
                if not isinstance(doc, dict) or not isinstance(doc.get("collections"), list):
                    raise CatalogError(f"Catalog '{self.name}' /collections is not a STAC collection list.")
                found.extend(doc["collections"])
                url = _next_link(doc, self.root)[0]
            self._collections = found
        return self._collections

    async def collection(self, collection_id: str) -> dict:
        if collection_id in self._collection_docs:  # collections do not change within a session
            return self._collection_docs[collection_id]
        try:
            doc = await self._get(f"/collections/{collection_id}")
            self._collection_docs[collection_id] = doc
            return doc
        except NotFound:
            known = [c.get("id") for c in await self.collections()]
            raise ToolInputError(f"Collection '{collection_id}' is not in catalog '{self.name}'. "
                                 f"Known collections: {', '.join(map(str, known[:30]))}") from None

    async def item(self, collection_id: str, item_id: str) -> dict:
        try:
            return await self._get(f"/collections/{collection_id}/items/{item_id}")
        except NotFound:
            await self.collection(collection_id)  # says so when the collection is the unknown part
            raise ToolInputError(f"Item '{item_id}' is not in collection '{collection_id}'; "
                                 "use search_items to find item ids.") from None

    async def search_collections(self, q: str, limit: int) -> list[dict] | None:
        """Collections matching free text `q`, searched by the API (collection search); None when it cannot."""
        if not q or not await self.conforms("collection-search#free-text"):
            return None
        doc = await self._get("/collections", params={"q": q, "limit": limit})
        if not isinstance(doc, dict) or not isinstance(doc.get("collections"), list):
            raise CatalogError(f"Catalog '{self.name}' /collections?q= is not a STAC collection list.")
        return doc["collections"]

    async def _apply_extensions(self, search: ItemSearch) -> None:
        """Cloud cover as a CQL2 filter or a Query-extension clause, and fewer bytes per item with Fields."""
        if search.max_cloud_cover is not None:
            if await self.conforms("filter"):
                search.filter = and_filters(search.filter, cloud_filter(search.max_cloud_cover))
                search.max_cloud_cover = None
            elif await self.conforms("#query"):
                search.query = {**(search.query or {}), "eo:cloud_cover": {"lte": search.max_cloud_cover}}
                search.max_cloud_cover = None
        if search.fields is None and await self.conforms("#fields"):
            search.fields = {"exclude": ["links"]}  # the one part of an item nothing here reads

    async def search(self, search: ItemSearch) -> SearchOutcome:
        """Gathers up to `search.limit` items, fetching each page once, in order."""
        if not await self.conforms("item-search"):
            raise CatalogError(f"Catalog '{self.name}' does not offer item search (/search).")
        await self._apply_extensions(search)
        page_size = min(PAGE_SIZE, max(1, search.limit))
        items: list[dict] = []
        seen_ids: set[tuple] = set()
        number_matched = None
        pages = 0
        request: tuple[str, str, dict | None] | None = ("POST", self.root + "/search", search.body(page_size))
        visited: set[str] = set()
        while request and len(items) < search.limit:
            method, url, body = request
            marker = f"{method} {url} {sorted(body.items()) if body else ''}"
            if marker in visited:  # a catalog whose next link points back would loop forever
                break
            visited.add(marker)
            doc = await self._get(url, method=method, body=body)
            pages += 1
            if not isinstance(doc, dict) or not isinstance(doc.get("features"), list):
                raise CatalogError(f"Catalog '{self.name}' returned a search page that is not a FeatureCollection.")
            if number_matched is None:
                number_matched = doc.get("numberMatched", (doc.get("context") or {}).get("matched"))
            for feature in doc["features"]:
                key = (feature.get("collection"), feature.get("id"))
                if not cloud_ok(feature, search.max_cloud_cover):  # the API could not filter: done here
                    continue
                if key not in seen_ids:
                    seen_ids.add(key)
                    items.append(feature)
            next_url, next_method, next_body, merge = _next_link(doc, self.root)
            if next_url is None:
                request = None
            elif next_method == "POST":
                request = ("POST", next_url, {**(body or {}), **(next_body or {})} if merge or not next_body
                           else next_body)
            else:
                request = ("GET", next_url, None)
        more = request is not None or len(items) > search.limit
        return SearchOutcome(items[: search.limit], number_matched, pages, more)


def _next_link(doc: dict, root: str) -> tuple[str | None, str, dict | None, bool]:
    for link in doc.get("links") or []:
        if isinstance(link, dict) and link.get("rel") == "next" and link.get("href"):
            return (urljoin(root + "/", link["href"]), str(link.get("method", "GET")).upper(),
                    link.get("body"), bool(link.get("merge")))
    return None, "GET", None, False
