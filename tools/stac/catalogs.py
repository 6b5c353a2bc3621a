"""The configured catalogs, by name: STAC APIs and static catalogs."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Callable, Union
from urllib.parse import urlparse

import httpx

from ...agent.config import CatalogConfig
from ..common import ToolInputError
from ..engine.gdal_names import GdalName, ReadRules
from .access import CatalogAccess, CatalogSecrets
from .api_catalog import ApiCatalog
from .browser_connections import browser_catalogs
from .gdal_reads import ReadOptions, plan_read
from .static_catalog import StaticCatalog

Catalog = Union[ApiCatalog, StaticCatalog]


SecretsFn = Callable[[CatalogConfig], CatalogSecrets]


def qgis_secrets(config: CatalogConfig) -> CatalogSecrets:
    from .auth_secrets import resolve_secrets

    return resolve_secrets(config)


class CatalogRegistry:
    def __init__(self, configs: list[CatalogConfig], http: httpx.AsyncClient,
                 secrets: SecretsFn = qgis_secrets, browser: bool = True) -> None:
        self.http = http
        self.secrets = secrets  # read from the auth database at each use: nothing secret is kept here
        self._catalogs: dict[str, Catalog] = {}
        self._access: dict[str, CatalogAccess] = {}
        self.from_browser: set[str] = set()  # names of the QGIS Browser's STAC connections (read-only here)
        for config in configs:
            self.add(config)
        for config in browser_catalogs(configs) if browser else []:  # QGIS 3.40+; none before
            if config.name not in self._catalogs:
                self.add(config)
                self.from_browser.add(config.name)

    def add(self, config: CatalogConfig) -> Catalog:
        kind = config.kind if config.kind in ("api", "static") else "api"
        if config.url.endswith(".json") or kind == "static":
            catalog: Catalog = StaticCatalog(config, self.http)
        else:
            catalog = ApiCatalog(config, self.http)
        access = CatalogAccess(config)
        catalog.headers_for = lambda url: access.request_headers(url, self.secrets(config))
        catalog.remedy = access.remedy()
        self._catalogs[config.name] = catalog
        self._access[config.name] = access
        return catalog

    def access(self, name: str) -> CatalogAccess:
        return self._access[name]

    def owner_of(self, href: str) -> CatalogAccess | None:
        """The catalog whose credentials an asset href gets: the one on its host (or bucket), else for an s3://
        href the one catalog set up for S3; None = read it as public."""
        for access in self._access.values():
            if access.owns(href):
                return access
        if urlparse(href).scheme == "s3" or href.startswith("/vsis3/"):
            s3 = [a for a in self._access.values() if a.method == "s3" or a.config.s3_requester_pays]
            return s3[0] if len(s3) == 1 else None
        return None

    def signs_with_own_endpoint(self) -> bool:
        """Whether a catalog signs its assets with its own SAS token endpoint (tokens to keep fresh for QGIS)."""
        return any(a.method == "planetary_computer" and a.config.token_url.strip() for a in self._access.values())

    def asset_href(self, catalog: str, asset: dict, href: str) -> str:
        """The href to read: an S3 catalog reads an asset's `alternate.s3.href` (USGS Landsat lists https first)."""
        access = self._access.get(catalog)
        alternate = ((asset.get("alternate") or {}).get("s3") or {}).get("href") if isinstance(asset, dict) else None
        if access is not None and access.method == "s3" and isinstance(alternate, str) and alternate.startswith("s3://"):
            return alternate
        return href

    def prime_buckets(self, secrets_readable: Callable[[], bool] | None = None) -> list[str]:
        """Puts each S3 catalog's settings on its buckets' prefixes (no I/O), so layers of a project saved in an
        earlier session read again when it is opened; returns the prefixes. Keys are left for the first read
        when the auth database is still locked: opening QGIS must not ask for the master password."""
        if secrets_readable is None:
            from .auth_secrets import auth_database_open as secrets_readable
        primed = []
        for access in self._access.values():
            if access.method != "s3" and not access.config.s3_requester_pays:
                continue
            if access.config.auth_cfg and self.secrets is qgis_secrets and not secrets_readable():
                continue
            for bucket in access.config.asset_hosts:
                if bucket and "." not in bucket and ":" not in bucket:  # a bucket name, not a web host
                    _, options = self.plan_read(f"s3://{bucket}/", Path("."), access.config.name)
                    options.prepare()
                    primed.append(options.prefix)
        return primed

    def plan_read(self, href: str, private_dir: Path, catalog: str | None = None,
                  collection: str = "", rules: ReadRules | None = None) -> tuple[GdalName, ReadOptions]:
        """(GDAL path, options) to read an asset with its catalog's credentials; see gdal_reads.py. `rules`: who
        reads (gdal_names.rules_for(deps)); `catalog`: the catalog the href came from, whose location bounds it."""
        named = self._access.get(catalog) if catalog else None
        access = named
        if access is None or not (access.owns(href) or urlparse(href).scheme == "s3"):
            access = self.owner_of(href)
        secrets = self.secrets(access.config) if access else CatalogSecrets()
        rules = dataclasses.replace(rules or ReadRules(), catalogs=self.locations())
        return plan_read(access, href, secrets, private_dir, collection, via=named if access is not named else None,
                         rules=rules, catalog=catalog or "")

    def locations(self) -> dict[str, str]:
        """Where each catalog lives (its URL, or its folder or catalog.json), by name."""
        return {name: access.config.url for name, access in self._access.items()}

    def names(self) -> list[str]:
        return list(self._catalogs)

    def all(self) -> list[Catalog]:
        return list(self._catalogs.values())

    def get(self, name: str | None = None) -> Catalog:
        if not self._catalogs:
            raise ToolInputError("No STAC catalog is configured. Add one in the plugin settings (Catalogs).")
        if not name:
            return next(iter(self._catalogs.values()))
        if name not in self._catalogs:
            raise ToolInputError(f"Unknown catalog '{name}'. Configured catalogs: {', '.join(self._catalogs)}")
        return self._catalogs[name]
