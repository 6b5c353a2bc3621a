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

from .access import PC_TOKEN_URL, CatalogAccess, CatalogSecrets, GdalRead, explain_read_failure


class ReadOptions(dict):
    """Thread-local GDAL options for one read, plus the header files the worker writes before opening."""

    def __init__(self, options: dict[str, str] | None = None, files: dict[str, str] | None = None,
                 prefix: str = "", prefix_options: dict[str, str] | None = None,
                 access: CatalogAccess | None = None, href: str = "") -> None:
        super().__init__(options or {})
        self.files = dict(files or {})
        self.prefix = prefix
        self.prefix_options = dict(prefix_options or {})
        self.access = access
        self.href = href

    def explain(self, message: str) -> str:
        """A read failure in words naming the catalog, its access method and what to do; "" if not about access."""
        return explain_read_failure(self.access, self.href, message) if self.href else ""

    def prepare(self) -> None:
        """Writes the header files and sets the bucket's options; call in the worker thread, before opening."""
        for path, text in self.files.items():
            _write_private(Path(path), text)
        if self.prefix_options:
            gdal.ClearPathSpecificOptions(self.prefix)  # a setting unticked since the last read goes too
        for key, value in self.prefix_options.items():
            gdal.SetPathSpecificOption(self.prefix, key, value)


def plan_read(access: CatalogAccess | None, href: str, secrets: CatalogSecrets, private_dir: Path,
              collection: str = "") -> tuple[str, ReadOptions]:
    """(GDAL path to open and to keep in a layer, options for the worker). Pure apart from naming files."""
    if access is None:
        from .hrefs import gdal_options, gdal_path

        path = gdal_path(href)
        bucket = "/".join(path.split("/")[:3]) + "/" if path.startswith("/vsis3/") else ""
        return path, ReadOptions(prefix=bucket, prefix_options=gdal_options(href) if bucket else {}, href=href)
    read: GdalRead = access.gdal_read(href, secrets, collection)
    options: dict[str, str] = {}
    if read.path.startswith("/vsicurl?pc_url_signing") and access.config.token_url:
        # a custom token endpoint: worker reads only (QGIS's renderers use GDAL's default, the public one)
        token_url = access.config.token_url.rstrip("/") + "/"
        if token_url != PC_TOKEN_URL:
            options["VSICURL_PC_SAS_TOKEN_URL"] = token_url
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


def _safe_name(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name) or "catalog"
