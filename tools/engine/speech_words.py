"""Words of a spoken request: the comparable form of a transcript, the word error rate, and the vocabulary
a recogniser is primed with.

Two transcripts of the same request differ in ways nobody hears: "Sentinel-2" and "sentinel two", "20%" and
"twenty percent", "2023" and "twenty twenty three", "colour" and "color". `normalise` writes both in one form
(lower case, no punctuation, numbers in digits, American spelling) so the word error rate counts only words
that were really misheard.
"""

from __future__ import annotations

import re
from typing import Iterable

UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
         "seventeen eighteen nineteen").split()
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
NUMBER_WORDS = {**{w: n for n, w in enumerate(UNITS)}, **TENS}
SPELLING = {  # British or spoken variants a transcript may use, in the one form compared
    "colour": "color", "colours": "colors", "grey": "gray", "metres": "meters", "metre": "meter",
    "catalogue": "catalog", "catalogues": "catalogs", "centre": "center", "analyse": "analyze",
    "per cent": "percent", "%": " percent", "o'clock": "oclock", "okay": "ok",
}
UNIT_AFTER_NUMBER = {"m": "meters", "km": "kilometers", "ha": "hectares"}

# The words an analyst says to this plugin that a general English model mishears (acronyms, product names):
# they prime the recogniser (Whisper's initial prompt), with the catalog's collections and the project's layers.
DOMAIN_VOCABULARY = (
    "NDVI", "NDWI", "EVI", "SAVI", "NBR", "NDMI", "STAC", "Sentinel-2", "Sentinel-1", "Landsat", "Copernicus DEM",
    "MODIS", "SCL", "L2A", "basemap", "OpenStreetMap", "GeoPackage", "PDF", "CSV", "atlas", "layout", "legend",
    "parcels", "layers", "cloud cover", "Earth Search", "Planetary Computer",
)


def _spelled(text: str) -> str:
    text = re.sub(r"(?<=[a-z])(?=[A-Z][a-z])", " ", text)  # OpenStreetMap → Open Street Map
    text = text.lower()
    for written, said in SPELLING.items():
        text = re.sub(rf"(?<![a-z]){re.escape(written)}(?![a-z])", said, text)
    text = re.sub(r"(?<=[a-z0-9])-(?=[a-z0-9])", " ", text)  # sentinel-2 → sentinel 2
    text = re.sub(r"(?<=\d),(?=\d{3})", "", text)  # 10,000 → 10000
    text = re.sub(r"[^a-z0-9' ]+", " ", text).replace("'", "")
    return re.sub(r"\b(\d+)([a-z]+)\b|\b([a-z]+)(\d+)\b", _split_token, text)  # 500m → 500 m; l2a stays


def _split_token(match: re.Match) -> str:
    return " ".join(part for part in match.groups() if part)


def _numbers(words: list[str]) -> list[str]:
    """Runs of number words in digits: "twenty twenty three" → 2023, "two thousand and five" → 2005."""
    out: list[str] = []
    i = 0
    while i < len(words):
        if words[i] not in NUMBER_WORDS:
            out.append(words[i])
            i += 1
            continue
        groups, i = _number_run(words, i)
        out.extend(str(g) for g in groups)
    return out


def _number_run(words: list[str], i: int) -> tuple[list[int], int]:
    """The numbers said from words[i] on, and where they end."""
    groups: list[int] = []
    total = current = 0
    last = ""  # the kind of the previous word: unit, teen, tens, hundred, thousand
    started = False
    while i < len(words):
        word = words[i]
        if word == "and" and last in ("hundred", "thousand") and i + 1 < len(words) and words[i + 1] in NUMBER_WORDS:
            i += 1
            continue
        if word in NUMBER_WORDS:
            value = NUMBER_WORDS[word]
            kind = "tens" if word in TENS else "teen" if value >= 10 else "unit"
            fits = (not started or last in ("hundred", "thousand")
                    or (last == "tens" and kind == "unit" and current % 10 == 0))
            if not fits:
                groups.append(total + current)
                total = current = 0
            current += value
            last, started = kind, True
        elif word == "hundred" and started and current < 100:
            current, last = max(current, 1) * 100, "hundred"
        elif word == "thousand" and started:
            total, current, last = (total + max(current, 1)) * 1000, 0, "thousand"
        else:
            break
        i += 1
    groups.append(total + current)
    return _years(groups), i


def _years(groups: list[int]) -> list[int]:
    """Pairs said as a year ("twenty twenty three", "nineteen ninety") joined: 20, 23 → 2023."""
    out: list[int] = []
    for value in groups:
        if out and 10 <= out[-1] <= 99 and 10 <= value <= 99:
            out[-1] = out[-1] * 100 + value
            continue
        out.append(value)
    return out


def normalise(text: str) -> list[str]:
    """The words of a transcript in the form compared: lower case, numbers in digits, American spelling."""
    words = _numbers(_spelled(text).split())
    out: list[str] = []
    for word in words:
        if out and out[-1].isdigit() and word in UNIT_AFTER_NUMBER:
            word = UNIT_AFTER_NUMBER[word]
        out.append(word)
    return out


def word_error_rate(reference: str, heard: str) -> float:
    """Word-level edit distance over the reference's length, on the normalised words (0 = every word right)."""
    ref, hyp = normalise(reference), normalise(heard)
    row = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        previous, row[0] = row[0], i
        for j, h in enumerate(hyp, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (r != h))
    return row[len(hyp)] / max(1, len(ref))


def keys_heard(keys: Iterable[str], heard: str) -> bool:
    """Whether every key word of a request is among the words heard."""
    words = set(normalise(heard))
    return all(set(normalise(key)) <= words for key in keys)


# How requests are written: Whisper continues the style of its prompt (acronyms in capitals, "Sentinel-2", "20%").
EXAMPLE_REQUESTS = (
    "Zoom to Lisbon and load Sentinel-2 L2A scenes from May with less than 30% cloud cover. Show the NDVI and the "
    "NDWI of the selected parcels, then undo that. Add an OpenStreetMap basemap, list the layers, and export the "
    "layout as a PDF. Which STAC collections does Earth Search have? Compute monthly EVI statistics for 2023 on the "
    "Copernicus DEM.")
PROJECT_NAMES_CHARS = 120  # with the rest, about 220 tokens: Whisper keeps only the last 223 of its prompt


def vocabulary_prompt(extra: Iterable[str] = ()) -> str:
    """What primes the recogniser: the domain's words, then the project's layers and the catalog's collections
    (`extra`; short names only, each once), then example requests. Whisper reads the last 223 tokens of it."""
    seen = {name.lower(): name for name in DOMAIN_VOCABULARY}
    room = PROJECT_NAMES_CHARS
    for name in extra:
        name = " ".join(str(name).replace("_", " ").split())
        if name and name.lower() not in seen and len(name) + 2 <= room:
            seen[name.lower()] = name
            room -= len(name) + 2
    return "GIS requests in QGIS: " + ", ".join(seen.values()) + ". " + EXAMPLE_REQUESTS
