"""Band descriptions from STAC 1.0 (`eo:bands`, `raster:bands`) and STAC 1.1 (`bands`) fields."""

from __future__ import annotations

from typing import Any, Mapping


def asset_bands(asset: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One dict per band: name, common_name, nodata, scale, offset, data_type (when known)."""
    eo = asset.get("eo:bands") or []
    raster = asset.get("raster:bands") or []
    unified = asset.get("bands") or []
    count = max(len(eo), len(raster), len(unified))
    bands = []
    for i in range(count):
        e = eo[i] if i < len(eo) else {}
        r = raster[i] if i < len(raster) else {}
        u = unified[i] if i < len(unified) else {}
        band = {
            "name": u.get("name") or e.get("name") or r.get("name"),
            "common_name": u.get("eo:common_name") or e.get("common_name"),
            "description": u.get("description") or e.get("description") or r.get("description"),
            "nodata": _first(u.get("nodata"), r.get("nodata"), asset.get("nodata")),
            "scale": _first(u.get("raster:scale"), r.get("scale")),
            "offset": _first(u.get("raster:offset"), r.get("offset")),
            "data_type": _first(u.get("data_type"), r.get("data_type"), asset.get("data_type")),
            "center_wavelength": _first(u.get("eo:center_wavelength"), e.get("center_wavelength")),
        }
        bands.append({k: v for k, v in band.items() if v is not None})
    return bands


def _first(*values: Any) -> Any:
    for value in values:
        if value is not None:
            return value
    return None
