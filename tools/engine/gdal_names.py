"""GDAL dataset names: the one way text becomes something GDAL or QGIS opens (the sink "GDAL dataset names").

GDAL reads more than files: `/vsicurl?header_file=<file>&url=<host>` sends every line of a local file as request
headers to any host, `/vsistdin/`, `/vsisubfile/`, `/vsizip/` chains and `?options` reach into the machine.
So a name is a `GdalName`, and only this module makes one:

- `from_href` turns text from a catalog, the model or an outside client into a name: http(s), s3, gs and az
  URLs mapped by us to `/vsicurl/`, `/vsis3/`, `/vsigs/`, `/vsiaz/`, a local path kept as one; no `/vsi…`
  prefix with options or special files, no GDAL syntax is ever taken from the text. With the caller's
  `ReadRules`, an outside client reaches only public hosts, the configured catalogs' hosts and the folders the
  user allowed; a catalog's href is read only where the catalog may point (`within_catalog`);
- `own_file`, `project_source`, `shipped_file`, `processing_output`, `with_header_file`, `pc_signed` name what
  the plugin itself made or QGIS already has, each saying so in its name.

Every call that opens a source (`gdal.Open`, `gdal.OpenEx`, `ogr.Open`, `gdal.BuildVRT`, `QgsRasterLayer(…)`,
`QgsVectorLayer(…)`, `setDataSource`) hands it `dataset(name)` (or `datasets(names)`), which refuses a plain
string; tests/unit/test_sinks_gdal_names.py finds any other.

It imports nothing of the plugin at load (the tools' error class only when it refuses): Dask workers get it with
the reading code (`dask_runner.worker_code_zip`), to open the names they are handed.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable
from urllib.parse import quote, unquote, urljoin, urlparse

if TYPE_CHECKING:
    from ..common import ToolInputError

SCHEMES = {"http": "/vsicurl/", "https": "/vsicurl/", "s3": "/vsis3/", "gs": "/vsigs/", "az": "/vsiaz/",
           "azure": "/vsiaz/"}
# the /vsi prefixes a href may already carry: each the same as one of SCHEMES, without options
PLAIN_REMOTE_PREFIXES = ("/vsicurl/", "/vsis3/", "/vsigs/", "/vsiaz/", "/vsiadls/")


class GdalName(str):
    """A dataset name this module checked or made; `dataset(name)` hands it to GDAL or QGIS."""

    __slots__ = ()


@dataclass(frozen=True)
class ReadRules:
    """Where the caller may read: everywhere for the analyst's own agent; for an outside MCP client only public
    hosts, the configured catalogs' hosts (URL and asset hosts) and the folders the user allowed."""

    outside: bool = False
    allowed_folders: tuple[Path, ...] = ()
    catalog_hosts: frozenset[str] = frozenset()
    # where each configured catalog lives (its URL or folder), by name: its hrefs are read only where it may point
    catalogs: dict[str, str] = field(default_factory=dict)


def rules_for(deps: Any) -> ReadRules:
    """The rules of the server `deps` belongs to (ToolDeps: the dock's, or the outside endpoint's)."""
    configs = list(getattr(getattr(deps, "settings", None), "catalogs", None) or [])
    hosts = {urlparse(c.url).hostname for c in configs if "://" in c.url}
    hosts |= {h.rsplit(":", 1)[0].strip("[]").lower() for c in configs for h in c.asset_hosts if h}
    outside = bool(getattr(deps, "outside_client", False))
    folders = tuple(Path(os.path.realpath(f)) for f in deps.allowed_folders()) if outside else ()
    return ReadRules(outside, folders, frozenset(h for h in hosts if h), {c.name: c.url for c in configs})


def dataset(name: GdalName) -> str:
    """The text GDAL or QGIS is given to open `name`; a plain string is refused (it was checked by no one)."""
    if not isinstance(name, GdalName):
        raise TypeError(f"not a checked dataset name: {str(name)[:120]!r} (make it with tools/engine/gdal_names)")
    return str(name)


def datasets(names: Iterable[GdalName]) -> list[str]:
    return [dataset(n) for n in names]


def from_href(href: str, rules: ReadRules | None = None, catalog: str = "") -> GdalName:
    """The name GDAL reads `href` by (a URL or a local path), or ToolInputError saying why it may not.
    `catalog`: the name of the configured catalog the href came from, whose location bounds it."""
    href = (href or "").strip()
    rules = rules or ReadRules()
    if not href:
        raise _empty()
    if any(ord(ch) < 32 for ch in href):
        raise _unmapped(href)
    location = rules.catalogs.get(catalog, "") if catalog else ""
    if href.startswith("/vsi"):
        return _plain_vsi(href, rules, location)
    parsed = urlparse(href)
    scheme = parsed.scheme.lower()
    if scheme in SCHEMES:
        return _remote(href, parsed, rules, location)
    if scheme == "file" or os.path.isabs(href):
        if scheme == "file" and parsed.netloc not in ("", "localhost"):
            raise _unmapped(href)
        return _local(href, unquote(parsed.path) if scheme == "file" else href, rules, location)
    if scheme:  # a driver prefix (STACIT:, NETCDF:, WMS:…) or a protocol GDAL would reach by itself
        raise _gdal_syntax(href)
    raise _unmapped(href)


def within_catalog(location: str, href: str, root: str = "") -> str:
    """`href` of a document of a catalog (the document at `location`, the catalog's own `root`, by default the
    same) made absolute, or ToolInputError when it points where that catalog may not: one read over HTTP never
    yields a file of this computer (a path there is a path on its server); a local one yields only files
    under its own folder, symlinks resolved. URLs and `/vsi…` names are left to `from_href`."""
    href = (href or "").strip()
    parsed = urlparse(href)
    scheme = parsed.scheme.lower() if len(parsed.scheme) > 1 else ""  # C:\… is a Windows path
    if href.startswith("/vsi") or scheme in SCHEMES:
        return href
    if scheme and scheme != "file":
        raise _gdal_syntax(href)
    if _is_url(location):
        if scheme == "file":
            raise _local_from_remote(href, location)
        return urljoin(location, href)  # "/x.tif" is a path on the catalog's own server
    path = unquote(parsed.path) if scheme == "file" else href
    base = location if os.path.isdir(location) else os.path.dirname(location)
    resolved = os.path.normpath(os.path.join(base, path))  # an absolute path stays itself
    _check_in_catalog_folder(href, resolved, root or location)
    return resolved


def own_file(path: str | os.PathLike, folder: str | os.PathLike) -> GdalName:
    """A file the plugin writes in its own `folder` (outputs, private files): refused anywhere else."""
    real, root = Path(os.path.realpath(path)), Path(os.path.realpath(folder))
    if real != root and root not in real.parents:
        raise ValueError(f"'{path}' is not in the plugin's folder {folder}")  # a bug of ours, not the caller's
    return GdalName(os.fspath(path))


def project_source(source: str) -> GdalName:
    """The source of a layer the QGIS project already holds: QGIS reads it already, the plugin reads it again."""
    return GdalName(source)


def shipped_file(path: str | os.PathLike) -> GdalName:
    """A data file QGIS or the plugin ships (QGIS's world map): no text from outside names it."""
    return GdalName(os.fspath(path))


def processing_output(value: str) -> GdalName:
    """What a Processing algorithm wrote, as Processing reports it (its destination was judged before it ran)."""
    return GdalName(value)


def local_file(path: str | os.PathLike) -> GdalName:
    """A plain local path to look at (a Processing destination: what is there before it is overwritten); no
    `/vsi…` name. Whether the caller may learn what it holds is the caller's check (raster_inputs.may_read)."""
    text = os.fspath(path)
    if text.startswith("/vsi") or "://" in text:
        raise _gdal_syntax(text)
    return GdalName(text)


def with_header_file(name: GdalName, header_file: Path) -> GdalName:
    """`name` (a /vsicurl/ URL) read with the headers of the plugin's own private header file."""
    url = _curl_url(name)
    return GdalName(f"/vsicurl?header_file={quote(str(header_file), safe='/')}&url={quote(url, safe=':/')}")


def pc_signed(name: GdalName, collection: str = "") -> GdalName:
    """`name` (a /vsicurl/ URL) signed by GDAL with the Planetary Computer's SAS token at every read."""
    url = _curl_url(name)
    collection_part = f"&pc_collection={quote(collection, safe='')}" if collection else ""
    return GdalName(f"/vsicurl?pc_url_signing=yes{collection_part}&url={quote(url, safe=':/')}")


def plain_url(name: GdalName) -> str | None:
    """The http(s) URL a checked plain `/vsicurl/` name reads, for a reader other than GDAL's (the COG range reader,
    which sends no credentials and follows no redirect); None for every other name (signed, with a header file,
    /vsis3/…, a local file): only GDAL reads those."""
    text = dataset(name)
    if not text.startswith("/vsicurl/"):
        return None
    url = text[len("/vsicurl/"):]
    parsed = urlparse(url)
    return url if parsed.scheme.lower() in ("http", "https") and parsed.hostname else None


def may_read(rules: ReadRules, source: str) -> bool:
    """Whether a caller under `rules` may learn what is at `source` (a URL, a /vsi path or a local path)."""
    if not rules.outside:
        return True
    for prefix in PLAIN_REMOTE_PREFIXES:
        if source.startswith(prefix):
            source = source[len(prefix):]
            if "://" not in source:
                return prefix != "/vsicurl/"  # /vsis3/bucket/key: a bucket, not this machine's disk
            break
    parsed = urlparse(source)
    if parsed.scheme in SCHEMES:
        return host_allowed(rules, parsed.hostname or "")
    if parsed.scheme == "file":
        source = unquote(parsed.path)
    elif parsed.scheme or source.startswith("/vsi"):
        return False  # /vsizip/, /vsitar/, /vsimem/ and other schemes: not checked, not allowed
    real = Path(os.path.realpath(os.path.expanduser(source)))
    return any(real == folder or folder in real.parents for folder in rules.allowed_folders)


def outside_refusal(source: str) -> ToolInputError:
    """The same words for every source an outside client may not read, whether or not it exists."""
    from ..common import ToolInputError

    return ToolInputError(f"'{source}' is not available to outside MCP clients: they may read project layers, "
                          "assets of the configured catalogs, and files in the folders listed under Settings ▸ "
                          "Outside access.")


def _plain_vsi(href: str, rules: ReadRules, location: str) -> GdalName:
    prefix = next((p for p in PLAIN_REMOTE_PREFIXES if href.startswith(p)), "")
    if not prefix:
        if href.startswith("/vsicurl?"):
            raise _gdal_syntax(href)
        raise _gdal_syntax(href)
    rest = href[len(prefix):]
    if "/vsi" in rest or "?" in rest.split("/", 1)[0]:
        raise _gdal_syntax(href)
    if prefix == "/vsicurl/":
        parsed = urlparse(rest)
        if parsed.scheme.lower() not in ("http", "https"):
            raise _gdal_syntax(href)
        return _remote(rest, parsed, rules, location)
    if rules.outside and not may_read(rules, href):
        raise outside_refusal(href)
    return GdalName(href)


def _remote(href: str, parsed: Any, rules: ReadRules, location: str) -> GdalName:
    scheme = parsed.scheme.lower()
    if not parsed.netloc:
        raise _unmapped(href)
    if scheme not in ("http", "https"):
        return GdalName(SCHEMES[scheme] + href.split("://", 1)[1])
    # the user's own folder catalog names the hosts of its assets; any other text reaches only public hosts and
    # the configured catalogs' hosts for an outside client
    trusted_catalog = bool(location) and not _is_url(location)
    if rules.outside and not trusted_catalog and not host_allowed(rules, parsed.hostname or ""):
        raise outside_refusal(href)
    return GdalName(SCHEMES[scheme] + href)


def _local(href: str, path: str, rules: ReadRules, location: str) -> GdalName:
    if path.startswith("/vsi"):
        raise _gdal_syntax(href)
    if location:
        _check_catalog_may_name(href, path, location)
    if rules.outside and not may_read(rules, path):
        raise outside_refusal(href)
    return GdalName(path)


def _check_catalog_may_name(href: str, path: str, location: str) -> None:
    if _is_url(location):
        raise _local_from_remote(href, location)
    _check_in_catalog_folder(href, path, location)


def _check_in_catalog_folder(href: str, path: str, location: str) -> None:
    folder = Path(os.path.realpath(location if os.path.isdir(location) else os.path.dirname(location)))
    real = Path(os.path.realpath(path))
    if real != folder and folder not in real.parents:
        raise _outside_folder(href, location, folder)


def host_allowed(rules: ReadRules, host: str) -> bool:
    """Whether an outside client under `rules` may reach `host`: a public one, or a configured catalog's."""
    host = host.lower().rstrip(".")
    if host in rules.catalog_hosts:
        return True
    if host in ("localhost", "") or host.endswith(".localhost"):
        return False
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        try:  # the forms curl also reads as IPv4: 127.1, 2130706433, 0x7f000001
            address = ipaddress.ip_address(socket.inet_aton(host))
        except OSError:
            return True  # a name: resolved by GDAL/curl; internal names are the user's network's business
    return address.is_global


def _curl_url(name: GdalName) -> str:
    if not isinstance(name, GdalName) or not name.startswith("/vsicurl/"):
        raise TypeError(f"not a checked /vsicurl/ name: {str(name)[:120]!r}")
    return name[len("/vsicurl/"):]


def _is_url(location: str) -> bool:
    return urlparse(location).scheme in ("http", "https")


def _gdal_syntax(href: str) -> ToolInputError:
    from ..common import ToolInputError

    return ToolInputError(f"'{href[:300]}' is not a dataset the plugin opens: it holds GDAL's own syntax (a /vsi… file "
                          "system, or options after '?'), which could read or send this computer's files. Catalogs, "
                          "the model and outside clients give a URL (http, https, s3, gs, az) or a file path; GDAL's "
                          "syntax is never taken from their text.")


def _unmapped(href: str) -> ToolInputError:
    from ..common import ToolInputError

    return ToolInputError(f"'{href[:300]}' is not a dataset the plugin opens: give a URL (http, https, s3, gs or az, "
                          "with a host) or an absolute file path, on one line.")


def _local_from_remote(href: str, location: str) -> ToolInputError:
    from ..common import ToolInputError

    return ToolInputError(f"'{href[:300]}' from the catalog at {location} is not read: a catalog read over HTTP "
                          "never names a file on this computer.")


def _empty() -> ToolInputError:
    from ..common import ToolInputError

    return ToolInputError("An empty href names no dataset; use get_item for the asset hrefs.")


def _outside_folder(href: str, location: str, folder: Path) -> ToolInputError:
    from ..common import ToolInputError

    return ToolInputError(f"'{href[:300]}' from the catalog at {location} is not read: a local catalog names only "
                          f"files under its own folder ({folder}).")
