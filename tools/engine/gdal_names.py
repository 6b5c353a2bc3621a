"""Turns asset hrefs into paths GDAL reads in place, without downloading the file."""

from __future__ import annotations

from urllib.parse import unquote, urlparse


def gdal_path(href: str) -> str:
    """`https://` → `/vsicurl/`, `s3://` → `/vsis3/`, `gs://` → `/vsigs/`, `file://` → local path."""
    href = href.strip()
    if href.startswith("/vsi"):
        return href
    scheme = urlparse(href).scheme.lower()
    if scheme in ("http", "https"):
        return "/vsicurl/" + href
    if scheme == "s3":
        return "/vsis3/" + href[len("s3://"):]
    if scheme == "gs":
        return "/vsigs/" + href[len("gs://"):]
    if scheme == "file":
        return unquote(urlparse(href).path)
    return href

