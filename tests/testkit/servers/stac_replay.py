"""Recorded sessions of public STAC APIs (tests/data/stac_corpus/sessions) answered again on loopback.

Each recorded request is answered with its recorded response, the API's own host rewritten to the loopback
one. A request that was not recorded gets 404 with the request in the body, so a test sees exactly what the
client sent. Three switches turn the same recorded pages into the servers the spec also allows:
- `post=False`: the landing page's POST search link is dropped, POST /search answers 405, GET /search with
  the same parameters answers the recorded page, and next links become GET links;
- `refuse_post=True`: the landing page still lists POST but POST /search answers 405;
- `token_in_header`: next links carry the page token in this header instead of in their body (the body is
  then the first page's), as APIs that page by header do.
- `refuse_filters=True`: a search carrying a CQL2 `filter` or a Query-extension `query` is answered 400, as
  an API that declares the extension but cannot evaluate the clause.
The Fields extension's `fields` is left out when matching (the recorded pages carry every field); a cloud-cover
limit matches whether it was asked as a CQL2 filter ("<=" or the drafts' "lte") or as a Query clause. A request
recorded without `limit` also answers one that asks for the page size the server used (its answer's
`context.limit`). Every
request is logged in `requests` as (method, path, params-or-body, headers)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlparse

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .cog_server import CogServer

CORPUS = Path(__file__).resolve().parents[2] / "data" / "stac_corpus"
_LIST_PARAMS = ("collections", "ids", "bbox")


def load_session(*names: str) -> list[dict]:
    entries: list[dict] = []
    for name in names:
        entries += json.loads((CORPUS / "sessions" / name).read_text(encoding="utf-8"))
    return entries


_CQL2_DRAFT_OPS = {"lte": "<=", "lt": "<", "gte": ">=", "gt": ">", "eq": "="}


def _same_filter(key: str, value: Any) -> tuple[str, Any]:
    """A cloud-cover limit in one form: the Query extension's {"eo:cloud_cover": {"lte": x}} as the CQL2 filter
    it means, and the CQL2 drafts' operator names ("lte") as the standard's ("<=")."""
    if key == "query" and isinstance(value, dict) and list(value) == ["eo:cloud_cover"] \
            and list(value["eo:cloud_cover"]) == ["lte"]:
        return "filter", {"op": "<=", "args": [{"property": "eo:cloud_cover"}, value["eo:cloud_cover"]["lte"]]}
    if key == "filter" and isinstance(value, dict):
        return key, json.loads(json.dumps(value), object_hook=lambda d: {
            **d, "op": _CQL2_DRAFT_OPS.get(d["op"], d["op"])} if isinstance(d.get("op"), str) else d)
    return key, value


def canonical(params: dict[str, Any]) -> str:
    """One text per search, whether it came as a POST body or GET parameters."""
    out = {}
    for key, value in params.items():
        if key in ("fields", "filter-lang"):  # shapes the answer only; the filter's language is read from it
            continue
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                if key in _LIST_PARAMS:
                    value = value.split(",")
        if key in _LIST_PARAMS and isinstance(value, list):
            value = [float(v) if key == "bbox" else str(v) for v in value]
        elif key == "limit":
            value = int(value)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            value = float(value) if isinstance(value, float) else value
        key, value = _same_filter(key, value)
        out[key] = value
    return json.dumps(out, sort_keys=True)


class StacReplay:
    def __init__(self, root: Path, entries: list[dict], *, post: bool = True, refuse_post: bool = False,
                 token_in_header: str | None = None, origin: str | None = None, refuse_filters: bool = False) -> None:
        self.entries = entries
        self.post, self.refuse_post, self.token_in_header = post, refuse_post, token_in_header
        self.refuse_filters = refuse_filters
        self.origin = (origin or _api_root(entries)).rstrip("/")
        self.requests: list[tuple[str, str, Any, dict]] = []
        routes = [Route("/{path:path}", self._answer, methods=["GET", "POST"])]
        self.server = CogServer(Path(root), routes)

    @property
    def url(self) -> str:
        return self.server.url

    def start(self) -> StacReplay:
        self.server.start()
        return self

    def stop(self) -> None:
        self.server.stop()

    def searches(self) -> list[tuple[str, Any, dict]]:
        return [(m, p, h) for m, path, p, h in self.requests if path.endswith("/search")]

    async def _answer(self, request: Request) -> Response:
        path = "/" + request.path_params["path"]
        headers = {k.lower(): v for k, v in request.headers.items()}
        if request.method == "POST":
            raw = await request.body()
            params = json.loads(raw) if raw else {}
        else:
            params = dict(request.query_params)
        self.requests.append((request.method, path, params, headers))
        if path.endswith("/search") and request.method == "POST" and (self.refuse_post or not self.post):
            return JSONResponse({"code": "MethodNotAllowed"}, status_code=405)
        if path.endswith("/search") and self.refuse_filters and ("filter" in params or "query" in params):
            return JSONResponse({"code": "BadRequest", "description": "filter not supported"}, status_code=400)
        if self.token_in_header and headers.get(self.token_in_header.lower()):
            params = {**params, "token": headers[self.token_in_header.lower()]}
        entry = self._find(path, params)
        if entry is None:
            return JSONResponse({"code": "NotRecorded", "path": path, "params": params}, status_code=404)
        return Response(self._rewrite(entry["response"]), status_code=entry["status"], media_type="application/json")

    def _find(self, path: str, params: dict) -> dict | None:
        wanted = canonical(params)
        for entry in self.entries:
            parsed = urlparse(entry["url"])
            recorded_path = parsed.path[len(urlparse(self.origin).path):] or "/"
            if recorded_path.rstrip("/") != path.rstrip("/"):
                continue
            recorded = entry["body"] if entry["body"] is not None else dict(parse_qsl(parsed.query))
            if canonical(recorded or {}) == wanted:
                return entry
            default = _default_limit(entry)  # asked without a limit: answered with the server's own page size
            if default is not None and "limit" not in (recorded or {}) \
                    and canonical({**(recorded or {}), "limit": default}) == wanted:
                return entry
        return None

    def _rewrite(self, doc: Any) -> str:
        doc = json.loads(json.dumps(doc).replace(self.origin, self.url))
        if isinstance(doc, dict):
            if not self.post:
                doc["links"] = [lnk for lnk in doc.get("links") or []
                                if not (lnk.get("rel") == "search" and str(lnk.get("method")).upper() == "POST")]
            for link in doc.get("links") or []:
                if link.get("rel") == "next":
                    self._rewrite_next(link)
        return json.dumps(doc)

    def _rewrite_next(self, link: dict) -> None:
        body = link.get("body") if isinstance(link.get("body"), dict) else None
        if self.token_in_header and body and "token" in body:
            link["headers"] = {self.token_in_header: body["token"]}
            link["body"] = {k: v for k, v in body.items() if k != "token"}
            link["merge"] = False
        if not self.post and body is not None:
            query = {k: (",".join(map(str, v)) if isinstance(v, list) else v) for k, v in link.pop("body").items()
                     if not (self.token_in_header and k == "token")}
            link["method"] = "GET"
            link["href"] = link["href"].split("?")[0] + "?" + urlencode(query)


def _default_limit(entry: dict) -> int | None:
    """The page size a recorded request without `limit` was answered with, as the answer says (context.limit)."""
    response = entry.get("response")
    value = ((response.get("context") or {}).get("limit")) if isinstance(response, dict) else None
    return value if isinstance(value, int) else None


def _api_root(entries: list[dict]) -> str:
    """The recorded API's root: the shortest URL the session fetched."""
    return min((e["url"].split("?")[0].rstrip("/") for e in entries), key=len)
