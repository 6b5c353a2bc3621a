"""Band descriptions from STAC 1.0 (`eo:bands`, `raster:bands`) and STAC 1.1 (`bands`) fields, and from the
0.8/0.9 layout, which describes the bands once in the item's properties and refers to them by index.

STAC 1.1 lets fields common to every band (nodata, data_type, raster:scale…) sit on the asset itself, and a
single-band asset may carry its band's fields (eo:common_name, statistics) there with no `bands` at all."""

from __future__ import annotations

import copy
from typing import Any, Mapping, Sequence

_ASSET_LEVEL_BAND = ("eo:common_name", "eo:center_wavelength", "statistics", "raster:scale", "raster:offset")
_RASTER_SUFFIXES = (".tif", ".tiff", ".jp2", ".img")


def asset_bands(asset: Mapping[str, Any], item_bands: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """One dict per band: name, common_name, nodata, scale, offset, data_type, statistics (when known).

    A 0.8/0.9 asset lists its bands as indices into the item's `eo:bands` (`item_bands`); an index that
    cannot be read there (or anything else that is not a band object) is a band described by nothing."""
    eo = _band_objects(asset.get("eo:bands"), item_bands)
    raster = _band_objects(asset.get("raster:bands"), ())
    unified = _band_objects(asset.get("bands"), ())
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


def _band_objects(bands: Any, item_bands: Sequence[Any]) -> list[dict[str, Any]]:
    if not isinstance(bands, list):
        return []
    out = []
    for band in bands:
        if isinstance(band, int) and not isinstance(band, bool) and 0 <= band < len(item_bands):
            band = item_bands[band]
        out.append(dict(band) if isinstance(band, Mapping) else {})
    return out


def is_pre_1_0(doc: Mapping[str, Any]) -> bool:
    return str(doc.get("stac_version") or "").startswith("0.")


def upgraded_item(item: Mapping[str, Any]) -> dict[str, Any]:
    """The item with its 0.8/0.9 band layout in the 1.0 form; a 1.0 or later item is returned unchanged."""
    if not is_pre_1_0(item):
        return dict(item)
    item = copy.deepcopy(dict(item))
    bands = (item.get("properties") or {}).get("eo:bands")
    if not isinstance(bands, list) or not bands:
        return item
    assets = item.get("assets") or {}
    for asset in assets.values():
        refs = asset.get("eo:bands")
        if isinstance(refs, list) and refs and all(isinstance(i, int) and 0 <= i < len(bands) for i in refs):
            asset["eo:bands"] = [bands[i] for i in refs]  # 0.8/0.9: indices into properties' eo:bands
    unbanded = [a for a in assets.values() if not a.get("eo:bands") and _looks_raster(a)]
    if len(unbanded) == 1 and not any(isinstance(a.get("eo:bands"), list) and a["eo:bands"] for a in assets.values()):
        unbanded[0]["eo:bands"] = list(bands)  # the one image of the item holds every band it lists
    return item


def _looks_raster(asset: Mapping[str, Any]) -> bool:
    href = str(asset.get("href") or "").lower().split("?")[0]
    kind = str(asset.get("type") or "").lower()
    roles = asset.get("roles") or []
    return ("thumbnail" not in roles and "overview" not in roles
            and (href.endswith(_RASTER_SUFFIXES) or "tiff" in kind or "jp2" in kind))


def _first(*values: Any) -> Any:
    for value in values:
        if value is not None:
            return value
    return None
