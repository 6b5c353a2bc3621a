"""Fetching catalog JSON with failures turned into messages the model (and user) can act on.

Redirects are followed here, hop by hop, never by httpx: httpx drops only `Authorization` when a redirect
leaves the host and would carry an API key (`X-Api-Key`, EsriToken's header, …) to wherever the catalog
points. Each hop gets only the headers its own host is allowed (`ScopedHeaders.for_url`, from the catalog's
configured hosts); plain headers go to the first URL's origin only, and never from https down to http.
"""

from __future__ import annotations

import json
import logging
from typing import Any
from urllib.parse import urlparse

import httpx

from ..common import ToolInputError

log = logging.getLogger(__name__)

MAX_REDIRECTS = 5
REDIRECT_CODES = {301, 302, 303, 307, 308}


class CatalogError(ToolInputError):
    """The catalog is down, slow, refused us, or answered something that is not STAC JSON."""


class NotFound(CatalogError):
    pass


async def fetch_json(http: httpx.AsyncClient, url: str, *, catalog: str, method: str = "GET",
                     params: dict | None = None, body: dict | None = None,
                     headers: dict | None = None, timeout: float | None = None, remedy: str = "") -> Any:
    try:
        response = await _request_following_redirects(http, url, catalog, method, params, body, headers,
                                                      timeout if timeout is not None else httpx.USE_CLIENT_DEFAULT)
    except httpx.TimeoutException:
        raise CatalogError(f"Catalog '{catalog}' did not answer in time ({url}). It may be slow or overloaded: "
                           "try again, or narrow the search (smaller bbox, shorter dates, lower limit).") from None
    except httpx.HTTPError as exc:
        raise CatalogError(f"Catalog '{catalog}' is unreachable at {url} ({type(exc).__name__}). "
                           "Check that it is running and that its URL in the plugin settings is right.") from None
    if response.status_code == 404:
        raise NotFound(f"Catalog '{catalog}' has nothing at {url} (HTTP 404).")
    if response.status_code in (401, 403):
        raise CatalogError(f"Catalog '{catalog}' refused access (HTTP {response.status_code}): "
                           + (remedy or "add its credentials (headers or an auth config) in Settings → Catalogs")
                           + ".")
    if response.status_code >= 400:
        detail = response.text[:200].replace("\n", " ")
        hint = ("The catalog has a problem; try again later." if response.status_code >= 500
                else "Check the search parameters.")
        raise CatalogError(f"Catalog '{catalog}' answered HTTP {response.status_code} for {url}: {detail}. {hint}")
    try:
        return response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise CatalogError(f"Catalog '{catalog}' answered something that is not JSON at {url}. "
                           "Check the catalog URL points at a STAC API root or a catalog.json.") from None


async def _request_following_redirects(http: httpx.AsyncClient, url: str, catalog: str, method: str,
                                       params: dict | None, body: dict | None, headers: dict | None,
                                       timeout: Any) -> httpx.Response:
    hop_url, hop_headers = url, headers
    for _ in range(MAX_REDIRECTS + 1):
        response = await http.request(method, hop_url, params=params, json=body, headers=hop_headers or None,
                                      timeout=timeout, follow_redirects=False)
        location = response.headers.get("location")
        if response.status_code not in REDIRECT_CODES or not location:
            return response
        next_url = str(response.url.join(location))
        if urlparse(next_url).scheme not in ("http", "https"):
            raise CatalogError(f"Catalog '{catalog}' redirected {url} to {next_url}, which is not a web address; "
                               "check the catalog URL in Settings → Catalogs.")
        log.info("catalog %s: %s redirected (HTTP %d) to %s", catalog, hop_url, response.status_code, next_url)
        if response.status_code == 303 or (response.status_code in (301, 302) and method == "POST"):
            method, body = "GET", None  # as browsers and httpx do
        hop_headers = headers_for_hop(headers, url, next_url)
        hop_url, params = next_url, None  # the Location already carries its query
    raise CatalogError(f"Catalog '{catalog}' redirected {url} more than {MAX_REDIRECTS} times (a redirect loop?); "
                       "check the catalog URL in Settings → Catalogs.")


def headers_for_hop(headers: dict | None, first_url: str, hop_url: str) -> dict:
    """What a redirect target gets: what its own host is allowed, never more than the first URL got."""
    if not headers:
        return {}
    first, hop = urlparse(first_url), urlparse(hop_url)
    if first.scheme == "https" and hop.scheme != "https":
        return {}  # a secret never travels in clear text because a server said so
    scope = getattr(headers, "for_url", None)
    if scope is not None:
        return dict(scope(hop_url))
    same_origin = (first.scheme, first.netloc.lower()) == (hop.scheme, hop.netloc.lower())
    return dict(headers) if same_origin else {}
