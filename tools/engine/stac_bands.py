"""Band descriptions from STAC 1.0 (`eo:bands`, `raster:bands`) and STAC 1.1 (`bands`) fields.

STAC 1.1 lets fields common to every band (nodata, data_type, raster:scale…) sit on the asset itself, and a
single-band asset may carry its band's fields (eo:common_name, statistics) there with no `bands` at all."""

from __future__ import annotations

from typing import Any, Mapping

_ASSET_LEVEL_BAND = ("eo:common_name", "eo:center_wavelength", "statistics", "raster:scale", "raster:offset")


def asset_bands(asset: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One dict per band: name, common_name, nodata, scale, offset, data_type, statistics (when known)."""
    eo = asset.get("eo:bands") or []
    raster = asset.get("raster:bands") or []
    unified = asset.get("bands") or []
    count = max(len(eo), len(raster), len(unified))
    if not count and any(k in asset for k in _ASSET_LEVEL_BAND):
        count = 1  # STAC 1.1: one band described on the asset itself
    single = count == 1
    bands = []
    for i in range(count):
        e = eo[i] if i < len(eo) else {}
        r = raster[i] if i < len(raster) else {}
        u = unified[i] if i < len(unified) else {}
        a = asset if single else {}  # band fields on the asset describe its band only when it has one
        band = {
            "name": u.get("name") or e.get("name") or r.get("name"),
            "common_name": _first(u.get("eo:common_name"), e.get("common_name"), a.get("eo:common_name")),
            "description": u.get("description") or e.get("description") or r.get("description"),
            "nodata": _first(u.get("nodata"), r.get("nodata"), asset.get("nodata")),
            "scale": _first(u.get("raster:scale"), r.get("scale"), asset.get("raster:scale")),
            "offset": _first(u.get("raster:offset"), r.get("offset"), asset.get("raster:offset")),
            "data_type": _first(u.get("data_type"), r.get("data_type"), asset.get("data_type")),
            "center_wavelength": _first(u.get("eo:center_wavelength"), e.get("center_wavelength"),
                                        a.get("eo:center_wavelength")),
            "statistics": _first(u.get("statistics"), r.get("statistics"), a.get("statistics")),
            "unit": _first(u.get("unit"), r.get("unit"), a.get("unit")),
        }
        bands.append({k: v for k, v in band.items() if v is not None})
    return bands


def _first(*values: Any) -> Any:
    for value in values:
        if value is not None:
            return value
    return None
