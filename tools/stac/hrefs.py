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


def gdal_options(href: str, requester_pays: bool = False, headers: dict[str, str] | None = None) -> dict[str, str]:
    """GDAL config options to read `href`: unsigned or requester-pays S3, catalog headers over HTTP."""
    options: dict[str, str] = {}
    path = gdal_path(href)
    if path.startswith("/vsis3/"):
        if requester_pays:
            options["AWS_REQUEST_PAYER"] = "requester"
        else:
            options["AWS_NO_SIGN_REQUEST"] = "YES"
    if path.startswith("/vsicurl/") and headers:
        options["GDAL_HTTP_HEADERS"] = "\r\n".join(f"{k}: {v}" for k, v in headers.items())
    return options
