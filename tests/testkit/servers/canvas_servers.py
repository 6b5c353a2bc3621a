"""Session helpers for the canvas tests: the COG server + STAC API with the canvas test data, and ToolDeps
wired to the real QGIS project and iface."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Iterator

from ..qgis_drivers.canvas_fixtures import CanvasData, make_canvas_data
from .cog_server import CogServer
from .loopback import server_missing
from .stac_api import StacApi, StacApiUnavailable

GDAL_TEST_CONFIG = {"GDAL_DISABLE_READDIR_ON_OPEN": "EMPTY_DIR", "CPL_VSIL_CURL_ALLOWED_EXTENSIONS": ".tif,.tiff,.vrt",
                    "GDAL_HTTP_MAX_RETRY": "0", "GDAL_HTTP_TIMEOUT": "10"}


@contextlib.contextmanager
def gdal_test_config() -> Iterator[dict]:
    from osgeo import gdal

    for key, value in GDAL_TEST_CONFIG.items():
        gdal.SetConfigOption(key, value)
    try:
        yield GDAL_TEST_CONFIG
    finally:
        for key in GDAL_TEST_CONFIG:
            gdal.SetConfigOption(key, None)


@contextlib.contextmanager
def canvas_stac(root: Path, mosaic_tiles: int = 3, with_api: bool = True) -> Iterator[tuple[CogServer, StacApi | None, CanvasData]]:
    """COGs over HTTP with Range, and (when asked) stac-fastapi-pgstac serving their items."""
    cogs = CogServer(root).start()
    api = None
    try:
        data = make_canvas_data(root, cogs.url, mosaic_tiles)
        if with_api:
            api = StacApi()
            try:
                api.start()
            except StacApiUnavailable as exc:
                api.stop()
                server_missing(str(exc))
            api.load(data.collections, data.items)
        yield cogs, api, data
    finally:
        if api is not None:
            api.stop()
        cogs.stop()


def canvas_deps(http, catalog_url: str | None, work_dir: str, iface, headers: dict | None = None, **catalog_fields):
    from qgis.core import QgsProject

    from stacgis_agent.agent.config import CatalogConfig, Settings
    from stacgis_agent.tools.deps import ToolDeps

    catalogs = [CatalogConfig(name="test", url=catalog_url, headers=headers or {}, **catalog_fields)] if catalog_url else []
    return ToolDeps.from_settings(Settings(catalogs=catalogs), http=http, work_dir=work_dir,
                                  project=QgsProject.instance, iface=lambda: iface)
