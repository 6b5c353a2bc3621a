"""The one environment every plugin read of a raster runs in: GDAL's options, how a dataset is opened, and
how many pixels a read may hold.

Options are thread-local (`gdal.SetThreadLocalConfigOption`), set around each read and put back after, so
QGIS, other plugins and reads on other threads never see them. A catalog's credentials are not among them:
they are scoped to the asset's path (`tools/stac/access.py`). Used by the single-raster reads
(`raster_reads`, in GDAL's exception mode) and the per-item reads of collection statistics (`stats_worker`,
which also runs on Dask workers and so checks both error modes). A local file is opened with its sidecars
(.aux.xml, world files), as QGIS opens it, so the tools describe it where QGIS draws it; a remote one without.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, Mapping

from osgeo import gdal

from .gdal_names import dataset

READ_OPTIONS = {
    "GDAL_DISABLE_READDIR_ON_OPEN": "EMPTY_DIR",  # no listing of a remote folder to find side-car files
    "GDAL_HTTP_MAX_RETRY": "2", "GDAL_HTTP_RETRY_DELAY": "0.5",  # a dropped connection is tried again, briefly
    "GDAL_HTTP_MULTIPLEX": "YES", "GDAL_HTTP_VERSION": "2TLS",  # HTTP/2 over TLS: block reads share one connection
    # GDAL's cache of remote chunks already keeps a block read twice; VSI_CACHE=TRUE would add a layer that fetches
    # 32 kB where 16 kB suffice at every open (bench/bench_gdal_reads.py counts it at the server on each GDAL)
    "VSI_CACHE": "FALSE",
}

OVERVIEW_PIXELS = 65_536  # overview mode reads at most about this many pixels over the area (256 × 256)
# full resolution (exact=true) reads at most this many pixels of one raster, or of one date's mosaic: 4,000 × 4,000,
# a 40 km square at 10 m; beyond it, the read would hold QGIS's memory hostage (bands, masks and index in memory)
MAX_EXACT_PIXELS = 16_000_000


@contextlib.contextmanager
def thread_options(options: Mapping[str, str]) -> Iterator[None]:
    """GDAL config `options` on this thread only while the block runs; the thread's previous values are back after
    (never gdal.SetConfigOption: other plugins' reads would feel it)."""
    previous = {key: gdal.GetThreadLocalConfigOption(key, None) for key in options}
    for key, value in options.items():
        gdal.SetThreadLocalConfigOption(key, value)
    try:
        yield
    finally:
        for key, value in previous.items():
            gdal.SetThreadLocalConfigOption(key, value)


def read_options(options: Mapping[str, str] | None = None) -> contextlib.AbstractContextManager[None]:
    """READ_OPTIONS, then `options` over them, on this thread only; the thread's previous values are back after."""
    return thread_options({**READ_OPTIONS, **(options or {})})


REMOTE_PREFIXES = ("/vsicurl", "/vsis3", "/vsigs", "/vsiaz", "/vsiadls", "/vsioss", "/vsiswift", "/vsiwebhdfs",
                   "/vsihdfs", "http://", "https://", "ftp://")


def is_remote(path: str) -> bool:
    return any(prefix in path.lower() for prefix in REMOTE_PREFIXES)  # also /vsizip//vsicurl/… and the like


@contextlib.contextmanager
def _sidecars_of_local_files(path: str) -> Iterator[None]:
    """A local raster is opened with its sidecars (.aux.xml, .tfw, .prj), as QGIS draws it: a sidecar may move it.
    TRUE probes each sidecar without listing the folder; EMPTY_DIR (remote reads) ignores them, saving requests."""
    if is_remote(path):
        yield
        return
    previous = gdal.GetThreadLocalConfigOption("GDAL_DISABLE_READDIR_ON_OPEN", None)
    gdal.SetThreadLocalConfigOption("GDAL_DISABLE_READDIR_ON_OPEN", "TRUE")
    try:
        yield
    finally:
        gdal.SetThreadLocalConfigOption("GDAL_DISABLE_READDIR_ON_OPEN", previous)


def open_dataset(path: str) -> Any:
    """The raster at `path`, in either GDAL error mode; OSError with GDAL's reason when it cannot be opened."""
    try:
        with _sidecars_of_local_files(path):
            ds = gdal.Open(dataset(path))  # a name only tools/engine/gdal_names.py makes
    except RuntimeError as exc:
        raise OSError(f"GDAL cannot open '{path}': {str(exc)[:200]}") from None
    if ds is None:  # exceptions off (a Dask worker, or another plugin switched GDAL 3.6's process-wide mode back)
        raise OSError(f"GDAL cannot open '{path}': {gdal.GetLastErrorMsg()[:200] or 'unreadable'}")
    return ds
