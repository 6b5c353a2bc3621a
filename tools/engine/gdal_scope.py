"""GDAL's Python exception mode, switched on only around the plugin's own GDAL calls.

`gdal.UseExceptions()` at import would change the mode for QGIS and every other plugin in the process.
On GDAL >= 3.7 each module's `ExceptionMgr` sets the mode for the calling thread only. GDAL 3.6 keeps one
process-wide flag per module (gdal, ogr, osr): the first scope to enter saves the flags and the last one
to leave restores them, so scopes overlapping in several worker threads neither cut each other short nor
leave exceptions switched on; while a scope is open there, other threads see exceptions on too (3.6 has no
per-thread mode). Code inside a scope still checks for None results, as another plugin may change the 3.6
flag meanwhile. Verified: GDAL 3.6.2 here, and GDAL 3.10.3 (Debian trixie) for the per-thread path.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from typing import Iterator

from osgeo import gdal, ogr, osr

log = logging.getLogger(__name__)

_MODULES = (gdal, ogr, osr)
_lock = threading.Lock()
_depth = 0
_saved: list[int] = []


def thread_local_mode() -> bool:
    """True when this GDAL can scope the mode to one thread (GDAL >= 3.7)."""
    return all(hasattr(module, "ExceptionMgr") for module in _MODULES)


@contextlib.contextmanager
def gdal_exceptions() -> Iterator[None]:
    """GDAL, OGR and OSR raise RuntimeError inside the block; the caller's mode is back afterwards."""
    if thread_local_mode():
        with contextlib.ExitStack() as stack:
            for module in _MODULES:
                stack.enter_context(module.ExceptionMgr(useExceptions=True))
            yield
        return
    _enter()
    try:
        yield
    finally:
        _leave()


def _enter() -> None:
    global _depth
    with _lock:
        if _depth == 0:
            _saved[:] = [module.GetUseExceptions() for module in _MODULES]
            for module in _MODULES:
                module.UseExceptions()
        _depth += 1


def _leave() -> None:
    global _depth
    with _lock:
        _depth -= 1
        if _depth == 0:  # GDAL 3.6 stacks the modules' error handlers: pop them in reverse order
            for module, used in reversed(list(zip(_MODULES, _saved))):
                if not used:
                    try:
                        module.DontUseExceptions()
                    except RuntimeError as exc:  # someone pushed a handler meanwhile; theirs stays on top
                        log.warning("could not restore GDAL's error mode for %s: %s", module.__name__, exc)
