"""The one way catalog credentials reach GDAL: scoped to the asset's path, never process-wide.

- HTTP headers (API keys, Basic, bearer, OAuth2) go into a private 0600 header file named by a
  `/vsicurl?header_file=…&url=…` path, one per asset (GDAL 3.6 applies no path-specific options to /vsicurl/).
  libcurl re-sends every custom header on a redirect, and GDAL 3.6 cannot be told not to follow one; so before
  writing the file the worker follows the asset's redirects itself (`redirect_target`), each hop with only
  what its host is allowed, and writes the headers only when every hop stays on the catalog's hosts;
- Planetary Computer assets get a `/vsicurl?pc_url_signing=yes…` path: GDAL signs each read itself; with a
  catalog's own SAS token endpoint, the worker renews the collection's token from it before each read
  (GDAL 3.6 reads the endpoint only process-wide but shares the token it got with every thread), and
  sas_keeper.py keeps the tokens of the project's layers fresh for QGIS's renderers;
- S3 settings (keys, requester-pays, region, endpoint) become path-specific options of that bucket's prefix.
The same path serves a tool reading in a worker thread and QGIS's renderers, and a saved project keeps
only the path: no token, password or key. Files are written by `prepare()`, in the worker that reads.
"""

from __future__ import annotations

import hashlib
import logging
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator
from urllib.parse import urlparse

import httpx
from osgeo import gdal

from ...agent.config import CatalogConfig
from ..engine.gdal_env import thread_options
from ..engine.gdal_names import GdalName, ReadRules, with_header_file
from ..engine.gdal_scope import gdal_messages
from .access import PC_SAS_ENDPOINT, CatalogAccess, CatalogSecrets, GdalRead, explain_read_failure
from .http_json import MAX_REDIRECTS, REDIRECT_CODES, headers_for_hop

log = logging.getLogger(__name__)
PROBE_TIMEOUT_S = 10.0

PUBLIC = CatalogAccess(CatalogConfig("public", "", access="none"))
SAS_KEYS = ("VSICURL_PC_SAS_TOKEN_URL", "VSICURL_PC_SAS_SIGN_HREF_URL")
SAS_PROBE_SUFFIX = ".sas-renewal"  # a name next to the asset: asking it renews the token, the asset's cache stays
BUCKET_KEYS = ("AWS_REQUEST_PAYER", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_NO_SIGN_REQUEST", "AWS_REGION",
               "AWS_S3_ENDPOINT", "AWS_HTTPS", "AWS_VIRTUAL_HOSTING", "GS_NO_SIGN_REQUEST")


class ReadOptions(dict):
    """Thread-local GDAL options for one read, plus the header files the worker writes before opening."""

    def __init__(self, options: dict[str, str] | None = None, files: dict[str, str] | None = None,
                 prefix: str = "", prefix_options: dict[str, str] | None = None,
                 access: CatalogAccess | None = None, href: str = "", via: CatalogAccess | None = None,
                 headers: dict | None = None, sas_path: str = "") -> None:
        super().__init__(options or {})
        self.sas_path = sas_path  # a Planetary Computer path signed with a custom token endpoint's token
        self.files = dict(files or {})
        self.headers = headers or {}  # what the header files carry, for checking where a redirect leads
        self.withheld = ""  # why the headers were not given to GDAL (a redirect off the catalog's hosts)
        self.prefix = prefix
        self.prefix_options = dict(prefix_options or {})
        self.access = access
        self.href = href
        self.via = via  # the catalog the item came from, when another (or none) owns the asset's host

    def explain(self, message: str) -> str:
        """A read failure in words naming the catalog, its access method and what to do; "" if not about access."""
        if not self.href:
            return ""
        if self.withheld and self.access is not None:
            return f"{self.access.describe()} did not give GDAL its credentials for '{self.href}': {self.withheld}."
        no_keys = "aws_secret_access_key and aws_no_sign_request" in message.lower()
        if no_keys and self.access is not None and "AWS_ACCESS_KEY_ID" not in self.prefix_options:
            return (f"No AWS credentials for '{self.href}' ({self.access.describe()}): choose an auth config with "
                    "S3 keys for it in Settings → Catalogs, or set up an AWS profile (~/.aws/credentials).")
        return explain_read_failure(self.access, self.href, message, self.via)

    def prepare(self) -> None:
        """Writes the header files and sets the bucket's options; call in the worker thread, before opening."""
        for path, text in self.files.items():
            self.withheld = redirect_target(self.href, self.headers) if text else ""
            if self.withheld:
                log.warning("credentials withheld from GDAL for %s: %s", self.href, self.withheld)
            _write_private(Path(path), "" if self.withheld else text)
            _remove_stale(Path(path))
        if self.sas_path:
            self.renew_sas_token()
        if not self.prefix:
            return
        stale = [k for k in BUCKET_KEYS if k not in self.prefix_options
                 and gdal.GetPathSpecificOption(self.prefix, k, None) is not None]
        # clear only when a setting was unticked: a render in another thread must not meet the prefix bare
        if stale:
            gdal.ClearPathSpecificOptions(self.prefix)
        for key, value in self.prefix_options.items():
            gdal.SetPathSpecificOption(self.prefix, key, value)


    def renew_sas_token(self, probe: bool = False) -> None:
        """GDAL 3.6 takes the token endpoint only from its process-wide config, but keeps each collection's token
        for every thread until a minute before it expires: a read here, with the catalog's own endpoint as this
        thread's option, renews it, so QGIS's renderers (which set no option) sign with it too. `probe`: ask a
        name next to the asset instead (a 404 that costs nothing), so the asset's cached blocks stay."""
        path = self.sas_path + SAS_PROBE_SUFFIX if probe else self.sas_path
        with signing_in_this_thread([self]):
            gdal.VSICurlPartialClearCache(path)  # a cached answer asks no token: the request must go out
            try:
                with gdal_messages():  # a refused read's warning names the signed URL: logged redacted, not printed
                    found = gdal.VSIStatL(path)
            except RuntimeError:  # newer GDAL in exception mode raises where 3.6 returns None (e.g. token API 503)
                found = None
            if found is None and not probe:  # the read that follows says why, in GDAL's words
                log.info("could not renew the SAS token for %s from %s", self.href, self.get(SAS_KEYS[0]))
                gdal.VSICurlPartialClearCache(path)  # not remembered as missing


@contextmanager
def signing_in_this_thread(reads: Iterable[ReadOptions]) -> Iterator[None]:
    """The reads' own SAS token endpoint as this thread's GDAL option while the block runs (then as before): a
    worker that opens or reads their signed paths asks that endpoint when GDAL renews a token (a token living
    less than GDAL's one-minute margin is renewed at every request), never the public default."""
    with thread_options({k: v for read in reads for k, v in read.items() if k in SAS_KEYS}):
        yield


def plan_read(access: CatalogAccess | None, href: str, secrets: CatalogSecrets, private_dir: Path,
              collection: str = "", via: CatalogAccess | None = None, rules: ReadRules | None = None,
              catalog: str = "") -> tuple[GdalName, ReadOptions]:
    """(GDAL path to open and to keep in a layer, options for the worker). Pure apart from naming files.
    `rules`, `catalog`: who reads, and the catalog the href came from (tools/engine/gdal_names.py)."""
    if access is None:  # no catalog owns it: read as public (unsigned S3 and GCS)
        read = PUBLIC.gdal_read(href, CatalogSecrets(), rules=rules, catalog=catalog)
        return read.path, ReadOptions(prefix=read.prefix, prefix_options=read.prefix_options, href=href, via=via)
    read: GdalRead = access.gdal_read(href, secrets, collection, rules, catalog)
    options: dict[str, str] = {}
    sas_path = ""
    if read.path.startswith("/vsicurl?pc_url_signing") and access.config.token_url:
        # a custom token endpoint: the worker's reads ask it (thread-local), and prepare() renews the token GDAL
        # keeps for the collection, which QGIS's renderers then sign with
        token_url = access.config.token_url.rstrip("/") + "/"
        if token_url != PC_SAS_ENDPOINT:
            options["VSICURL_PC_SAS_TOKEN_URL"] = token_url
            if token_url.endswith("/token/"):  # an href without its collection is signed by the sign endpoint
                options["VSICURL_PC_SAS_SIGN_HREF_URL"] = token_url[: -len("token/")] + "sign?href="
            sas_path = read.path
    if read.header_lines:  # one file per asset: whether its headers may go to GDAL depends on where it redirects
        digest = hashlib.sha256(read.header_lines.encode()).hexdigest()[:16]
        asset = hashlib.sha256(href.encode()).hexdigest()[:12]
        header_file = Path(private_dir) / "credentials" / f"{_safe_name(access.config.name)}-{asset}-{digest}.headers"
        path = with_header_file(read.path, header_file)
        return path, ReadOptions(options, files={str(header_file): read.header_lines}, access=access, href=href,
                                 headers=access.request_headers(href, secrets))
    return read.path, ReadOptions(options, prefix=read.prefix, prefix_options=read.prefix_options, access=access,
                                  href=href, sas_path=sas_path)


def redirect_target(href: str, headers: dict) -> str:
    """"" when GDAL may read `href` with `headers`: every redirect it leads to stays where those same headers are
    allowed. Otherwise, in words, where it leads (or that it could not be checked). Each hop is asked with only
    what its own host is allowed, as a Range GET like GDAL's; call in a worker thread."""
    url = href
    try:
        with httpx.Client(timeout=PROBE_TIMEOUT_S) as http:
            for _ in range(MAX_REDIRECTS + 1):
                hop_headers = headers_for_hop(headers, href, url) if url != href else dict(headers)
                with http.stream("GET", url, headers={**hop_headers, "Range": "bytes=0-0"}) as response:
                    location = response.headers.get("location")
                    if response.status_code not in REDIRECT_CODES or not location:
                        return ""
                    url = str(response.url.join(location))
                if headers_for_hop(headers, href, url) != dict(headers):
                    host = urlparse(url).netloc or url
                    return (f"its server redirects it to {host}, which is not one of the catalog's hosts, and GDAL "
                            f"would carry them there. If {host} belongs to the catalog, add it to its Asset hosts in "
                            "Settings → Catalogs")
    except httpx.HTTPError as exc:
        return (f"its server could not be reached to check where the asset leads ({type(exc).__name__}): check the "
                "network and try again")
    return f"its server redirects it more than {MAX_REDIRECTS} times (a redirect loop?): check the asset's href"


def _write_private(path: Path, text: str) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # readable by this user only
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


def _remove_stale(current: Path) -> None:
    """Older header files of the same catalog and asset (a changed password or a renewed token) are deleted."""
    asset = current.name.rsplit("-", 1)[0]
    for old in current.parent.glob(f"{asset}-*.headers"):
        if old != current and old.name.rsplit("-", 1)[0] == asset:
            old.unlink(missing_ok=True)


def _safe_name(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name) or "catalog"
