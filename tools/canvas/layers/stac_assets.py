"""Which asset(s) of a STAC item to show and how: a visual asset, red/green/blue stacked, or one band.

Pure data (no QGIS, no GDAL): item JSON in, plain choices out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from ...common import ToolInputError
from ...engine.stac_bands import asset_bands
from ...stac.legacy import upgraded_item
from ...stac.summaries import asset_type
from ...stac.timeutil import item_times as property_times

RGB = ("red", "green", "blue")
_RASTER_HINTS = ("tiff", "geotiff", "jp2", "image/vnd", "x-hdf", "netcdf", "unknown")


@dataclass
class AssetChoice:
    item_id: str
    kind: str  # "visual" (one multiband asset), "rgb" (three assets stacked), "single" (one band)
    keys: list[str]
    hrefs: list[str]
    bands: list[dict[str, Any]]  # STAC band metadata per output band: nodata, scale, offset, statistics, names
    epsg: int | None = None
    start: str | None = None
    end: str | None = None
    classes: list[dict] = field(default_factory=list)  # classification:classes of a classified band
    paths: list[str] = field(default_factory=list)  # GDAL paths for `hrefs`, with the catalog's credentials
    bbox: list[float] | None = None  # lon/lat footprint bounds, to tell a time series from side-by-side tiles
    crs: str | None = None  # the catalog's CRS: "EPSG:32631" from proj:code/proj:epsg, or proj:wkt2 text


def item_times(item: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """The item's start and end (its range when it has one, else its instant twice)."""
    return property_times(item.get("properties") or {})


def item_epsg(item: Mapping[str, Any], asset: Mapping[str, Any] | None = None) -> int | None:
    """`proj:epsg`, or the number in projection v2's `proj:code` ("EPSG:32631"); asset level first."""
    for source in (asset or {}, item.get("properties") or {}):
        if isinstance(source.get("proj:epsg"), int):
            return source["proj:epsg"]
        code = str(source.get("proj:code") or "")
        if code.upper().startswith("EPSG:") and code[5:].isdigit():
            return int(code[5:])
    return None


def item_crs(item: Mapping[str, Any], asset: Mapping[str, Any] | None = None) -> str | None:
    """The CRS the catalog gives (asset level first): "EPSG:n" from proj:epsg/proj:code, else proj:wkt2."""
    epsg = item_epsg(item, asset)
    if epsg is not None:
        return f"EPSG:{epsg}"
    for source in (asset or {}, item.get("properties") or {}):
        code = source.get("proj:code")
        if isinstance(code, str) and ":" in code:  # another authority, e.g. "IAU_2015:30100"
            return code
        if isinstance(source.get("proj:wkt2"), str) and source["proj:wkt2"].strip():
            return source["proj:wkt2"]
        if isinstance(source.get("proj:projjson"), dict) and source["proj:projjson"]:
            return json.dumps(source["proj:projjson"])  # GDAL reads PROJJSON text like WKT
    return None


def choose_assets(item: Mapping[str, Any], asset_key: str | None = None) -> AssetChoice:
    item = upgraded_item(item)  # 0.8/0.9 band layout read as 1.0
    choice = _choose(item, asset_key)
    choice.crs = item_crs(item, (item.get("assets") or {}).get(choice.keys[0]))
    bbox = item.get("bbox")
    choice.bbox = [float(v) for v in bbox[:2] + bbox[-2:]] if isinstance(bbox, list) and len(bbox) >= 4 else None
    return choice


def _choose(item: Mapping[str, Any], asset_key: str | None) -> AssetChoice:
    assets: Mapping[str, Any] = item.get("assets") or {}
    item_id = str(item.get("id", "?"))
    start, end = item_times(item)
    if asset_key:
        if asset_key not in assets:
            raise ToolInputError(f"Item '{item_id}' has no asset '{asset_key}'. Its assets: {', '.join(assets) or 'none'}")
        return _one(item, asset_key, start, end)
    for key, asset in assets.items():
        if key == "visual" or "visual" in (asset.get("roles") or []):
            return _one(item, key, start, end)
    by_colour = {}
    for key, asset in assets.items():
        bands = asset_bands(asset)
        if len(bands) == 1 and bands[0].get("common_name") in RGB:
            by_colour.setdefault(bands[0]["common_name"], key)
    if all(c in by_colour for c in RGB):
        keys = [by_colour[c] for c in RGB]
        bands = [{**_band_meta(assets[k], k)[0], "colour": c} for k, c in zip(keys, RGB)]
        return AssetChoice(item_id, "rgb", keys, [assets[k]["href"] for k in keys], bands,
                           item_epsg(item, assets[keys[0]]), start, end)
    for key, asset in assets.items():  # one multi-band image with red, green and blue among its bands
        names = {b.get("common_name") for b in asset_bands(asset)}
        if asset.get("href") and all(c in names for c in RGB):
            return _one(item, key, start, end)
    for key, asset in assets.items():
        roles = asset.get("roles") or []
        if "data" in roles and any(h in asset_type(key, asset).lower() for h in _RASTER_HINTS):
            return _one(item, key, start, end)
    raise ToolInputError(f"Item '{item_id}' has no visual, red/green/blue or raster data asset. "
                         f"Its assets: {', '.join(assets) or 'none'}; name one with `asset`.")


def _one(item: Mapping[str, Any], key: str, start: str | None, end: str | None) -> AssetChoice:
    asset = item["assets"][key]
    if not asset.get("href"):
        raise ToolInputError(f"Asset '{key}' of item '{item.get('id')}' has no href.")
    bands = _band_meta(asset, key)
    names = [b.get("common_name") for b in bands]
    kind = "visual" if (key == "visual" or "visual" in (asset.get("roles") or [])
                        or (len(bands) >= 3 and all(c in names for c in RGB))) else "single"
    classes = asset.get("classification:classes") or ((asset.get("raster:bands") or [{}])[0] or {}).get(
        "classification:classes") or []
    return AssetChoice(str(item.get("id", "?")), kind, [key], [asset["href"]], bands, item_epsg(item, asset),
                       start, end, classes=list(classes))


def _band_meta(asset: Mapping[str, Any], key: str = "") -> list[dict[str, Any]]:
    bands = asset_bands(asset) or [{}]
    if len(bands) == 1 and not (bands[0].get("name") or bands[0].get("common_name")) and (asset.get("title") or key):
        bands[0]["name"] = str(asset.get("title") or key)  # the legend says "NDVI", not "Band 1 (Gray)"
    return bands


@dataclass
class TrueColour:
    bands: tuple[int, int, int]  # 1-based band numbers drawn as red, green, blue
    basis: str  # "common name", "band name" or "position"

    def words(self, names: list[str]) -> str:
        """'red = band 3 (red), green = band 2 (green), blue = band 1 (blue), by common name'."""
        parts = []
        for colour, number in zip(RGB, self.bands):
            name = names[number - 1] if number - 1 < len(names) and names[number - 1] else ""
            parts.append(f"{colour} = band {number}" + (f" ({name})" if name else ""))
        return ", ".join(parts) + f", by {self.basis}"


def true_colour_bands(bands: list[dict[str, Any]]) -> TrueColour:
    """Which bands to draw as red, green and blue: by STAC common_name, else by a band name that says the
    colour ('Red', 'red'), else the first three in order."""
    for basis, key in (("common name", "common_name"), ("band name", "name")):
        found = {}
        for number, band in enumerate(bands, start=1):
            value = str(band.get(key) or "").strip().lower()
            if value in RGB:
                found.setdefault(value, number)
        if all(c in found for c in RGB):
            return TrueColour((found["red"], found["green"], found["blue"]), basis)
    return TrueColour((1, 2, 3), "position")


def band_kind(choice: AssetChoice, collection: str = "") -> str:
    """What a single band measures, to pick its colour ramp: index, elevation, temperature, classes or other."""
    band = choice.bands[0] if choice.bands else {}
    text = " ".join(str(v) for v in (*choice.keys, band.get("name"), band.get("common_name"),
                                     band.get("description"), collection) if v).lower()
    if choice.classes or any(w in text for w in ("scl", "classif", "landcover", "land_cover", "land cover", "mask")):
        return "classes"
    if any(w in text for w in ("ndvi", "ndwi", "evi", "savi", "nbr", "index", "indices")):
        return "index"
    if any(w in text for w in ("elev", "dem", "dsm", "dtm", "height", "altitude", "terrain", "bathym")):
        return "elevation"
    if any(w in text for w in ("temp", "lst", "thermal", "brightness_temperature", "lwir")):
        return "temperature"
    return "other"


def split_time_series(choices: list[AssetChoice]) -> list[list[AssetChoice]]:
    """One group per acquisition day when items of different days cover the same ground (a time series to
    animate); otherwise one group, mosaicked side by side."""
    by_day: dict[str, list[AssetChoice]] = {}
    for choice in choices:
        by_day.setdefault((choice.start or "")[:10], []).append(choice)
    if len(by_day) < 2:
        return [choices]
    days = list(by_day.values())
    for i, first in enumerate(days):
        for second in days[i + 1:]:
            if any(_mostly_overlap(a.bbox, b.bbox) for a in first for b in second):
                return [by_day[day] for day in sorted(by_day)]
    return [choices]


def _mostly_overlap(a: list[float] | None, b: list[float] | None) -> bool:
    if not a or not b:
        return False
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    if width <= 0 or height <= 0:
        return False
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1])) or 1e-12
    return width * height / smaller > 0.5
