"""Credits for a printed map, built from the STAC metadata of the layers it shows.

A STAC layer carries its items as metadata links ("STAC item", the item's href) and its dates as
temporal properties (stac_layers._link_metadata, _set_time). The collection's providers and licence
come from the catalog the item belongs to. What cannot be found is left out, never invented.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from qgis.core import QgsMapLayer

ITEMS_NAMED = 4  # item ids listed per collection; the rest are counted
_COLLECTION_IN_HREF = re.compile(r"/collections/([^/]+)/items/")
_COPERNICUS = ("sentinel", "copernicus")


@dataclass
class CollectionCredit:
    collection: str
    items: list[str] = field(default_factory=list)
    dates: set[str] = field(default_factory=set)
    providers: list[str] = field(default_factory=list)
    license: str = ""
    href: str = ""  # one item's href: the catalog it came from is found by it


def collection_of(href: str) -> str:
    """The collection of a STAC item from its href (…/collections/<id>/items/<item>)."""
    match = _COLLECTION_IN_HREF.search(href or "")
    return match.group(1) if match else _collection_from_name(href or "")


def catalog_for(deps: Any, href: str) -> Any:
    """The configured catalog an item href belongs to (an API's address, or a static catalog's folder), or None."""
    for catalog in deps.catalogs.all():
        url = str(catalog.config.url).rstrip("/")
        base = url.rsplit("/", 1)[0] if url.lower().endswith(".json") else url
        if href.startswith(url) or href.startswith(base + "/") or url in href:
            return catalog
    return None


def stac_sources(layers: list[QgsMapLayer]) -> dict[str, CollectionCredit]:
    """Per collection: the STAC items the layers show, and their acquisition dates."""
    found: dict[str, CollectionCredit] = {}
    for layer in layers:
        links = [lnk for lnk in layer.metadata().links() if lnk.type == "STAC item"]
        for link in links:
            collection = collection_of(link.url or "")
            credit = found.setdefault(collection, CollectionCredit(collection))
            credit.href = credit.href or (link.url or "")
            if link.name not in credit.items:
                credit.items.append(link.name)
        if links:
            credit_dates = _dates_of(layer)
            for link in links:
                found[collection_of(link.url or "")].dates |= credit_dates
    return found


def _collection_from_name(href: str) -> str:
    """A static catalog's item href (…/collections/<id>/items/<item>.json is not always the shape)."""
    parts = [p for p in href.replace("\\", "/").split("/") if p]
    return parts[-3] if len(parts) >= 3 else "STAC"


def _dates_of(layer: QgsMapLayer) -> set[str]:
    temporal = layer.temporalProperties()
    if temporal is None or not temporal.isActive() or not hasattr(temporal, "fixedTemporalRange"):
        return set()
    span = temporal.fixedTemporalRange()
    begin, end = span.begin(), span.end()
    if not begin.isValid():
        return set()
    first, last = begin.toString("yyyy-MM-dd"), end.toString("yyyy-MM-dd") if end.isValid() else ""
    return {first} if not last or last == first else {first, last}


def add_collection_info(credit: CollectionCredit, collection: dict[str, Any]) -> None:
    """Providers (producers and licensors first) and the licence from a STAC collection document."""
    providers = [p for p in collection.get("providers") or [] if isinstance(p, dict) and p.get("name")]
    ranked = sorted(providers, key=lambda p: 0 if {"producer", "licensor"} & set(p.get("roles") or []) else 1)
    credit.providers = [str(p["name"]) for p in ranked]
    credit.license = str(collection.get("license") or "")


def credits_text(credits: dict[str, CollectionCredit], other_layers: list[QgsMapLayer]) -> str:
    """One short paragraph: the attribution line the data's terms ask for, then what was shown."""
    lines = []
    for credit in credits.values():
        years = sorted({d[:4] for d in credit.dates})
        year_text = "–".join([years[0], years[-1]]) if len(years) > 1 else (years[0] if years else "")
        text = f"{credit.collection} {credit.providers}".lower()
        if any(word in text for word in _COPERNICUS):
            lines.append(f"Contains modified Copernicus Sentinel data {year_text}".strip() + ".")
        elif credit.providers:
            lines.append(f"Data: {', '.join(credit.providers)}" + (f" ({year_text})" if year_text else "") + ".")
        shown = ", ".join(credit.items[:ITEMS_NAMED])
        if len(credit.items) > ITEMS_NAMED:
            shown += f" and {len(credit.items) - ITEMS_NAMED} more"
        dates = ", ".join(sorted(credit.dates))
        detail = f"STAC collection {credit.collection}: item{'s' if len(credit.items) > 1 else ''} {shown}"
        detail += f", acquired {dates}" if dates else ""
        detail += f"; licence {credit.license}" if credit.license else ""
        lines.append(detail + ".")
    for layer in other_layers:
        rights = "; ".join(layer.metadata().rights())
        lines.append(f"{layer.name()}: {rights}." if rights else f"{layer.name()}: {_source_name(layer)}.")
    return " ".join(lines)


def _source_name(layer: QgsMapLayer) -> str:
    source = layer.source().split("|")[0]
    name = source.replace("\\", "/").rsplit("/", 1)[-1]
    return f"from {name}" if name and layer.providerType() != "memory" else "made in this QGIS session"
