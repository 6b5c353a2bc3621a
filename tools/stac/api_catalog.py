"""A STAC API: conformance checked once, collections, item search that follows `next` links linearly."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

import httpx

from ...agent.config import CatalogConfig
from ..common import ToolInputError
from ..engine.fetched_urls import RefusedLink, catalog_link
from .access import ScopedHeaders
from .http_json import CatalogError, NotFound, fetch_json
from .search import PAGE_SIZE, ItemSearch, SearchOutcome, and_filters, cloud_filter, cloud_ok, get_param

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
        self._landing: dict | None = None
        self._method: str | None = None  # "POST" or "GET" for item search, once known

    async def _get(self, path_or_url: str, extra_headers: dict | None = None, **kwargs: Any) -> Any:
        """`extra_headers` (a next link's own headers) go first: the catalog's scoped credentials win."""
        url = path_or_url if path_or_url.startswith("http") else self.root + path_or_url
        scoped = self.headers_for(url) or {}
        headers = scoped if not extra_headers else ScopedHeaders(  # a redirect hop still gets only its own host's
            {**extra_headers, **scoped}, getattr(scoped, "for_url", lambda _url: {}))
        # a next link is the catalog's own text: followed only to public hosts or the catalog's own
        return await fetch_json(self.http, catalog_link(url, self.root, self.config.asset_hosts), catalog=self.name,
                                headers=headers or None, remedy=self.remedy, **kwargs)

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

    def known_collection_ids(self) -> list[str]:
        """The ids of the collections already fetched (no request): words the voice recogniser is primed with."""
        listed = [str(c.get("id")) for c in self._collections or () if isinstance(c, dict) and c.get("id")]
        return list(dict.fromkeys([*listed, *self._collection_docs]))

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

    async def landing(self) -> dict:
        """The root document: its links say which search methods the API offers."""
        if self._landing is None:
            doc = await self._get("/")
            self._landing = doc if isinstance(doc, dict) else {}
        return self._landing

    async def search_method(self) -> str:
        """POST when the landing page offers it (or says nothing about search), else GET, which the spec requires."""
        if self._method is None:
            try:
                links = (await self.landing()).get("links") or []
            except CatalogError:
                links = []
            methods = {str(link.get("method") or "GET").upper() for link in links
                       if isinstance(link, dict) and link.get("rel") == "search"}
            self._method = "POST" if "POST" in methods or not methods else "GET"
        return self._method

    async def search_collections(self, q: str, limit: int, bbox: list[float] | None = None,
                                 datetime: str | None = None, wider: int = 0) -> CollectionMatches | None:
        """Collections matching free text `q`, an area and dates, searched by the API (collection search: words
        with its free-text class, area and dates with its core class); None when the API cannot search what is
        asked (words without free text, or nothing it can take). `applied` says which of bbox and datetime the
        API filtered on; the caller narrows by the rest, from a page of `wider` collections then."""
        core = await self._offers_collection_search()
        if q and not await self.conforms("collection-search#free-text"):
            return None
        if not q and not (core and (bbox or datetime)):
            return None
        params: dict[str, Any] = {"q": q} if q else {}
        applied = set()
        if core and bbox:
            params["bbox"], applied = get_param("bbox", list(bbox)), applied | {"bbox"}
        if core and datetime:
            params["datetime"], applied = datetime, applied | {"datetime"}
        params["limit"] = limit if core or not (bbox or datetime) else max(limit, wider)
        doc = await self._get("/collections", params=params)
        if not isinstance(doc, dict) or not isinstance(doc.get("collections"), list):
            raise CatalogError(f"Catalog '{self.name}' /collections?q= is not a STAC collection list.")
        return CollectionMatches(doc["collections"], matched_count(doc), _next_link(doc, self.root)[0] is not None,
                                 applied)

    async def _offers_collection_search(self) -> bool:
        """The collection search core class (…/collection-search, no fragment): bbox, datetime and limit."""
        return any(c.rstrip("/").endswith("/collection-search") for c in await self.conformance())

    async def _cloud_cover_filterable(self, collections: list[str]) -> bool:
        """Whether to ask the API for eo:cloud_cover, a standard property its queryables (a SHOULD) need not list:
        where the API lists queryables, they decide (named, or any property allowed); where it lists none, unless
        a searched collection has no cloud cover at all (no eo extension, none in its summaries: a DEM), whose
        items a filter would all drop."""
        for collection in collections or [None]:
            declared = await self.queryables(collection) or {}
            listed = declared.get("properties")
            if isinstance(listed, dict) and listed:
                if "eo:cloud_cover" not in listed and declared.get("additionalProperties") is not True:
                    return False
            elif collection is not None and not await self._has_cloud_cover(collection):
                return False
        return True

    async def _has_cloud_cover(self, collection: str) -> bool:
        try:
            doc = await self.collection(collection)
        except (CatalogError, ToolInputError):
            return True  # not described: the filter is sent, and taken back if the API refuses it
        extensions = " ".join(str(e) for e in doc.get("stac_extensions") or [])
        return "/eo/" in extensions or "eo:cloud_cover" in (doc.get("summaries") or {})

    async def _apply_extensions(self, search: ItemSearch) -> tuple[list[str], CloudClause | None]:
        """Cloud cover as a CQL2 filter (Filter extension) or a Query-extension clause when the API declares one
        and the collections have a cloud cover, else filtered here (said in the notes); fewer bytes per item with
        Fields. Returns what the search held before the clause, to take it back if the API refuses it."""
        notes, sent = [], None
        if search.max_cloud_cover is not None:
            can_filter, can_query = await self.conforms("filter"), await self.conforms("#query")
            if not (can_filter or can_query):
                notes.append(local_cloud_note(self.name, search.max_cloud_cover,
                                              "offers neither the Filter nor the Query extension"))
            elif not await self._cloud_cover_filterable(search.collections):
                notes.append(local_cloud_note(self.name, search.max_cloud_cover,
                                              "cannot filter on eo:cloud_cover for these collections"))
            else:
                sent = CloudClause(search.max_cloud_cover, search.filter, search.query)
                if can_filter:
                    search.filter = and_filters(search.filter, cloud_filter(search.max_cloud_cover))
                else:
                    search.query = {**(search.query or {}), "eo:cloud_cover": {"lte": search.max_cloud_cover}}
                search.max_cloud_cover = None
        if search.fields is None and await self.conforms("#fields"):
            search.fields = {"exclude": ["links"]}  # the one part of an item nothing here reads
        return notes, sent

    async def search(self, search: ItemSearch) -> SearchOutcome:
        """Gathers up to `search.limit` items, fetching each page once, in order; a stop is said in the notes."""
        if not await self.conforms("item-search"):
            raise CatalogError(f"Catalog '{self.name}' does not offer item search (/search).")
        notes, sent = await self._apply_extensions(search)
        try:
            return await self._gather(search, notes)
        except CatalogError as exc:
            if sent is None or not _refused_request(exc):
                raise
        # the API declared the extension but refused the clause: the same search without it, filtered here
        search.filter, search.query, search.max_cloud_cover = sent.filter, sent.query, sent.max_cloud_cover
        notes.append(local_cloud_note(self.name, sent.max_cloud_cover, "refused the cloud-cover filter"))
        return await self._gather(search, notes)

    async def _gather(self, search: ItemSearch, notes: list[str]) -> SearchOutcome:
        notes = list(notes)
        page_size = min(PAGE_SIZE, max(1, search.limit))
        pages = SearchPages(self, search, page_size, await self.search_method())
        items: list[dict] = []
        seen_ids: set[tuple] = set()
        async for doc in pages:
            for feature in doc["features"]:
                key = (feature.get("collection"), feature.get("id"))
                if cloud_ok(feature, search.max_cloud_cover) and key not in seen_ids:  # local cloud filter
                    seen_ids.add(key)
                    items.append(feature)
            matched = None if search.max_cloud_cover is not None else pages.number_matched  # counted before our filter
            if len(items) >= search.limit or (matched is not None and len(items) >= matched):
                break  # enough, or everything the API matched: a next link then leads to an empty page
        notes += pages.notes
        matched = None if search.max_cloud_cover is not None else pages.number_matched
        everything_back = matched is not None and len(items) >= matched
        more = len(items) > search.limit or (pages.pending is not None and not everything_back)
        if matched is not None and len(items) < min(matched, search.limit) and pages.pending is None \
                and not pages.notes:
            more = True
            notes.append(f"Catalog '{self.name}' counted {matched} matching items but gave no link to the page "
                         f"after the {len(items)} returned; narrow the search to get the others.")
        return SearchOutcome(items[: search.limit], matched, pages.fetched, more, notes)


@dataclass
class CloudClause:
    """What a search held before the cloud-cover clause was added: put back when the API refuses the clause."""
    max_cloud_cover: float
    filter: dict | None
    query: dict | None


def local_cloud_note(catalog: str, max_cloud_cover: float, why: str) -> str:
    return (f"Catalog '{catalog}' {why}, so cloud cover <= {max_cloud_cover:g} was applied here to the returned "
            "items (pages may hold few of the clear ones); items without a cloud cover were kept.")


def _refused_request(exc: CatalogError) -> bool:
    """HTTP 400 or 422: the API did not accept the search as sent (here: a filter it cannot evaluate)."""
    return "HTTP 400" in str(exc) or "HTTP 422" in str(exc)


@dataclass
class CollectionMatches:
    collections: list[dict]
    number_matched: int | None  # what the API counted, when it says
    next_page: bool = False  # the API links a further page: more exist beyond those listed
    applied: set[str] = field(default_factory=set)  # which of "bbox", "datetime" the API filtered on


def matched_count(doc: dict) -> int | None:
    """numberMatched (or the older context.matched) of a page; None when the API does not count."""
    value = doc.get("numberMatched", (doc.get("context") or {}).get("matched"))
    return value if isinstance(value, int) else None


@dataclass
class PageRequest:
    method: str
    url: str
    body: dict | None = None
    params: dict | None = None
    headers: dict = field(default_factory=dict)

    def marker(self) -> str:
        return json.dumps([self.method, self.url, self.body, self.params, self.headers], sort_keys=True, default=str)


class SearchPages:
    """The pages of one item search, following `next` links (href, method, body, merge, headers) in order.
    GET when the API offers no POST search, and again GET when a POST is answered 405. Where paging must stop
    early (a link that loops, a failing page), `notes` says so; `pending` is the page not fetched."""

    def __init__(self, catalog: ApiCatalog, search: ItemSearch, page_size: int, method: str) -> None:
        self.catalog = catalog
        self.search = search
        self.page_size = page_size
        url = catalog.root + "/search"
        self.pending: PageRequest | None = (PageRequest("POST", url, search.body(page_size)) if method == "POST"
                                            else PageRequest("GET", url, params=search.query_params(page_size)))
        self.fetched = 0
        self.number_matched: int | None = None
        self.notes: list[str] = []
        self._visited: set[str] = set()

    def __aiter__(self) -> SearchPages:
        return self

    async def __anext__(self) -> dict:
        request = self.pending
        if request is None:
            raise StopAsyncIteration
        if request.marker() in self._visited:  # a next link that points back would loop forever
            self.notes.append(f"Paging stopped after page {self.fetched}: catalog '{self.catalog.name}' sent a next "
                              "link to a page already fetched; more items may exist.")
            raise StopAsyncIteration
        self._visited.add(request.marker())
        try:
            doc = await self._fetch(request)
        except (CatalogError, RefusedLink) as exc:
            if not self.fetched:
                raise
            self.notes.append(f"Paging stopped after page {self.fetched}: the next page failed ({exc}); "
                              "the items listed are those of the pages before.")
            raise StopAsyncIteration from None
        self.fetched += 1
        if not isinstance(doc, dict) or not isinstance(doc.get("features"), list):
            raise CatalogError(f"Catalog '{self.catalog.name}' returned a search page that is not a FeatureCollection.")
        if self.number_matched is None:
            self.number_matched = matched_count(doc)
        self.pending = self._next(doc, request)
        return doc

    async def _fetch(self, request: PageRequest) -> Any:
        if request.method == "POST" and self.catalog._method == "GET":  # refused before: as GET straight away
            _as_get(request)
        try:
            return await self.catalog._get(request.url, method=request.method, body=request.body,
                                           params=request.params, extra_headers=request.headers)
        except CatalogError as exc:
            if request.method != "POST" or not _refused_method(exc):
                raise
        self.catalog._method = "GET"  # the API does not take POST searches: GET from now on
        _as_get(request)
        return await self.catalog._get(request.url, params=request.params, extra_headers=request.headers)

    def _next(self, doc: dict, current: PageRequest) -> PageRequest | None:
        link = next((lnk for lnk in doc.get("links") or []
                     if isinstance(lnk, dict) and lnk.get("rel") == "next" and lnk.get("href")), None)
        if link is None:
            return None
        url = urljoin(self.catalog.root + "/", link["href"])
        headers = {str(k): str(v) for k, v in (link.get("headers") or {}).items()} \
            if isinstance(link.get("headers"), dict) else {}
        if str(link.get("method") or "GET").upper() != "POST":
            return PageRequest("GET", url, headers=headers)
        body = link.get("body") if isinstance(link.get("body"), dict) else None
        if body is None:
            body = current.body if current.body is not None else dict(current.params or {})
        elif link.get("merge"):
            body = {**(current.body or {}), **body}
        return PageRequest("POST", url, body, headers=headers)


def _as_get(request: PageRequest) -> None:
    """The same page asked by GET: the POST body as query parameters."""
    request.params = {k: get_param(k, v) for k, v in (request.body or {}).items()}
    request.method, request.body = "GET", None


def _refused_method(exc: CatalogError) -> bool:
    """HTTP 405 Method Not Allowed: the API has no POST search."""
    return "HTTP 405" in str(exc)


def _next_link(doc: dict, root: str) -> tuple[str | None, str, dict | None, bool]:
    for link in doc.get("links") or []:
        if isinstance(link, dict) and link.get("rel") == "next" and link.get("href"):
            return (urljoin(root + "/", link["href"]), str(link.get("method", "GET")).upper(),
                    link.get("body"), bool(link.get("merge")))
    return None, "GET", None, False
