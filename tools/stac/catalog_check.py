"""The Catalogs settings' Test: the root answers, a search returns an item, and GDAL reads the header of one of
its assets with the catalog's access method; the first step that fails is said precisely (auth, network,
region, requester-pays)."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import httpx

from ...agent.config import CatalogConfig
from ...agent.dock_text import Translate, as_written
from ...agent.settings_checks import CheckResult
from ..common import ToolInputError
from .catalogs import CatalogRegistry, SecretsFn, qgis_secrets
from .search import ItemSearch

TIMEOUT_S = 15.0
RASTER_HINTS = ("image/tiff", "geotiff", ".tif", ".tiff", ".jp2")


async def check_catalog_access(config: CatalogConfig, secrets: SecretsFn = qgis_secrets,
                               work_dir: str | None = None, tr: Translate = as_written) -> CheckResult:
    """`tr`: the dock's translation of the sentence (ui.i18n.tr); the reasons that come from the catalog code
    (an auth problem, a search or GDAL error) are the ones the model reads too, and stay as they are written."""
    name = config.name or config.url
    async with httpx.AsyncClient(timeout=httpx.Timeout(TIMEOUT_S, connect=5.0), follow_redirects=True) as http:
        registry = CatalogRegistry([config], http, secrets=secrets)
        catalog = registry.get(config.name)
        problem = secrets(config).problem
        if problem:
            return CheckResult(False, tr("{catalog}: {problem}").format(catalog=name, problem=problem))
        try:
            if catalog.kind == "api" and not await catalog.conforms("item-search"):
                return CheckResult(False, tr("{catalog}: the API answered but offers no item search; if it is a "
                                             "static catalog, set its kind to static.").format(catalog=name))
            outcome = await catalog.search(ItemSearch(limit=1 if catalog.kind == "api" else 50))
        except ToolInputError as exc:
            return CheckResult(False, tr("{catalog}: search failed. {error}").format(catalog=name, error=exc))
        matched = outcome.number_matched
        found = (tr("search works (1 item)") if matched == 1 else tr("search works ({n} items)").format(n=matched)
                 if matched else tr("search works"))
        picked = _one_raster_asset(outcome.items)
        if picked is None:
            return CheckResult(True, tr("{catalog}: {found}, but no item with a raster asset came back to test "
                                        "reading.").format(catalog=name, found=found))
        item, key, href = picked
        out = Path(work_dir or tempfile.mkdtemp(prefix="stacgis-check-"))
        path, options = registry.plan_read(href, out, config.name, str(item.get("collection") or ""))
        try:
            size = await asyncio.to_thread(_read_header, path, options)
        except ToolInputError as exc:
            return CheckResult(False, tr("{catalog}: {found}, but reading asset '{asset}' of item '{item}' failed. "
                                         "{error}").format(catalog=name, found=found, asset=key,
                                                           item=item.get("id"), error=exc))
    bands = tr("{width}×{height}, {count} band(s), {type}").format(**size)
    return CheckResult(True, tr("{catalog}: {found}; read the header of asset '{asset}' of item '{item}' ({size}) "
                                "using {access}.").format(catalog=name, found=found, asset=key, item=item.get("id"),
                                                          size=bands, access=tr(registry.access(config.name).label)))


def _one_raster_asset(items: list[dict]) -> tuple[dict, str, str] | None:
    for item in items:
        for key, asset in (item.get("assets") or {}).items():
            href = str(asset.get("href") or "")
            kind = f"{asset.get('type') or ''} {href.lower().split('?')[0]}"
            if href and any(h in kind for h in RASTER_HINTS):
                return item, key, href
    return None


def _read_header(path: str, options) -> dict:
    from osgeo import gdal

    from ..engine.gdal_scope import gdal_exceptions
    from ..engine.raster_reads import gdal_options, open_raster

    options.update({"GDAL_HTTP_MAX_RETRY": "1", "GDAL_HTTP_RETRY_DELAY": "1", "GDAL_HTTP_TIMEOUT": str(int(TIMEOUT_S))})
    with gdal_exceptions(), gdal_options(options):  # the user is waiting: one quick retry, not a 30 s back-off
        gdal.VSICurlPartialClearCache(path)  # the Test asks the server now, never what GDAL remembers of it
        ds = open_raster(path)
        return {"width": ds.RasterXSize, "height": ds.RasterYSize, "count": ds.RasterCount,
                "type": gdal.GetDataTypeName(ds.GetRasterBand(1).DataType)}
