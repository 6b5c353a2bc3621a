"""GDAL side of loading STAC assets (runs in a worker thread, plain data in and out): stack red/green/blue
into one VRT, mosaic items of one CRS with gdal.BuildVRT, write the STAC band names, nodata, scale and
offset into the VRT, assign the catalog's CRS where the file has none or another one, and measure a
2–98 % stretch from the same sample QGIS reads when it opens the layer (so that read is already cached
when QGIS opens the layer on the main thread)."""

from __future__ import annotations

import contextlib
import logging
import math
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, ContextManager

import numpy as np
from osgeo import gdal, osr

from ...common import ToolInputError
from ...engine.gdal_names import GdalName, dataset, datasets, from_href, own_file
from ...engine.gdal_scope import gdal_exceptions
from ...engine.raster_reads import _crs_label, _dataset_srs, raster_bounds_lonlat
from ...output_names import safe_component
from .stac_assets import AssetChoice, split_time_series

log = logging.getLogger(__name__)

SAMPLE_PIXELS = 250_000  # QGIS's own sample size for a stretch (QgsRasterLayer::SAMPLE_SIZE)
MAX_CLASSES = 64
_COLOUR_INTERP = {"red": gdal.GCI_RedBand, "green": gdal.GCI_GreenBand, "blue": gdal.GCI_BlueBand}


def build_mosaics(choices: list[AssetChoice], out_dir: str, name: str,
                  in_thread: Callable[[], ContextManager] = contextlib.nullcontext) -> list[dict[str, Any]]:
    """One result per CRS: {path, crs, crs_note, item_ids, start, end, bands: [...], bounds_lonlat}.
    `in_thread()`: what every thread that reads the assets enters first (the catalog's signing options)."""
    with gdal_exceptions(), in_thread():
        return _build_mosaics(choices, Path(out_dir), name, in_thread)


def _build_mosaics(choices: list[AssetChoice], out: Path, name: str,
                   in_thread: Callable[[], ContextManager]) -> list[dict[str, Any]]:
    sources = _open_all(choices, out, name, in_thread)
    by_crs: dict[str, list[tuple[AssetChoice, str]]] = {}
    notes: dict[str, str] = {}
    for choice, path, crs, note in sources:
        by_crs.setdefault(crs, []).append((choice, path))
        if note or crs not in notes:
            notes[crs] = note
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
            path = own_file(out / f"{_slug(name)}-{_slug(crs)}{'-' + _slug(day) if day else ''}.vrt", out)
            if gdal.BuildVRT(str(path), datasets(paths)) is None:
                raise ToolInputError(f"GDAL could not mosaic {len(paths)} assets in {crs}.")
            _write_band_metadata(path, meta)
            _store_statistics(path)
        starts = [c.start for c, _ in members if c.start]
        ends = [c.end for c, _ in members if c.end]
        results.append({"path": path, "crs": crs, "crs_note": notes.get(crs, ""), "day": day, "several_crs": several_crs,
                        "item_ids": [c.item_id for c, _ in members],
                        "start": min(starts) if starts else None, "end": max(ends) if ends else None,
                        **describe_bands(path, meta)})
    return results


def _open_all(choices: list[AssetChoice], out: Path, name: str,
              in_thread: Callable[[], ContextManager]) -> list[tuple[AssetChoice, str, str, str]]:
    def one(choice: AssetChoice) -> tuple[AssetChoice, str, str, str]:
        with gdal_exceptions(), in_thread():  # per thread on GDAL >= 3.7; options are per thread too
            paths = choice.paths or [from_href(h) for h in choice.hrefs]
            for path in paths:
                _check_opens(choice, path)
            if choice.kind == "rgb":
                stacked = own_file(out / f"{_slug(name)}-{_slug(choice.item_id)}-rgb.vrt", out)
                if gdal.BuildVRT(str(stacked), datasets(paths), separate=True) is None:
                    raise ToolInputError(f"GDAL could not stack red/green/blue of item '{choice.item_id}'.")
                paths = [stacked]
            ds = gdal.Open(dataset(paths[0]))
            srs, note = effective_crs(_dataset_srs(ds), choice.crs)
            path = paths[0]
            if note.startswith("from the catalog"):  # assign the catalog's CRS, no resampling
                path = own_file(out / f"{_slug(name)}-{_slug(choice.item_id)}-crs.vrt", out)
                if gdal.Translate(str(path), ds, format="VRT", outputSRS=srs.ExportToWkt()) is None:
                    raise ToolInputError(f"GDAL could not give item '{choice.item_id}' the catalog's CRS.")
            return choice, path, _crs_label(srs), note

    with ThreadPoolExecutor(max_workers=min(8, max(1, len(choices)))) as pool:
        return list(pool.map(one, choices))


def effective_crs(file_srs: osr.SpatialReference | None, catalog: str | None) -> tuple[Any, str]:
    """The CRS to use and a note saying where it came from: the catalog's (proj:code, proj:epsg, proj:wkt2)
    wins when the file has none or a different one; "" when the file and the catalog agree."""
    stac_srs = None
    if catalog:
        stac_srs = osr.SpatialReference()
        stac_srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
        try:
            if stac_srs.SetFromUserInput(catalog) != 0:
                stac_srs = None
        except RuntimeError:
            stac_srs = None
        if stac_srs is None:
            log.warning("the catalog's CRS %.80s is not one GDAL knows; using the file's", catalog)
    if stac_srs is None:
        return file_srs, "" if file_srs is not None else "neither the file nor the catalog gives a CRS"
    if file_srs is None:
        return stac_srs, "from the catalog; the file has no CRS"
    if file_srs.IsSame(stac_srs):
        return file_srs, ""
    return stac_srs, f"from the catalog; the file says {_crs_label(file_srs)}"


def _check_opens(choice: AssetChoice, path: GdalName) -> None:
    try:
        ds = gdal.Open(dataset(path))
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


def band_label(band_meta: dict) -> str:
    """What the legend, Identify and the tools call a band: its common name (red, nir…), else its name."""
    return str(band_meta.get("common_name") or band_meta.get("name") or "")


def _needs_vrt(path: GdalName, meta: list[dict]) -> bool:
    """True when the STAC metadata says band names, nodata, scale or offset that the file does not carry."""
    ds = gdal.Open(dataset(path))
    for i, band_meta in enumerate(meta[: ds.RasterCount]):
        band = ds.GetRasterBand(i + 1)
        if band_label(band_meta) and band_label(band_meta) != band.GetDescription():
            return True
        if "nodata" in band_meta and _number(band_meta["nodata"]) != band.GetNoDataValue():
            return True
        if "scale" in band_meta and float(band_meta["scale"]) != (band.GetScale() or 1.0):
            return True
        if "offset" in band_meta and float(band_meta["offset"]) != (band.GetOffset() or 0.0):
            return True
    return False


def _write_band_metadata(vrt_path: GdalName, meta: list[dict]) -> None:
    ds = gdal.Open(dataset(vrt_path), gdal.GA_Update)
    for i, band_meta in enumerate(meta[: ds.RasterCount]):
        band = ds.GetRasterBand(i + 1)
        if band_label(band_meta):
            band.SetDescription(band_label(band_meta))
            if band_label(band_meta) in _COLOUR_INTERP and ds.RasterCount >= 3:
                band.SetColorInterpretation(_COLOUR_INTERP[band_label(band_meta)])
        nodata = _number(band_meta.get("nodata"))
        if nodata is not None:
            band.SetNoDataValue(nodata)  # on raw values, before scaling, so a scaled 0.0 stays visible
        if "scale" in band_meta:
            band.SetScale(float(band_meta["scale"]))
        if "offset" in band_meta:
            band.SetOffset(float(band_meta["offset"]))
        if band_meta.get("unit"):  # the file says its unit too (a page's legend reads it: "m")
            band.SetUnitType(str(band_meta["unit"]))
    ds.FlushCache()
    ds = None


def describe_bands(path: GdalName, meta: list[dict]) -> dict[str, Any]:
    """Per band: dtype, nodata, scale, offset, a 2–98 % stretch (scaled values) and, for few integer values, classes."""
    ds = gdal.Open(dataset(path))
    bands = []
    for i in range(1, ds.RasterCount + 1):
        band = ds.GetRasterBand(i)
        band_meta = meta[i - 1] if i - 1 < len(meta) else {}
        values = sample_band(ds, i)
        band.ComputeRasterMinMax(True)  # QGIS's default stretch reads this coarse overview: cached now, not on the GUI thread
        valid = values[np.isfinite(values)]
        info: dict[str, Any] = {"band": i, "dtype": gdal.GetDataTypeName(band.DataType),
                                "nodata": band.GetNoDataValue(), "scale": band.GetScale(), "offset": band.GetOffset(),
                                "name": band_label(band_meta) or band.GetDescription() or f"band {i}",
                                "common_name": band_meta.get("common_name"), "stac_name": band_meta.get("name"),
                                "unit": band_meta.get("unit") or band.GetUnitType() or None}
        if valid.size:
            info["p2"], info["p98"] = (float(v) for v in np.percentile(valid, [2, 98]))
            info["min"], info["max"] = float(valid.min()), float(valid.max())
        declared = declared_range(band_meta.get("statistics") or {}, band.GetScale(), band.GetOffset(),
                                  (info["min"], info["max"]) if valid.size else None)
        if declared is not None:
            info["p2"], info["p98"] = declared
        if band.DataType in (gdal.GDT_Byte, gdal.GDT_UInt16, gdal.GDT_Int16) and valid.size:
            unique = np.unique(valid)
            if unique.size <= MAX_CLASSES:
                info["classes"] = [float(v) for v in unique]
        bands.append(info)
    return {"bands": bands, "band_count": ds.RasterCount, "bounds_lonlat": raster_bounds_lonlat(ds)}


def declared_range(stats: dict, scale: float | None, offset: float | None,
                   seen: tuple[float, float] | None = None) -> tuple[float, float] | None:
    """The catalog's minimum/maximum in the units QGIS draws (the band's scale and offset applied).

    Catalogs disagree on what raster:bands statistics count: raw stored values (Planet: 1962..32925 for
    values drawn as 19.6..329) or the scaled ones (an int16 NDVI with scale 0.0001 stating -0.3..0.73).
    The reading that matches the values sampled from the file (`seen`, scaled) wins; without a sample,
    integral statistics spanning at least two counts are taken as raw."""
    if not isinstance(stats.get("minimum"), (int, float)) or not isinstance(stats.get("maximum"), (int, float)):
        return None
    low, high = sorted((float(stats["minimum"]), float(stats["maximum"])))
    scale = 1.0 if scale is None else scale
    offset = offset or 0.0
    if scale == 1.0 and offset == 0.0:
        return low, high
    scaled = tuple(sorted((low * scale + offset, high * scale + offset)))
    if seen is not None and seen[1] > seen[0]:
        span = seen[1] - seen[0]

        def miss(candidate: tuple[float, float]) -> float:
            return (abs(candidate[0] - seen[0]) + abs(candidate[1] - seen[1])) / span

        return scaled if miss(scaled) <= miss((low, high)) else (low, high)
    raw = low.is_integer() and high.is_integer() and high - low >= 2
    return scaled if raw else (low, high)


def sample_band(ds: Any, index: int, physical: bool = True) -> np.ndarray:
    """Values (scale/offset applied unless `physical` is False; NaN where nodata) of the whole band at
    QGIS's sample size; GDAL picks the overview, as it does for QGIS."""
    band = ds.GetRasterBand(index)
    cols, rows = ds.RasterXSize, ds.RasterYSize
    ratio = min(1.0, math.sqrt(SAMPLE_PIXELS / (cols * rows)))
    raw = band.ReadAsArray(0, 0, cols, rows, buf_xsize=max(1, int(cols * ratio)), buf_ysize=max(1, int(rows * ratio)))
    if raw is None:
        raise ToolInputError("GDAL could not read the raster; the file may be damaged or unreachable.")
    values = raw.astype(np.float64)
    invalid = ~np.isfinite(values)
    nodata = band.GetNoDataValue()
    if nodata is not None:
        invalid |= raw == nodata
    if physical:
        values = values * (band.GetScale() or 1.0) + (band.GetOffset() or 0.0)
    values[invalid] = np.nan
    return values


def _store_statistics(vrt_path: GdalName) -> None:
    """Approximate statistics (raw values, GDAL's convention) written into our VRT: QGIS opening the layer
    on the GUI thread then takes them instead of computing its own from the sources."""
    ds = gdal.Open(dataset(vrt_path), gdal.GA_Update)
    for i in range(1, ds.RasterCount + 1):
        values = sample_band(ds, i, physical=False)
        valid = values[np.isfinite(values)]
        if valid.size:
            band = ds.GetRasterBand(i)
            band.SetStatistics(float(valid.min()), float(valid.max()), float(valid.mean()), float(valid.std()))
            band.SetMetadataItem("STATISTICS_APPROXIMATE", "YES")
            band.SetMetadataItem("STATISTICS_VALID_PERCENT", f"{100.0 * valid.size / values.size:.3f}")
    ds.FlushCache()


def stretch_range(path: GdalName, band: int) -> tuple[float, float] | None:
    """The 2–98 % cut of one band from QGIS's sample size (worker thread); None when nothing is valid."""
    with gdal_exceptions():
        values = sample_band(gdal.Open(dataset(path)), band)
    valid = values[np.isfinite(values)]
    if not valid.size:
        return None
    low, high = np.percentile(valid, [2, 98])
    return float(low), float(high)


def _number(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}.get(value.lower(), value)
    return float(value)


def _slug(text: str) -> str:
    return safe_component(text, fallback="layer")  # catalog text: one safe path component (tools.output_names)
