"""What an analysis read, recorded so that someone else can repeat it from the record alone (issue 42.9): every
item id, the bands and the cloud mask read, the area as a lon/lat geometry (and the layer and feature ids it was
taken from), the dates, the resolution and the options, and the call that repeats it — the same tool with the
area given as that geometry, so it needs neither this project nor its selection. Plain data, in and out."""

from __future__ import annotations

from typing import Any

OPTION_KEYS = ("group_by", "exact", "mask_clouds", "max_cloud_cover", "index", "asset", "item_id")


def mask_read(bands: Any) -> dict[str, Any] | None:
    """The cloud mask an item's reads used (engine.index_bands.ItemBands): its asset and the classes left out."""
    if getattr(bands, "mask", None) is None:
        return None
    return {"asset": bands.mask_asset, "classes_excluded": [int(c) for c in bands.mask_classes],
            "no_data_classes": [int(c) for c in getattr(bands, "mask_no_data", ())]}


def analysis_record(tool: str, arguments: dict[str, Any], *, catalog: str, catalog_url: str, collection: str,
                    datetime: str | None,
                    items: list[str], bands: str, mask: dict[str, Any] | None, area: dict[str, Any] | None,
                    selected: list[dict[str, Any]] | None, resolution: str, grid_crs: str) -> dict[str, Any]:
    """The record; `arguments` are the call's own (as the tool received them)."""
    repeat = {k: v for k, v in arguments.items() if v is not None and k not in ("use_selected_features", "ctx")}
    repeat["catalog"] = catalog
    if datetime:
        repeat["datetime"] = datetime
    if selected:  # the selection becomes the geometry it was: the call no longer depends on this project
        repeat.pop("bbox", None)
        repeat["polygon"] = area
    return {"tool": tool, "catalog": catalog, "catalog_url": catalog_url, "collection": collection, "datetime": datetime,
            "items": list(items), "bands": bands, "cloud_mask": mask,
            "area": {"geometry": area, "selected": selected or []},
            "resolution": resolution, "grid_crs": grid_crs,
            "options": {k: arguments[k] for k in OPTION_KEYS if arguments.get(k) is not None},
            "repeat": {"tool": tool, "arguments": repeat}}
