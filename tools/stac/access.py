"""How a catalog lets a client read: the access method turned into request headers for its STAC API and
into a GDAL read plan for its assets, both scoped to that catalog's hosts (pure: no qgis, no I/O).

Secrets come in as plain values resolved from QGIS's auth database just before use (auth_secrets.py);
nothing here keeps or writes them, and the GDAL path a layer keeps (and a project saves) never holds one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable
from urllib.parse import urlparse

from ...agent.catalog_presets import ACCESS_METHODS, access_method
from ...agent.config import CatalogConfig
from ..engine.gdal_names import GdalName, ReadRules, from_href, pc_signed

PC_SAS_ENDPOINT = "https://planetarycomputer.microsoft.com/api/sas/v1/token/"  # GDAL's own default too
PC_BLOB_SUFFIX = ".blob.core.windows.net"


@dataclass(frozen=True)
class CatalogSecrets:
    """What the auth database gave for one catalog, for one request or read; never stored."""

    headers: dict[str, str] = field(default_factory=dict)  # from a QGIS auth config or a bearer token
    s3_key_id: str = ""
    s3_secret: str = ""
    problem: str = ""  # why the auth config could not be used, in words for the user


@dataclass
class GdalRead:
    """How GDAL reads one asset: `path` (safe to save in a project), plus what the worker must put in place
    before opening it: a private header file, and options for one S3 bucket prefix."""

    path: GdalName
    header_lines: str = ""  # written to a 0600 file named in a /vsicurl?header_file= path
    prefix: str = ""  # e.g. "/vsis3/bucket/": the options apply to that prefix only
    prefix_options: dict[str, str] = field(default_factory=dict)


class ScopedHeaders(dict):
    """The headers for one URL, which also know what any other URL may get: a redirect hop is given
    `for_url(hop)`, re-decided from the catalog's hosts, never the first hop's headers."""

    def __init__(self, headers: dict[str, str], for_url: Callable[[str], dict[str, str]]) -> None:
        super().__init__(headers)
        self.for_url = for_url


class CatalogAccess:
    """One catalog's access method, applied to its API requests and its asset reads."""

    def __init__(self, config: CatalogConfig) -> None:
        self.config = config
        self.method = access_method(config)
        self.label = ACCESS_METHODS[self.method]
        root = urlparse(config.url)
        self.hosts = {h.lower() for h in [root.netloc, *config.asset_hosts] if h}

    def owns(self, url: str) -> bool:
        """Whether `url` is on one of this catalog's hosts (credentials go nowhere else)."""
        host = urlparse(url).netloc.lower()
        if not host:
            return False
        if self.method == "planetary_computer" and host.endswith(PC_BLOB_SUFFIX):
            return True
        return host in self.hosts

    def request_headers(self, url: str, secrets: CatalogSecrets) -> ScopedHeaders:
        """Headers for an HTTP request to `url`: the catalog's own, only on its own hosts. Values are stripped:
        QGIS's EsriToken method ends its header with a space, which httpx refuses to send."""
        headers: dict[str, str] = {}
        if self.owns(url):
            headers = dict(self.config.headers)
            if self.method in ("qgis_auth", "bearer"):
                headers.update(secrets.headers)
        clean = {str(k).strip(): str(v).strip() for k, v in headers.items() if str(k).strip()}
        return ScopedHeaders(clean, lambda other: self.request_headers(other, secrets))

    def bucket_listed(self, path: str) -> bool:
        """Whether an S3 path's bucket is one the catalog lists (its Asset hosts): only those get its keys."""
        parts = path.split("/")
        return len(parts) > 2 and parts[1] == "vsis3" and parts[2] in self.config.asset_hosts

    def gdal_read(self, href: str, secrets: CatalogSecrets, collection: str = "", rules: ReadRules | None = None,
                  catalog: str = "") -> GdalRead:
        """`rules`, `catalog`: who reads, and the catalog the href came from (tools/engine/gdal_names.py)."""
        path = from_href(href, rules, catalog)
        if path.startswith("/vsicurl/") and self.method == "planetary_computer" and self.owns(href):
            # GDAL fetches the collection's SAS token, caches it until expiry and renews it, on every read:
            # the path stays unsigned, so a saved project re-signs when it is opened again
            return GdalRead(pc_signed(path, collection))
        if path.startswith("/vsicurl/"):
            headers = self.request_headers(href, secrets)
            if headers:
                lines = "".join(f"{k}: {v}\n" for k, v in headers.items())
                return GdalRead(path, header_lines=lines)
            return GdalRead(path)
        if path.startswith(("/vsis3/", "/vsigs/", "/vsiaz/")):
            parts = path.split("/")
            prefix = "/".join(parts[:3]) + "/" if len(parts) > 3 else path
            return GdalRead(path, prefix=prefix, prefix_options=self._bucket_options(path, secrets))
        return GdalRead(path)

    def _bucket_options(self, path: str, secrets: CatalogSecrets) -> dict[str, str]:
        if path.startswith("/vsigs/") and self.method in ("none", "headers"):
            return {"GS_NO_SIGN_REQUEST": "YES"}  # public Google Cloud Storage buckets
        if not path.startswith("/vsis3/"):
            return {}
        options: dict[str, str] = {}
        if not self.bucket_listed(path):  # an item may name any bucket: keys and payment only for listed ones
            return {"AWS_NO_SIGN_REQUEST": "YES", **self._endpoint_options()}
        signed = self.method == "s3"
        if self.config.s3_requester_pays:
            options["AWS_REQUEST_PAYER"] = "requester"
            signed = True  # AWS refuses anonymous requester-pays reads
        if signed and secrets.s3_key_id:
            options["AWS_ACCESS_KEY_ID"] = secrets.s3_key_id
            options["AWS_SECRET_ACCESS_KEY"] = secrets.s3_secret
        elif not signed:
            options["AWS_NO_SIGN_REQUEST"] = "YES"
        # signed without keys: GDAL's own AWS chain (environment, ~/.aws profile, instance role)
        return {**options, **self._endpoint_options()}

    def _endpoint_options(self) -> dict[str, str]:
        """Where the catalog's S3 store is (region, endpoint): no secret, so any bucket read there gets them."""
        options: dict[str, str] = {}
        if self.config.s3_region:
            options["AWS_REGION"] = self.config.s3_region
        endpoint = self.config.s3_endpoint.strip()
        if endpoint:
            scheme = urlparse(endpoint).scheme if "://" in endpoint else ""
            options["AWS_S3_ENDPOINT"] = endpoint.split("://", 1)[-1].rstrip("/")
            options["AWS_HTTPS"] = "NO" if scheme == "http" else "YES"
            options["AWS_VIRTUAL_HOSTING"] = "FALSE"  # S3-compatible stores want path-style URLs
        return options

    def describe(self) -> str:
        return f"catalog '{self.config.name}' ({self.label})"

    def remedy(self) -> str:
        """What to do when this catalog refuses us, for its access method."""
        what = {"none": "it is set as public: choose an access method (auth config, token or headers)",
                "headers": "check the headers (API key) configured for it",
                "qgis_auth": "check the user name and password (or key) in its QGIS authentication config",
                "bearer": "the token in its auth config is wrong or expired: paste a new one there",
                "planetary_computer": "the SAS token could not be obtained: check the network",
                "s3": "check the S3 keys in its auth config"}[self.method]
        return f"{what} in Settings → Catalogs"


def _s3_path(href: str) -> str:
    return "/vsis3/" + href[len("s3://"):] if href.startswith("s3://") else href


_ADDRESS = re.compile(r"(?:[a-z][a-z0-9+.-]*://|/vsi[a-z0-9_]+[/?])\S*")


def _without_addresses(text: str) -> str:
    """GDAL's message with its URLs and /vsi paths taken out: their ports and names hold digits and words."""
    return _ADDRESS.sub(" ", text)


def explain_read_failure(access: CatalogAccess | None, href: str, message: str,
                         via: CatalogAccess | None = None) -> str:
    """A GDAL open/read failure in words that say which catalog, which method and what to do; "" when the
    failure is not about access (the caller keeps its own message). `via`: the catalog the item came from,
    when it does not own the asset's host."""
    text = _without_addresses(message.lower())  # a port such as :40305 in a URL is not an HTTP 403
    who = access.describe() if access else "no configured catalog owns it"
    denied = bool(re.search(r"\b40[13]\b", text)) or any(s in text for s in ("accessdenied", "access denied", "forbidden", "unauthorized",
                                     "invalidaccesskeyid", "signaturedoesnotmatch", "authenticationfailed"))
    s3 = href.startswith("s3://") or "/vsis3/" in href
    # after a 403 GDAL looks for other AWS credentials and reports that it found none (3.6 and 3.13 wordings)
    denied = denied or (s3 and any(s in text for s in ("aws_secret_access_key and aws_no_sign_request",
                                                        "no valid aws credentials found")))
    if s3 and denied and access is not None and (access.method == "s3" or access.config.s3_requester_pays) \
            and not access.bucket_listed(_s3_path(href)):
        bucket = _s3_path(href).split("/")[2]
        return (f"S3 refused '{href}': bucket '{bucket}' is not one of the buckets {who} lists, so it was read "
                "anonymously (the catalog's S3 keys and requester-pays go only to its listed buckets). If the "
                f"bucket belongs to that catalog, add '{bucket}' to its Asset hosts in Settings → Catalogs.")
    if s3 and any(w in text for w in ("authorizationheadermalformed", "permanentredirect", "wrong region",
                                      "region '", "incorrectendpoint")):
        return (f"S3 answered that the region or endpoint of '{href}' is wrong for {who}: set the bucket's region "
                "(e.g. us-west-2 for usgs-landsat) or the S3 endpoint in Settings → Catalogs.")
    if s3 and denied:
        if access is not None and not access.config.s3_requester_pays:
            return (f"S3 refused '{href}' for {who}. If the bucket is requester-pays (like usgs-landsat), tick "
                    "'Requester pays' for this catalog in Settings → Catalogs (your AWS account pays for the "
                    "reads); otherwise check its S3 keys (auth config or AWS profile), region and endpoint.")
        return (f"S3 refused '{href}' for {who}: check its S3 access key and secret (auth config or AWS "
                "profile), region and endpoint in Settings → Catalogs.")
    unreachable = any(s in text for s in ("resolve host", "connection refused", "timed out", "connect to",
                                          "couldn't connect", "http error code"))
    if (denied or unreachable) and access is not None and access.method == "planetary_computer":
        return (f"{who} refused '{href}': the Planetary Computer SAS token was missing, expired or could not be "
                "renewed (offline, or the token endpoint unreachable?). Check the network and try again.")
    if denied:
        if access is None and via is not None and via.method != "none":
            host = urlparse(href).netloc
            return (f"The server of '{href}' refused it (HTTP 401/403): {via.describe()} sends its credentials only "
                    f"to its own hosts, and {host} is not one of them. If {host} belongs to that catalog, add it "
                    "to its Asset hosts in Settings → Catalogs.")
        if access is None:
            return (f"The server refused '{href}' (HTTP 401/403) and {who}: add its catalog with an access method "
                    "in Settings → Catalogs.")
        return f"{who} refused '{href}' (HTTP 401/403): {access.remedy()}."
    if unreachable:
        return f"Could not reach the server of '{href}' ({who}): offline, or the host is down? Try again later."
    return ""
