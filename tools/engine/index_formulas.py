"""Spectral indices from band common names: formulas, the bands they need, how to draw them.

numpy only, so the same definitions run in QGIS's process and on Dask workers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

# STAC common names each index band may come from, preferred first (Sentinel-2 B08 is "nir", B8A "nir08").
ALIASES = {"nir": ("nir", "nir08", "nir09"), "swir16": ("swir16", "swir1"), "swir22": ("swir22", "swir2"),
           "blue": ("blue",), "green": ("green",), "red": ("red",)}


@dataclass(frozen=True)
class SpectralIndex:
    name: str
    title: str
    bands: tuple[str, ...]  # common names, in the formula's order
    formula: str  # as the legend shows it
    ramp: str  # QGIS colour ramp: diverging, centred on 0
    invert_ramp: bool
    range: tuple[float, float]  # the values the index can take, for the legend


STRIP_VALUES = 65_536  # a strip's sum: 256 kB, in cache


def _normalised(a: np.ndarray, b: np.ndarray, in_place: bool = False) -> np.ndarray:
    """(a − b) / (a + b); `in_place`: into `a` (the caller's own array, not needed after)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if not in_place or a.ndim != 2 or b.shape != a.shape or b.dtype != a.dtype:
            total = a + b
            difference = np.subtract(a, b, out=a if in_place else None)
            return np.divide(difference, total, out=difference)
        # in place, a strip of rows at a time: the sum in one small array, no window-sized one paged in afresh
        rows = max(1, STRIP_VALUES // max(1, a.shape[1]))
        total = np.empty((rows, a.shape[1]), a.dtype)
        for top in range(0, a.shape[0], rows):
            strip_a, strip_b = a[top:top + rows], b[top:top + rows]
            strip_total = total[:strip_a.shape[0]]
            np.add(strip_a, strip_b, out=strip_total)
            np.subtract(strip_a, strip_b, out=strip_a)
            np.divide(strip_a, strip_total, out=strip_a)
        return a


def _evi(b: dict[str, np.ndarray]) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return 2.5 * (b["nir"] - b["red"]) / (b["nir"] + 6.0 * b["red"] - 7.5 * b["blue"] + 1.0)


def _savi(b: dict[str, np.ndarray]) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return 1.5 * (b["nir"] - b["red"]) / (b["nir"] + b["red"] + 0.5)


INDICES: dict[str, SpectralIndex] = {i.name: i for i in (
    SpectralIndex("NDVI", "Normalised difference vegetation index", ("nir", "red"), "(nir − red) / (nir + red)",
                  "RdYlGn", False, (-1.0, 1.0)),
    SpectralIndex("NDWI", "Normalised difference water index (McFeeters)", ("green", "nir"),
                  "(green − nir) / (green + nir)", "RdBu", False, (-1.0, 1.0)),
    SpectralIndex("NDMI", "Normalised difference moisture index", ("nir", "swir16"),
                  "(nir − swir16) / (nir + swir16)", "RdBu", False, (-1.0, 1.0)),
    SpectralIndex("NBR", "Normalised burn ratio", ("nir", "swir22"), "(nir − swir22) / (nir + swir22)",
                  "RdYlGn", False, (-1.0, 1.0)),
    SpectralIndex("NDSI", "Normalised difference snow index", ("green", "swir16"),
                  "(green − swir16) / (green + swir16)", "RdBu", False, (-1.0, 1.0)),
    SpectralIndex("NDBI", "Normalised difference built-up index", ("swir16", "nir"),
                  "(swir16 − nir) / (swir16 + nir)", "RdYlGn", True, (-1.0, 1.0)),
    SpectralIndex("EVI", "Enhanced vegetation index", ("nir", "red", "blue"),
                  "2.5 × (nir − red) / (nir + 6 × red − 7.5 × blue + 1)", "RdYlGn", False, (-1.0, 1.0)),
    SpectralIndex("SAVI", "Soil-adjusted vegetation index (L = 0.5)", ("nir", "red"),
                  "1.5 × (nir − red) / (nir + red + 0.5)", "RdYlGn", False, (-1.5, 1.5)),
)}

_PAIRS = {"NDVI": ("nir", "red"), "NDWI": ("green", "nir"), "NDMI": ("nir", "swir16"), "NBR": ("nir", "swir22"),
          "NDSI": ("green", "swir16"), "NDBI": ("swir16", "nir")}  # the normalised differences: (a − b) / (a + b)
_FORMULAS: dict[str, Callable[[dict[str, np.ndarray]], np.ndarray]] = {"EVI": _evi, "SAVI": _savi}


def index_named(name: str) -> SpectralIndex | None:
    return INDICES.get(name.strip().upper())


def evaluate(name: str, bands: dict[str, np.ndarray], in_place: bool = False) -> np.ndarray:
    """The index from reflectances (scale/offset applied, NaN where invalid); NaN where undefined. `in_place`: the
    bands' arrays are the caller's own and not needed after (a normalised difference is computed in one of them:
    a full-resolution window's array fewer paged in)."""
    if name in _PAIRS:
        a, b = _PAIRS[name]
        values = _normalised(bands[a], bands[b], in_place and bands[a].dtype == np.float32 and a != b)
    else:
        values = _FORMULAS[name](bands)
    values = values.astype(np.float32, copy=False)
    values[~np.isfinite(values)] = np.nan
    return values
