"""A cloud mask's samples as NO_SAMPLE / CLEAR / CLOUD codes straight from its integer classes, through a table
of every value the mask's type can hold: one byte a sample from the read, where a float copy of the samples and
the class tests over it held 7 bytes a sample (a full-resolution Sentinel-2 tile's 30 M SCL samples: 210 MB paged
in afresh for each item).

numpy only (it runs on Dask workers too).
"""

from __future__ import annotations

import functools

import numpy as np

from .date_stats import CLEAR, CLOUD, NO_SAMPLE

TABLE_TYPES = {1: 256, 2: 65_536}  # GDAL's Byte and UInt16: a table of all their values


@functools.lru_cache(maxsize=32)
def code_table(classes: tuple[int, ...], no_data: tuple[int, ...], nodata: float | None, data_type: int
               ) -> np.ndarray | None:
    """Each value's code (the excluded `classes` CLOUD, `no_data` classes and the file's nodata NO_SAMPLE, every
    other value CLEAR), indexed by the value; None for a type without a table (its samples go through floats)."""
    size = TABLE_TYPES.get(data_type)
    if size is None:
        return None
    table = np.full(size, CLEAR, np.uint8)
    table[[c for c in classes if 0 <= c < size and c not in no_data]] = CLOUD
    table[[c for c in no_data if 0 <= c < size]] = NO_SAMPLE
    if nodata is not None and float(nodata).is_integer() and 0 <= nodata < size:
        table[int(nodata)] = NO_SAMPLE
    table.flags.writeable = False  # shared by every read of this mask
    return table


def codes_of(samples: np.ndarray, classes: tuple[int, ...], no_data: tuple[int, ...]) -> np.ndarray:
    """The codes of float samples (NaN: no sample), for masks read without a table (warped, resampled)."""
    codes = np.full(samples.shape, CLEAR, np.uint8)
    codes[np.isin(samples, np.asarray([c for c in classes if c not in no_data], dtype=np.float32))] = CLOUD
    codes[np.isnan(samples) | np.isin(samples, np.asarray(no_data, dtype=np.float32))] = NO_SAMPLE
    return codes
