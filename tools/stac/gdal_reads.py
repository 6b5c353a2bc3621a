"""The one way catalog credentials reach GDAL: scoped to the asset's path, never process-wide.

- HTTP headers (API keys, Basic, bearer, OAuth2) go into a private 0600 header file named by a
  `/vsicurl?header_file=…&url=…` path (GDAL 3.6 applies no path-specific options to /vsicurl/);
- Planetary Computer assets get a `/vsicurl?pc_url_signing=yes…` path: GDAL signs each read itself;
- S3 settings (keys, requester-pays, region, endpoint) become path-specific options of that bucket's prefix.
The same path serves a tool reading in a worker thread and QGIS's renderers, and a saved project keeps
only the path: no token, password or key. Files are written by `prepare()`, in the worker that reads.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from urllib.parse import quote

from osgeo import gdal

from ...agent.config import CatalogConfig
from .access import PC_TOKEN_URL, CatalogAccess, CatalogSecrets, GdalRead, explain_read_failure

PUBLIC = CatalogAccess(CatalogConfig("public", "", access="none"))
BUCKET_KEYS = ("AWS_REQUEST_PAYER", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_NO_SIGN_REQUEST", "AWS_REGION",
               "AWS_S3_ENDPOINT", "AWS_HTTPS", "AWS_VIRTUAL_HOSTING", "GS_NO_SIGN_REQUEST")


class ReadOptions(dict):
    """Thread-local GDAL options for one read, plus the header files the worker writes before opening."""

    def __init__(self, options: dict[str, str] | None = None, files: dict[str, str] | None = None,
                 prefix: str = "", prefix_options: dict[str, str] | None = None,
                 access: CatalogAccess | None = None, href: str = "", via: CatalogAccess | None = None) -> None:
        super().__init__(options or {})
        self.files = dict(files or {})
        self.prefix = prefix
        self.prefix_options = dict(prefix_options or {})
        self.access = access
        self.href = href
        self.via = via  # the catalog the item came from, when another (or none) owns the asset's host

    def explain(self, message: str) -> str:
        """A read failure in words naming the catalog, its access method and what to do; "" if not about access."""
        if not self.href:
            return ""
        no_keys = "aws_secret_access_key and aws_no_sign_request" in message.lower()
        if no_keys and self.access is not None and "AWS_ACCESS_KEY_ID" not in self.prefix_options:
            return (f"No AWS credentials for '{self.href}' ({self.access.describe()}): choose an auth config with "
                    "S3 keys for it in Settings → Catalogs, or set up an AWS profile (~/.aws/credentials).")
        return explain_read_failure(self.access, self.href, message, self.via)

    def prepare(self) -> None:
        """Writes the header files and sets the bucket's options; call in the worker thread, before opening."""
        for path, text in self.files.items():
            _write_private(Path(path), text)
            _remove_stale(Path(path))
        if not self.prefix:
            return
        stale = [k for k in BUCKET_KEYS if k not in self.prefix_options
                 and gdal.GetPathSpecificOption(self.prefix, k, None) is not None]
        # clear only when a setting was unticked: a render in another thread must not meet the prefix bare
        if stale:
            gdal.ClearPathSpecificOptions(self.prefix)
        for key, value in self.prefix_options.items():
            gdal.SetPathSpecificOption(self.prefix, key, value)


def plan_read(access: CatalogAccess | None, href: str, secrets: CatalogSecrets, private_dir: Path,
              collection: str = "", via: CatalogAccess | None = None) -> tuple[str, ReadOptions]:
    """(GDAL path to open and to keep in a layer, options for the worker). Pure apart from naming files."""
    if access is None:  # no catalog owns it: read as public (unsigned S3 and GCS)
        read = PUBLIC.gdal_read(href, CatalogSecrets())
        return read.path, ReadOptions(prefix=read.prefix, prefix_options=read.prefix_options, href=href, via=via)
    read: GdalRead = access.gdal_read(href, secrets, collection)
    options: dict[str, str] = {}
    if read.path.startswith("/vsicurl?pc_url_signing") and access.config.token_url:
        # a custom token endpoint: worker reads only (QGIS's renderers use GDAL's default, the public one)
        token_url = access.config.token_url.rstrip("/") + "/"
        if token_url != PC_TOKEN_URL:
            options["VSICURL_PC_SAS_TOKEN_URL"] = token_url
            if token_url.endswith("/token/"):  # an href without its collection is signed by the sign endpoint
                options["VSICURL_PC_SAS_SIGN_HREF_URL"] = token_url[: -len("token/")] + "sign?href="
    if read.header_lines:
        digest = hashlib.sha256(read.header_lines.encode()).hexdigest()[:16]
        header_file = Path(private_dir) / "credentials" / f"{_safe_name(access.config.name)}-{digest}.headers"
        path = f"/vsicurl?header_file={quote(str(header_file), safe='/')}&url={quote(href, safe=':/')}"
        return path, ReadOptions(options, files={str(header_file): read.header_lines}, access=access, href=href)
    return read.path, ReadOptions(options, prefix=read.prefix, prefix_options=read.prefix_options, access=access,
                                  href=href)


def _write_private(path: Path, text: str) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # readable by this user only
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


def _remove_stale(current: Path) -> None:
    """Older header files of the same catalog (a changed password or a renewed token) are deleted."""
    catalog = current.name.rsplit("-", 1)[0]
    for old in current.parent.glob(f"{catalog}-*.headers"):
        if old != current and old.name.rsplit("-", 1)[0] == catalog:
            old.unlink(missing_ok=True)


def _safe_name(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name) or "catalog"
