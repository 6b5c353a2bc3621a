"""URLs that QGIS, the system browser or the plugin's HTTP client will fetch (the sink "URLs fetched"): a basemap's
tile template, a link the dock opens in the browser, a link a catalog gives (a child catalog, the next page).

Each is an http(s) URL with a host, checked with the host rules of GDAL's dataset names (gdal_names.ReadRules): an
outside MCP client reaches only public hosts and the configured catalogs' hosts, as every other tool allows it; a
catalog's links lead only to public hosts and that catalog's own hosts, whoever asks (a catalog on the internet
has no business on this machine's or the office network's other services). Every call that makes QGIS, a browser
or the HTTP client fetch such a URL takes it from here: tests/unit/test_sinks_fetched_urls.py finds any other.
"""

from __future__ import annotations

from urllib.parse import quote, urlparse

from ..common import ToolInputError
from .gdal_names import ReadRules, host_allowed, outside_refusal

WEB = ("http", "https")


class RefusedLink(ToolInputError):
    """A catalog's link that is not followed (paging stops there, as at a failed page)."""


def xyz_source(template: str, zmax: int, rules: ReadRules | None = None, zmin: int = 0) -> str:
    """The data source of a QGIS XYZ tile layer ("wms" provider) for an http(s) template with {x} {y} {z}."""
    template = (template or "").strip()
    parsed = _web(template)
    if not all(part in template for part in ("{x}", "{y}", "{z}")):
        raise ToolInputError("basemap_url must be an http(s) XYZ template containing {x}, {y} and {z}.")
    _check_host(template, parsed.hostname or "", rules)
    return f"type=xyz&url={quote(template, safe=':/{}')}&zmax={int(zmax)}&zmin={int(zmin)}"


def link_to_open(url: str, rules: ReadRules | None = None) -> str:
    """A link the system browser may open: http(s) with a host (the dock asks the analyst first)."""
    url = (url or "").strip()
    parsed = _web(url)
    _check_host(url, parsed.hostname or "", rules)
    return url


def catalog_link(url: str, catalog_url: str, asset_hosts: list[str] | tuple[str, ...] = ()) -> str:
    """A URL a catalog's own documents give (a child catalog, the next page of a search), to be fetched: its
    host is public, or the catalog's own host or one of its asset hosts (any, for a catalog in a local folder)."""
    url = (url or "").strip()
    try:
        parsed = _web(url)
    except ToolInputError as exc:
        raise RefusedLink(str(exc)) from None
    if urlparse(catalog_url).scheme.lower() not in WEB:
        return url  # a catalog in the analyst's own folder names the hosts it links to
    own = {urlparse(catalog_url).hostname or ""} | {h.rsplit(":", 1)[0].strip("[]").lower() for h in asset_hosts}
    if not host_allowed(ReadRules(outside=True, catalog_hosts=frozenset(h for h in own if h)), parsed.hostname or ""):
        raise RefusedLink(f"The catalog at {catalog_url} links to {parsed.netloc}, a host on this computer or the "
                             "local network that is not the catalog's own: the link is not followed. If that host "
                             "belongs to the catalog, add it to its Asset hosts in Settings → Catalogs.")
    return url


def _web(url: str):
    parsed = urlparse(url)
    if any(ord(ch) < 33 for ch in url) or parsed.scheme.lower() not in WEB or not parsed.hostname:
        raise ToolInputError(f"'{url[:200]}' is not a web address the plugin opens: give an http(s) address with a "
                             "host, on one line.")
    return parsed


def _check_host(url: str, host: str, rules: ReadRules | None) -> None:
    if rules is not None and rules.outside and not host_allowed(rules, host):
        raise outside_refusal(url)
