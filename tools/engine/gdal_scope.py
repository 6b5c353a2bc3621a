"""GDAL's Python exception mode, switched on only around the plugin's own GDAL calls.

`gdal.UseExceptions()` at import would change the mode for QGIS and every other plugin in the process.
On GDAL >= 3.7 each module's `ExceptionMgr` sets the mode for the calling thread only. GDAL 3.6 keeps one
process-wide flag per module (gdal, ogr, osr): the first scope to enter saves the flags and the last one
to leave restores them, so scopes overlapping in several worker threads neither cut each other short nor
leave exceptions switched on; while a scope is open there, other threads see exceptions on too (3.6 has no
per-thread mode). Code inside a scope still checks for None results, as another plugin may change the 3.6
flag meanwhile. Verified: GDAL 3.6.2 here, and GDAL 3.10.3 (Debian trixie) for the per-thread path.

Inside the scope GDAL's own messages (a warning naming a signed URL, `…&sig=…`) go to a handler pushed for this
thread only (`gdal_messages`): to the plugin's log, secrets redacted, never to stderr (CPLDefaultErrorHandler)
or QGIS's log; an error leaving the scope has its secrets redacted too. QGIS and other threads keep their handler.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from typing import Iterator

from osgeo import gdal, ogr, osr

from ...agent.redaction import redacted

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
    """GDAL, OGR and OSR raise RuntimeError inside the block (its text redacted), GDAL's messages go to the
    plugin's log (`gdal_messages`); the caller's mode is back afterwards."""
    with gdal_messages():
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


@contextlib.contextmanager
def gdal_messages() -> Iterator[None]:
    """GDAL's warnings and errors raised on this thread inside the block are logged here with their secrets
    redacted (a handler pushed for this thread only), instead of printed by GDAL's default handler."""
    gdal.PushErrorHandler(_log_gdal_message)
    try:
        yield
    except RuntimeError as exc:  # GDAL's error, in exception mode: its text names the URL it failed on
        text = redacted(str(exc))
        if text != str(exc):
            raise RuntimeError(text) from None
        raise
    finally:
        gdal.PopErrorHandler()


_LEVELS = {gdal.CE_Debug: logging.DEBUG, gdal.CE_Warning: logging.INFO}  # failures: raised, or told by the caller


def _log_gdal_message(error_class: int, number: int, message: str) -> None:
    log.log(_LEVELS.get(error_class, logging.DEBUG), "GDAL %s %d: %s",
            "warning" if error_class == gdal.CE_Warning else "message", number, redacted(str(message)))


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
