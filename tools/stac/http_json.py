"""Fetching catalog JSON with failures turned into messages the model (and user) can act on."""

from __future__ import annotations

import json
import logging
from typing import Any

import httpx

from ..common import ToolInputError

log = logging.getLogger(__name__)


class CatalogError(ToolInputError):
    """The catalog is down, slow, refused us, or answered something that is not STAC JSON."""


class NotFound(CatalogError):
    pass


async def fetch_json(http: httpx.AsyncClient, url: str, *, catalog: str, method: str = "GET",
                     params: dict | None = None, body: dict | None = None,
                     headers: dict | None = None, timeout: float | None = None, remedy: str = "") -> Any:
    try:
        response = await http.request(method, url, params=params, json=body, headers=headers,
                                      timeout=timeout if timeout is not None else httpx.USE_CLIENT_DEFAULT)
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
