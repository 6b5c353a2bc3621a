"""One item search, whatever the catalog kind, and its outcome."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

MAX_ITEMS = 1000  # hard cap on items one search may gather, whatever the model asks
PAGE_SIZE = 100


@dataclass
class ItemSearch:
    collections: list[str] = field(default_factory=list)
    bbox: list[float] | None = None
    intersects: dict | None = None
    datetime: str | None = None  # normalised interval, open ends as '..'
    ids: list[str] = field(default_factory=list)
    filter: dict | None = None  # CQL2-JSON
    sortby: list[dict] = field(default_factory=list)  # [{"field": ..., "direction": "asc"|"desc"}]
    limit: int = 10
    query: dict | None = None  # the Query extension, for APIs without CQL2 filters
    fields: dict | None = None  # the Fields extension: {"include": [...], "exclude": [...]}
    max_cloud_cover: float | None = None  # applied by the catalog: filter, query, or locally

    def body(self, page_size: int) -> dict[str, Any]:
        body: dict[str, Any] = {"limit": page_size}
        if self.collections:
            body["collections"] = self.collections
        if self.bbox:
            body["bbox"] = self.bbox
        if self.intersects:
            body["intersects"] = self.intersects
        if self.datetime:
            body["datetime"] = self.datetime
        if self.ids:
            body["ids"] = self.ids
        if self.filter:
            body["filter"] = self.filter
            body["filter-lang"] = "cql2-json"
        if self.sortby:
            body["sortby"] = self.sortby
        if self.query:
            body["query"] = self.query
        if self.fields:
            body["fields"] = self.fields
        return body

    def query_params(self, page_size: int) -> dict[str, str]:
        """The same search as GET query parameters (the spec's required form; POST is optional):
        lists comma-joined, objects as JSON text, sortby as '+field,-field'."""
        params: dict[str, str] = {}
        for key, value in self.body(page_size).items():
            params[key] = get_param(key, value)
        return params


def get_param(key: str, value: Any) -> str:
    """One search parameter written for a GET query string."""
    if key == "sortby" and isinstance(value, list):
        return ",".join(("-" if s.get("direction") == "desc" else "+") + str(s["field"]) for s in value)
    if key == "fields" and isinstance(value, dict):
        return ",".join([*map(str, value.get("include") or []), *("-" + str(f) for f in value.get("exclude") or [])])
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
        return ",".join(str(v) for v in value)
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def cloud_filter(max_cloud_cover: float) -> dict:
    return {"op": "<=", "args": [{"property": "eo:cloud_cover"}, max_cloud_cover]}


def and_filters(first: dict | None, second: dict) -> dict:
    return second if not first else {"op": "and", "args": [first, second]}


def cloud_ok(item: dict, max_cloud_cover: float | None) -> bool:
    """Local check, for catalogs that cannot filter: an item without a cloud cover is kept."""
    value = (item.get("properties") or {}).get("eo:cloud_cover")
    return max_cloud_cover is None or not isinstance(value, (int, float)) or value <= max_cloud_cover


@dataclass
class SearchOutcome:
    items: list[dict]
    number_matched: int | None
    pages_fetched: int
    more_available: bool
    notes: list[str] = field(default_factory=list)  # what the analyst must know: a local filter, a stop in paging
