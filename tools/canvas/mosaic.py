"""GDAL side of loading STAC assets (runs in a worker thread, plain data in and out): stack red/green/blue
into one VRT, mosaic items of one CRS with gdal.BuildVRT, write STAC nodata/scale/offset into the VRT,
and measure a 2–98 % stretch from an overview."""

from __future__ import annotations

import logging
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from osgeo import gdal

from ..common import ToolInputError
from ..raster_io import _crs_label, _dataset_srs, raster_bounds_lonlat, read_band
from ..stac.hrefs import gdal_path
from .stac_assets import AssetChoice, split_time_series

gdal.UseExceptions()
log = logging.getLogger(__name__)

STRETCH_PIXELS = 262_144  # about 512 × 512 pixels from an overview is plenty for a 2–98 % cut
MAX_CLASSES = 64


def build_mosaics(choices: list[AssetChoice], out_dir: str, name: str) -> list[dict[str, Any]]:
    """One result per CRS: {path, crs, item_ids, start, end, bands: [...], bounds_lonlat}."""
    out = Path(out_dir)
    sources = _open_all(choices, out, name)
    by_crs: dict[str, list[tuple[AssetChoice, str]]] = {}
    for choice, path, crs in sources:
        by_crs.setdefault(crs, []).append((choice, path))
    groups = []
    for crs, members in by_crs.items():
        path_of = {id(c): p for c, p in members}
        for series in split_time_series([c for c, _ in members]):
            groups.append((crs, [(c, path_of[id(c)]) for c in series], len(by_crs) > 1))
    results = []
    for crs, members, several_crs in groups:
        paths = [p for _, p in members]
        meta = members[0][0].bands
        day = (members[0][0].start or "")[:10] if len(groups) > len(by_crs) else ""
        if len(paths) == 1 and not _needs_vrt(paths[0], meta):
            path = paths[0]
        else:
            path = str(out / f"{_slug(name)}-{_slug(crs)}{'-' + day if day else ''}.vrt")
            if gdal.BuildVRT(path, paths) is None:
                raise ToolInputError(f"GDAL could not mosaic {len(paths)} assets in {crs}.")
            _write_band_metadata(path, meta)
        starts = [c.start for c, _ in members if c.start]
        ends = [c.end for c, _ in members if c.end]
        results.append({"path": path, "crs": crs, "day": day, "several_crs": several_crs,
                        "item_ids": [c.item_id for c, _ in members],
                        "start": min(starts) if starts else None, "end": max(ends) if ends else None,
                        **describe_bands(path, meta)})
    return results


def _open_all(choices: list[AssetChoice], out: Path, name: str) -> list[tuple[AssetChoice, str, str]]:
    def one(choice: AssetChoice) -> tuple[AssetChoice, str, str]:
        paths = choice.paths or [gdal_path(h) for h in choice.hrefs]
        for path in paths:
            _check_opens(choice, path)
        if choice.kind == "rgb":
            stacked = str(out / f"{_slug(name)}-{_slug(choice.item_id)}-rgb.vrt")
            if gdal.BuildVRT(stacked, paths, separate=True) is None:
                raise ToolInputError(f"GDAL could not stack red/green/blue of item '{choice.item_id}'.")
            paths = [stacked]
        ds = gdal.Open(paths[0])
        return choice, paths[0], _crs_label(_dataset_srs(ds))

    with ThreadPoolExecutor(max_workers=min(8, max(1, len(choices)))) as pool:
        return list(pool.map(one, choices))


def _check_opens(choice: AssetChoice, path: str) -> None:
    try:
        ds = gdal.Open(path)
    except RuntimeError as exc:
        if path.startswith("/vsicurl?") and gdal.GetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS"):
            raise ToolInputError(  # GDAL 3.6 refuses every /vsicurl?… path while this option is set
                "This catalog sends credentials to GDAL, which GDAL refuses while the option "
                "CPL_VSIL_CURL_ALLOWED_EXTENSIONS is set; remove it (QGIS Settings → Options → Variables/GDAL) "
                "and try again. Nothing was added to the map.") from None
        raise ToolInputError(
            f"Cannot open asset {', '.join(choice.keys)} of item '{choice.item_id}' at {path}: {str(exc)[:200]}. "
            "The href may be wrong or unreachable, or the catalog needs credentials (set its headers in the "
            "plugin's Catalogs settings); nothing was added to the map.") from None
    if ds is None or ds.RasterCount == 0:
        raise ToolInputError(f"Asset {', '.join(choice.keys)} of item '{choice.item_id}' is not a raster; "
                             "pick another asset.")


def _needs_vrt(path: str, meta: list[dict]) -> bool:
    """True when the STAC metadata says nodata/scale/offset that the file itself does not carry."""
    ds = gdal.Open(path)
    for i, band_meta in enumerate(meta[: ds.RasterCount]):
        band = ds.GetRasterBand(i + 1)
        if "nodata" in band_meta and _number(band_meta["nodata"]) != band.GetNoDataValue():
            return True
        if "scale" in band_meta and float(band_meta["scale"]) != (band.GetScale() or 1.0):
            return True
        if "offset" in band_meta and float(band_meta["offset"]) != (band.GetOffset() or 0.0):
            return True
    return False


def _write_band_metadata(vrt_path: str, meta: list[dict]) -> None:
    ds = gdal.Open(vrt_path, gdal.GA_Update)
    for i, band_meta in enumerate(meta[: ds.RasterCount]):
        band = ds.GetRasterBand(i + 1)
        nodata = _number(band_meta.get("nodata"))
        if nodata is not None:
            band.SetNoDataValue(nodata)  # on raw values, before scaling, so a scaled 0.0 stays visible
        if "scale" in band_meta:
            band.SetScale(float(band_meta["scale"]))
        if "offset" in band_meta:
            band.SetOffset(float(band_meta["offset"]))
    ds.FlushCache()
    ds = None


def describe_bands(path: str, meta: list[dict]) -> dict[str, Any]:
    """Per band: dtype, nodata, scale, offset, a 2–98 % stretch (scaled values) and, for few integer values, classes."""
    ds = gdal.Open(path)
    bands = []
    for i in range(1, ds.RasterCount + 1):
        band = ds.GetRasterBand(i)
        band_meta = meta[i - 1] if i - 1 < len(meta) else {}
        values = read_band(ds, i, None, exact=False, max_pixels=STRETCH_PIXELS).values
        valid = values[np.isfinite(values)]
        info: dict[str, Any] = {"band": i, "dtype": gdal.GetDataTypeName(band.DataType),
                                "nodata": band.GetNoDataValue(), "scale": band.GetScale(), "offset": band.GetOffset(),
                                "name": band_meta.get("common_name") or band_meta.get("name") or band.GetDescription()}
        stats = band_meta.get("statistics") or {}
        if valid.size:
            info["p2"], info["p98"] = (float(v) for v in np.percentile(valid, [2, 98]))
            info["min"], info["max"] = float(valid.min()), float(valid.max())
        if "minimum" in stats and "maximum" in stats:
            info["p2"], info["p98"] = float(stats["minimum"]), float(stats["maximum"])
        if band.DataType in (gdal.GDT_Byte, gdal.GDT_UInt16, gdal.GDT_Int16) and valid.size:
            unique = np.unique(valid)
            if unique.size <= MAX_CLASSES:
                info["classes"] = [float(v) for v in unique]
        bands.append(info)
    return {"bands": bands, "band_count": ds.RasterCount, "bounds_lonlat": raster_bounds_lonlat(ds)}


def _number(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}.get(value.lower(), value)
    return float(value)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")[:60] or "layer"
