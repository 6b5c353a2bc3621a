"""The configured catalogs, by name: STAC APIs and static catalogs."""

from __future__ import annotations

from typing import Union

import httpx

from ...agent.config import CatalogConfig
from ..common import ToolInputError
from .api_catalog import ApiCatalog
from .static_catalog import StaticCatalog

Catalog = Union[ApiCatalog, StaticCatalog]


class CatalogRegistry:
    def __init__(self, configs: list[CatalogConfig], http: httpx.AsyncClient) -> None:
        self.http = http
        self._catalogs: dict[str, Catalog] = {}
        for config in configs:
            self.add(config)

    def add(self, config: CatalogConfig) -> Catalog:
        kind = config.kind if config.kind in ("api", "static") else "api"
        if config.url.endswith(".json") or kind == "static":
            catalog: Catalog = StaticCatalog(config, self.http)
        else:
            catalog = ApiCatalog(config, self.http)
        self._catalogs[config.name] = catalog
        return catalog

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
