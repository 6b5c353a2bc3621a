"""Matching place names the way an analyst types them: whole names, any case or accent, a typo allowed.

Pure Python: the project's layers (tools/canvas/place_lookup.py) and the offline gazetteer
(tools/engine/gazetteer.py) both rank their candidates with `match_tier`, so "Lyon" never matches a
collection id that merely contains "lyon", and "Munchen", "münchen" and "MÜNCHEN" are one name.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Iterable

EXACT, PREFIX, FUZZY = 0, 1, 2
TIER_WORDS = {EXACT: "exact name", PREFIX: "name starting with it", FUZZY: "similar spelling"}
FUZZY_RATIO = 0.85
DISTINCT_KM = 50.0
CITY_OUTLINE_KM = 150.0  # a region this small with a city's name is that city's outline  # two matches closer than this are the same place (a city and its district)
DOMINANT_POPULATION = 10  # a city this many times bigger than the next one of that name is the one meant

_NAME_FIELD = re.compile(r"(^|_)(name|names|nom|nome|nombre|naam|title|titel|titre|label|place|city|town|ville|"
                         r"stadt|gemeinde|commune|municipality|country|region|state|province|admin|toponym)"
                         r"($|_|\d)", re.IGNORECASE)


_NOT_WORD = re.compile(r"[\W_]+")


def normalise(text: str) -> str:
    """Case-, accent- and punctuation-insensitive form: 'Saint-Étienne ' -> 'saint etienne'."""
    text = str(text)
    if not text.isascii():
        decomposed = unicodedata.normalize("NFKD", text.replace("ß", "ss"))
        text = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _NOT_WORD.sub(" ", text.casefold()).strip()


def is_name_field(field_name: str) -> bool:
    return bool(_NAME_FIELD.search(field_name))


def match_tier(query: str, names: Iterable[str], allow_prefix: bool = True) -> int | None:
    """EXACT when one name equals the query, PREFIX when a name starts with the query as whole words
    ('lyon' -> 'Lyon 3e Arrondissement'), FUZZY for a close spelling ('Lyonn'); None otherwise.
    `query` must already be normalised."""
    best = None
    for raw in names:
        name = normalise(raw)
        if not name:
            continue
        if name == query:
            return EXACT
        if allow_prefix and name.startswith(query + " "):
            best = PREFIX
        elif best is None and len(query) >= 4 and abs(len(name) - len(query)) <= 3 and \
                difflib.SequenceMatcher(None, query, name).ratio() >= FUZZY_RATIO:
            best = FUZZY
    return best


@dataclass
class Place:
    """One candidate: a project feature or a gazetteer entry, with where it lies in lon/lat."""

    name: str
    kind: str  # "city", "country", "region" or "feature"
    source: str  # "layer 'communes'" or "offline gazetteer (…)"
    lon: float
    lat: float
    bbox: tuple[float, float, float, float] | None = None  # lon/lat, when the place has an outline
    population: int = 0
    context: str = ""  # "France", "Texas, United States", "field NOM, feature 12"
    tier: int = EXACT
    extra: dict = field(default_factory=dict)

    def label(self) -> str:
        parts = [self.kind] + ([self.context] if self.context else [])
        if self.population:
            parts.append(f"pop. {self.population:,}")
        return f"{self.name} ({', '.join(parts)})"


def distance_km(a: Place, b: Place) -> float:
    import math

    la1, la2 = math.radians(a.lat), math.radians(b.lat)
    dlat, dlon = la2 - la1, math.radians(b.lon - a.lon)
    h = math.sin(dlat / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin(dlon / 2) ** 2
    return 6371.0 * 2 * math.asin(min(1.0, math.sqrt(h)))


def merge_city_outlines(places: list[Place]) -> list[Place]:
    """A city whose own outline is a region of the same name (Paris, Berlin, Hamburg) is one place:
    the city, drawn with that outline. Big regions (New York State) stay a place of their own."""
    merged = list(places)
    for city in [p for p in places if p.kind == "city"]:
        for region in merged:
            if region.kind in ("region", "country") and region.bbox and normalise(region.name) == normalise(city.name) \
                    and _contains(region.bbox, city) and _diagonal_km(region.bbox) <= CITY_OUTLINE_KM:
                index = merged.index(region)
                merged[index] = Place(**{**region.__dict__, "kind": "city", "population": city.population,
                                         "context": city.context, "source": f"{region.source} and {city.source}"})
                merged.remove(city)
                break
    return merged


def _contains(bbox: tuple[float, float, float, float], place: Place) -> bool:
    w, s, e, n = bbox
    return w <= place.lon <= e and s <= place.lat <= n


def _diagonal_km(bbox: tuple[float, float, float, float]) -> float:
    w, s, e, n = bbox
    return distance_km(Place("", "", "", w, s), Place("", "", "", e, n))


def distinct(places: list[Place]) -> list[Place]:
    """One entry per place on the ground: the first (best ranked) of those lying close together."""
    places = merge_city_outlines(places)
    kept: list[Place] = []
    for place in places:
        if all(place.kind != k.kind or distance_km(place, k) > DISTINCT_KM for k in kept):
            kept.append(place)
    return kept


def choose(places: list[Place]) -> tuple[Place | None, list[Place]]:
    """(the place meant, the others), or (None, the candidates to ask the user about).

    Countries and regions outrank cities of the same name only when alone; a city far bigger than
    every other of its name is the one meant (Paris, France rather than Paris, Texas)."""
    places = distinct(places)
    if not places:
        return None, []
    if len(places) == 1:
        return places[0], []
    cities = sorted((p for p in places if p.kind == "city"), key=lambda p: -p.population)
    if len(cities) == len(places) and cities[0].population >= DOMINANT_POPULATION * max(cities[1].population, 1):
        return cities[0], cities[1:]
    return None, places


def narrow(places: list[Place], qualifier: str) -> list[Place]:
    """Keeps the places whose context mentions the qualifier ('France', 'TX', 'Texas', 'US')."""
    wanted = normalise(qualifier)
    if not wanted:
        return places
    kept = []
    for place in places:
        words = {normalise(w) for w in re.split(r"[,;/]", place.context)} | \
            {normalise(str(v)) for v in place.extra.get("qualifiers", ())}
        if wanted in words:
            kept.append(place)
    return kept


def close_names(query: str, names: Iterable[str], limit: int = 5) -> list[str]:
    """Spellings near the query, for 'did you mean' in an error message."""
    by_norm: dict[str, str] = {}
    for name in names:
        by_norm.setdefault(normalise(name), name)
    return [by_norm[n] for n in difflib.get_close_matches(query, list(by_norm), n=limit, cutoff=0.75)]
