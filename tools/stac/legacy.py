"""STAC documents older than 1.0 (0.8, 0.9) read as 1.0: bands described once in the item's properties
(`eo:bands`) and referred to by index from assets, or not at all, are put on the assets that hold them."""

from __future__ import annotations

import copy
from typing import Any, Mapping

_RASTER_SUFFIXES = (".tif", ".tiff", ".jp2", ".img")


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
