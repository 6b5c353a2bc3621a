"""Which asset and band of a STAC item holds each band an index needs (or the asset asked for), and which
classification asset masks clouds: STAC 1.1 `bands` and 1.0 `eo:bands`/`raster:bands`, with the
collection's `item_assets` filling in what items leave out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ..common import ToolInputError
from .gdal_names import from_href
from .index_formulas import ALIASES, INDICES, SpectralIndex, index_named
from .stac_bands import asset_bands, upgraded_item
from .stats_worker import BandRef

# Sentinel-2 scene classification: no data, saturated, cloud shadow, cloud medium/high, thin cirrus
SCL_EXCLUDED = (0, 1, 3, 8, 9, 10)
SCL_NO_DATA = (0,)  # of those, the class that says the tile has no data there (not a cloud)
NO_DATA_WORDS = ("no_data", "nodata", "no data")
CLOUDY_WORDS = ("cloud", "shadow", "cirrus", "no_data", "nodata", "saturated", "defective")


PlanRead = Callable[[str], "tuple[str, dict]"]  # href -> (GDAL path, read options): the catalog's credentials


def public_read(href: str) -> tuple[str, dict]:
    """A read with no catalog credentials (tests, public data)."""
    return from_href(href), {}


@dataclass(frozen=True)
class ItemBands:
    bands: dict[str, BandRef]
    options: dict[str, str]  # thread-local GDAL options for the item's reads
    reads: tuple  # every read's options (tools.stac.gdal_reads.ReadOptions): prepared before reading
    described: str  # "nir = B08 (band 1), red = B04 (band 1)" for legends and answers
    mask: BandRef | None = None
    mask_classes: tuple[int, ...] = ()
    mask_asset: str = ""
    mask_no_data: tuple[int, ...] = ()  # classes of the mask meaning "no data here", not a cloud


def pick_index(name: str) -> SpectralIndex:
    index = index_named(name)
    if index is None:
        raise ToolInputError(f"Unknown index '{name}'. Known indices: {', '.join(INDICES)}.")
    return index


def merged_assets(item: Mapping[str, Any], item_assets: Mapping[str, Any] | None) -> dict[str, dict]:
    """The item's assets, each completed by the collection's item_assets entry of the same key."""
    merged = {}
    for key, asset in (item.get("assets") or {}).items():
        base = dict((item_assets or {}).get(key) or {})
        base.update(asset)
        merged[key] = base
    return merged


def band_table(assets: Mapping[str, dict]) -> dict[str, tuple[str, int, dict]]:
    """common name (and asset key) -> (asset key, 1-based band, band description)."""
    table: dict[str, tuple[str, int, dict]] = {}
    for key, asset in assets.items():
        if not _is_raster(asset):
            continue
        bands = asset_bands(asset)
        for i, band in enumerate(bands, start=1):
            common = band.get("common_name")
            if common and common not in table:
                table[common] = (key, i, band)
        if len(bands) <= 1 and key.lower() not in table:  # earth-search style keys: "red", "nir", "swir16"
            table.setdefault(key.lower(), (key, 1, bands[0] if bands else {}))
    return table


def resolve_bands(item: Mapping[str, Any], item_assets: Mapping[str, Any] | None, *, index: str | None,
                  asset: str | None, plan: PlanRead = public_read, mask_clouds: bool = True) -> ItemBands:
    item = upgraded_item(item)  # 0.8/0.9: bands by index into the item's properties, read as 1.0
    assets = merged_assets(item, item_assets)
    refs: dict[str, BandRef] = {}
    reads: list = []
    described = []
    if index:
        spec = pick_index(index)
        table = band_table(assets)
        for name in spec.bands:
            found = next((table[a] for a in ALIASES.get(name, (name,)) if a in table), None)
            if found is None:
                have = ", ".join(f"{c} ({k})" if c != k.lower() else c for c, (k, _, _) in sorted(table.items()))
                raise ToolInputError(
                    f"Item '{item.get('id')}' has no '{name}' band, which {spec.name} = {spec.formula} needs. "
                    f"Bands it has (common name (asset)): {have or 'none declared'}. Pick an index these bands allow.")
            key, number, band = found
            refs[name] = _ref(assets[key], number, band, plan, reads)
            described.append(f"{name} = {key}" + (f" band {number}" if number > 1 else ""))
    else:
        if not asset or asset not in assets:
            keys = ", ".join(k for k, a in assets.items() if _is_raster(a))
            raise ToolInputError(f"Item '{item.get('id')}' has no asset '{asset}'; give an index or one of: {keys}.")
        bands = asset_bands(assets[asset])
        refs["value"] = _ref(assets[asset], 1, bands[0] if bands else {}, plan, reads)
        described.append(asset)
    mask_ref, classes, mask_key, no_data = None, (), "", ()
    found = _cloud_mask(assets) if mask_clouds else None
    if found is not None:
        mask_key, classes, no_data = found
        mask_ref = _ref(assets[mask_key], 1, {}, plan, reads)
    options = {k: v for r in reads for k, v in {**dict(r), **_public_prefix_options(r)}.items()}
    return ItemBands(refs, options, tuple(reads), ", ".join(described), mask_ref, classes, mask_key, no_data)


def _ref(asset: dict, number: int, band: dict, plan: PlanRead, reads: list) -> BandRef:
    path, options = plan(asset["href"])
    reads.append(options)
    return BandRef(path, number, _num(band.get("scale")), _num(band.get("offset")), _num(band.get("nodata")))


def _cloud_mask(assets: Mapping[str, dict]) -> tuple[str, tuple[int, ...], tuple[int, ...]] | None:
    """(asset key, excluded classes, of those the no-data ones) of the item's classification asset."""
    for key in assets:
        if key.lower() == "scl":
            return key, SCL_EXCLUDED, SCL_NO_DATA
    for key, asset in assets.items():
        classes = asset.get("classification:classes") or next(
            (b.get("classification:classes") for b in asset.get("raster:bands") or asset.get("bands") or []
             if b.get("classification:classes")), None)
        if classes:
            bad = _classes_named(classes, CLOUDY_WORDS)
            if bad:
                return key, bad, _classes_named(classes, NO_DATA_WORDS)
    return None


def _classes_named(classes: list[dict], words: tuple[str, ...]) -> tuple[int, ...]:
    """The values of the classes whose name or description holds one of `words`."""
    return tuple(int(c["value"]) for c in classes
                 if any(w in f"{c.get('name', '')} {c.get('description', '')}".lower() for w in words))


def _is_raster(asset: Mapping[str, Any]) -> bool:
    media = str(asset.get("type") or "").lower()
    roles = asset.get("roles") or []
    if "thumbnail" in roles or "overview" in roles or "metadata" in roles:
        return False
    return "tiff" in media or "jp2" in media or (not media and str(asset.get("href", "")).lower().endswith(
        (".tif", ".tiff", ".jp2")))


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


SECRET_KEYS = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN")


def _public_prefix_options(read: Any) -> dict[str, str]:
    """A bucket's settings that are not secrets (unsigned, region, requester pays): also usable on Dask workers."""
    return {k: v for k, v in (getattr(read, "prefix_options", None) or {}).items() if k not in SECRET_KEYS}


def needs_credentials(reads: Any) -> bool:
    """Whether any read carries a catalog's credentials (header files, keys), which stay on this machine."""
    return any(getattr(r, "files", None) or any(k in (getattr(r, "prefix_options", None) or {}) for k in SECRET_KEYS)
               for r in reads)
