"""Compact views of STAC objects, sized for a small model's context."""

from __future__ import annotations

from typing import Any, Mapping

from ..common import ToolInputError
from ..engine.gdal_names import from_href
from ..engine.stac_bands import asset_bands
from .legacy import upgraded_item
from .untrusted import clip, envelope, is_free_text

_GUESSED_TYPES = {".tif": "image/tiff; application=geotiff", ".tiff": "image/tiff; application=geotiff",
                  ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png", ".json": "application/json",
                  ".geojson": "application/geo+json", ".xml": "application/xml", ".nc": "application/netcdf"}


def _round_bbox(bbox: Any) -> Any:
    return [round(v, 5) for v in bbox] if isinstance(bbox, (list, tuple)) else None


def collection_brief(c: Mapping[str, Any]) -> dict[str, Any]:
    """Id, extent: the facts. Its title and description are catalog text: see collection_text()."""
    extent = c.get("extent") or {}
    bbox = ((extent.get("spatial") or {}).get("bbox") or [None])[0]
    interval = ((extent.get("temporal") or {}).get("interval") or [None])[0]
    return {"id": c.get("id"), "bbox": _round_bbox(bbox), "interval": interval}


def collection_text(c: Mapping[str, Any], description_chars: int = 160) -> dict[str, str]:
    """A collection's free text, for the catalog-text envelope."""
    text = {"title": clip(c.get("title"), 120), "description": clip(c.get("description"), description_chars)}
    return {k: v for k, v in text.items() if v}


def asset_type(key: str, asset: Mapping[str, Any]) -> str:
    if asset.get("type"):
        return asset["type"]
    href = str(asset.get("href", "")).lower().split("?")[0]
    for ext, kind in _GUESSED_TYPES.items():
        if href.endswith(ext):
            return kind
    return "unknown"


def asset_detail(key: str, asset: Mapping[str, Any]) -> dict[str, Any]:
    href = str(asset.get("href", ""))
    detail = {"key": key, "type": asset_type(key, asset),
              "roles": asset.get("roles") or [], "href": href, "gdal_path": _gdal_path_shown(href),
              "bands": asset_bands(asset)}
    return {k: v for k, v in detail.items() if v not in (None, [], "")}


def _gdal_path_shown(href: str) -> str | None:
    """The name GDAL would read the asset by, as a tool shows it; None when the plugin would not read it."""
    try:
        return str(from_href(href)) if href else None
    except ToolInputError:
        return None


def item_brief(item: Mapping[str, Any]) -> dict[str, Any]:
    props = item.get("properties") or {}
    brief = {"id": item.get("id"), "collection": item.get("collection"), "datetime": props.get("datetime"),
             "bbox": _round_bbox(item.get("bbox")), "assets": sorted((item.get("assets") or {}).keys())}
    if not props.get("datetime") or props.get("start_datetime") or props.get("end_datetime"):
        brief["start_datetime"] = props.get("start_datetime")
        brief["end_datetime"] = props.get("end_datetime")
    if "eo:cloud_cover" in props:
        brief["cloud_cover"] = props["eo:cloud_cover"]
    return brief


def item_detail(item: Mapping[str, Any]) -> dict[str, Any]:
    item = upgraded_item(item)  # 0.8/0.9 band layout read as 1.0
    props = item.get("properties") or {}
    scalars = {k: v for k, v in props.items() if isinstance(v, (str, int, float, bool))}
    assets = item.get("assets") or {}
    titles = {k: clip(a.get("title"), 120) for k, a in assets.items() if a.get("title")}
    return {"id": item.get("id"), "collection": item.get("collection"), "stac_version": item.get("stac_version"),
            "bbox": _round_bbox(item.get("bbox")),
            "properties": {k: v for k, v in scalars.items() if not is_free_text(v)},
            "assets": [asset_detail(k, a) for k, a in assets.items()],
            "catalog_text": envelope(properties={k: clip(v) for k, v in scalars.items() if is_free_text(v)},
                                     asset_titles=titles)}


def collection_detail(c: Mapping[str, Any]) -> dict[str, Any]:
    brief = collection_brief(c)
    item_assets = c.get("item_assets") or {}
    summaries = c.get("summaries") or {}
    bands = asset_bands({"eo:bands": summaries.get("eo:bands") or [], "bands": summaries.get("bands") or [],
                         "raster:bands": summaries.get("raster:bands") or []})
    compact_summaries = {k: (v if len(str(v)) < 200 else str(v)[:200] + "…") for k, v in summaries.items()
                         if k not in ("eo:bands", "bands", "raster:bands")}
    text = collection_text(c, 600)
    keywords = [clip(k, 40) for k in c.get("keywords") or []][:20]
    providers = [clip(p.get("name"), 80) for p in c.get("providers") or [] if isinstance(p, dict)]
    return {**brief, "license": c.get("license"), "summaries": compact_summaries, "bands": bands,
            "item_assets": [{"key": k, "type": asset_type(k, a), "roles": a.get("roles") or [],
                             "bands": asset_bands(a)} for k, a in item_assets.items()],
            "catalog_text": envelope(**text, keywords=keywords, providers=providers,
                                     asset_titles={k: clip(a.get("title"), 120) for k, a in item_assets.items()
                                                   if a.get("title")})}
