"""Keeps fresh the SAS tokens that QGIS's renderers sign with, for the layers of catalogs that have their own
token endpoint (Planetary-Computer style). GDAL 3.6 takes the endpoint only from its process-wide config,
which the plugin never sets, and renews a collection's token a minute before it expires: left alone, a
layer on the map past its token's life (or reopened with a saved project) would be signed by GDAL's default
endpoint, the public one, and go blank. Every `RENEW_EVERY_S` the keeper finds the project's layers read with
such a catalog's signing (on the GUI thread: source strings only) and, in a worker, asks GDAL for one signed
request per collection with the catalog's endpoint as that thread's option (gdal_reads.ReadOptions).

What is left: a renderer request in the seconds between GDAL's renewal point and the keeper's next turn is
signed by the default endpoint (that tile fails; the next redraw is signed again)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any, Callable, Iterable
from urllib.parse import parse_qsl

from .access import CatalogSecrets
from .gdal_reads import SAS_KEYS, ReadOptions, plan_read

log = logging.getLogger(__name__)

RENEW_EVERY_S = 20.0
MAX_VRT_BYTES = 4_000_000  # a mosaic's VRT lists its items' paths; larger files are not read for this
SIGNED_PREFIX = "/vsicurl?"


def layer_sources(project: Any) -> list[str]:
    """GUI thread: the sources of the project's raster layers (strings; nothing is opened)."""
    from qgis.core import QgsRasterLayer

    return [layer.source() for layer in project.mapLayers().values() if isinstance(layer, QgsRasterLayer)]


def signed_paths(sources: Iterable[str], depth: int = 3) -> list[str]:
    """Worker: the Planetary-Computer-signed GDAL paths among `sources`, and inside the VRTs they name (a mosaic
    VRT may name one VRT per item)."""
    found: list[str] = []
    for source in sources:
        if source.startswith(SIGNED_PREFIX) and "pc_url_signing=yes" in source:
            found.append(source)
        elif source.lower().endswith(".vrt") and depth > 0:
            try:
                path = Path(source)
                if path.stat().st_size <= MAX_VRT_BYTES:
                    named = _sources_in_vrt(path.read_text(encoding="utf-8", errors="replace"))
                    found += signed_paths([n if n.startswith("/") else str(path.parent / n) for n in named],
                                          depth - 1)
            except OSError:
                continue
    return found


def _sources_in_vrt(text: str) -> list[str]:
    import html

    return [html.unescape(chunk.split(">", 1)[-1].split("</SourceFilename>", 1)[0]).strip()
            for chunk in text.split("<SourceFilename")[1:]]


def reads_to_renew(paths: Iterable[str], owner_of: Callable[[str], Any]) -> list[ReadOptions]:
    """One read per (endpoint, collection) whose catalog signs with its own token endpoint."""
    reads: dict[tuple[str, str], ReadOptions] = {}
    for path in paths:
        params = dict(parse_qsl(path[len(SIGNED_PREFIX):]))
        href, collection = params.get("url", ""), params.get("pc_collection", "")
        access = owner_of(href) if href else None
        if not collection or access is None or access.method != "planetary_computer":
            continue  # an href signed alone (no collection) is renewed by the reads of the agent only
        _, options = plan_read(access, href, CatalogSecrets(), Path("."), collection)
        if options.sas_path:
            reads.setdefault((options.get(SAS_KEYS[0], ""), collection), options)
    return list(reads.values())


def renew(sources: list[str], owner_of: Callable[[str], Any]) -> int:
    """Worker: renews the token of each collection in `sources` that GDAL would renew now; returns how many
    collections were asked."""
    reads = reads_to_renew(signed_paths(sources), owner_of)
    for options in reads:
        options.renew_sas_token(probe=True)
    return len(reads)


async def keep_sas_tokens(project: Callable[[], Any], owner_of: Callable[[str], Any],
                          every_s: float = RENEW_EVERY_S) -> None:
    """Runs until cancelled (plugin/runtime.py starts it through the task registry, unload cancels it)."""
    while True:  # a first turn at once: the layers of a project opened with QGIS
        current = project()
        sources = layer_sources(current) if current is not None else []
        if sources:
            try:
                await asyncio.to_thread(renew, sources, owner_of)
            except Exception:  # noqa: BLE001 — one failed turn must not stop the next ones
                log.exception("renewing SAS tokens failed")
        await asyncio.sleep(every_s)
