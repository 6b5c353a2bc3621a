"""What an analyst says to this plugin, as a small language model: which of Whisper's hypotheses is a request.

Whisper tiny.en hears "search and set for Texas" where the analyst said "search Landsat for Texas": its own
language model is general English. This model is the domain's: a trigram model (interpolated absolute
discounting) of the requests the product knows, i.e. the dock's own phrases (the request templates of
speech_sphinx, filled with indices, months, years, collections and the gazetteer's place names), the example
requests quoted in the tools' descriptions (REQUEST_EXAMPLES), the domain's vocabulary, and at each utterance
the project's layer names and the catalogs' collections. It never saw the held-out test requests.

It does two things (speech_whisper combines them with Whisper's own scores): `logp` says how likely a
transcript is as a request, and `near_misses` proposes transcripts where a span of words sounds like a word
the product knows (CMU pronunciations, which ship with pocketsphinx; acronyms letter by letter), so that
"and set" can become "Landsat" when Whisper's acoustic score of the result agrees.
"""

from __future__ import annotations

import ast
import collections
import functools
import math
import re
import threading
import time
from pathlib import Path
from typing import Iterable

from . import speech_sphinx
from .speech_sphinx import GIL_BREATH_S
from .speech_words import DOMAIN_VOCABULARY, EXAMPLE_REQUESTS, normalise

# The example requests of the tools' descriptions ("E.g. '…'") when this model was written; tool_phrases()
# reads the current descriptions from the tools' source as well.
REQUEST_EXAMPLES = (
    "plot these values", "area of this parcel in hectares", "how long is the pipeline?",
    "how far is the school from the river?", "how many wells are within 500 m of the river?",
    "select the buildings within 100 m of the road", "what is the resolution of the DEM?",
    "highest elevation in view", "mean NDVI of the map extent", "what is the elevation at this location?",
    "NDVI of both dates and the elevation at this spot", "how did NDVI evolve over the season here?",
    "which fields does the parcels layer have?", "which parcels are in view?", "what did I select?",
    "mean NDVI of the selected parcel", "compare NDVI between June and September",
    "switch the project to Lambert-93", "measure on the GRS 1980 ellipsoid", "undo that",
    "load the red band of that scene", "mosaic the July scenes", "show me Sentinel-2 over Lyon last June",
    "use a red-yellow-green ramp on NDVI", "make an animation of these scenes", "does the printable page look right?",
    "make a printable page for the client", "export the layout as PDF", "one page per selected parcel with its NDVI",
    "make a report of this session", "what does the map show?", "clip the DEM to my parcel",
    "buffer the rivers by 100 m", "clip the scene and save it to clip.tif", "zoom to Lyon",
    "which catalogs can you reach?", "what data do I have?", "is there a DEM of Grenoble?",
    "what bands does sentinel-2-l2a have?", "least cloudy Sentinel-2 scene of Lyon in June",
    "which assets does this scene have?", "remember that I work in EPSG:2154", "which CRS did I say I use?",
)
# Words too short or too common to be a near miss worth proposing (the general model knows them better).
FUNCTION_WORDS = frozenset(
    "a an the of on in at to for from with by and or as is are was be it its this that these those what which who "
    "how when where there here i me my you your we our do does did can could will would should may might than then "
    "so not no yes all any each every one two some more less most least over under into out up down per own".split())
CONFUSED = {"on": "of", "of": "on"}  # "of" said quickly is heard as "on" (and back): both are proposed
LETTERS = dict(zip("abcdefghijklmnopqrstuvwxyz", (
    "EY", "B IY", "S IY", "D IY", "IY", "EH F", "JH IY", "EY CH", "AY", "JH EY", "K EY", "EH L", "EH M", "EH N", "OW",
    "P IY", "K Y UW", "AA R", "EH S", "T IY", "Y UW", "V IY", "D AH B AH L Y UW", "EH K S", "W AY", "Z IY")))
SAID_AS_WORDS = {"landsat": "L AE N D S AE T", "openstreetmap": "OW P AH N S T R IY T M AE P",
                 "basemap": "B EY S M AE P", "geopackage": "JH IY OW P AE K IH JH", "stac": "S T AE K"}
VOWELS = frozenset("AA AE AH AO AW AY EH ER EY IH IY OW OY UH UW".split())
NEAR = 0.3  # phone edit distance over length under which a span sounds like a known word
TOOLS = Path(__file__).resolve().parents[1]  # the tools' source, whose descriptions are read (not imported)
UNKNOWN_WORD = 1e-5  # the probability of a word the requests never use (the general model judges it)


def corpus(names: Iterable[str] = ()) -> list[str]:
    """The sentences the model is estimated from (names: the project's layers and the catalogs' collections);
    the written forms first, so that a near miss is proposed as "Landsat", not "landsat"."""
    return [*DOMAIN_VOCABULARY, *(index.upper() for index in speech_sphinx.INDICES),
            *(str(name).replace("_", " ") for name in names), *REQUEST_EXAMPLES,
            *re.split(r"(?<=[.?])\s+", EXAMPLE_REQUESTS), *tool_phrases(), *dock_phrases()]


@functools.lru_cache(maxsize=1)
def tool_phrases(tools: Path = TOOLS) -> tuple[str, ...]:
    """The words of the tools' descriptions (what the product can do, in the analyst's words), read from their
    source with `ast` (never imported: the engine sits below the tools): each tool's first paragraph, in
    clauses, and the example requests it quotes."""
    phrases: list[str] = []
    for path in sorted(tools.rglob("*.py")):
        time.sleep(GIL_BREATH_S)  # parsing holds Python's lock: the GUI thread gets a turn between files
        try:
            source = path.read_text(encoding="utf-8")
            if "@tool" not in source:
                continue
            tree = ast.parse(source)
        except (OSError, SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(map(_is_tool, node.decorator_list)):
                first = " ".join((ast.get_docstring(node) or "").split("\n\n")[0].split())
                described, _, examples = first.partition("E.g.")
                phrases += re.findall(r"'([^']{6,120})'", examples)
                phrases += [part for part in re.split(r"(?<=[.!?:;])\s+|[()]|, ", described) if len(part.split()) >= 2]
    return tuple(phrases)


def _is_tool(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(target, ast.Name) and target.id == "tool"


@functools.lru_cache(maxsize=1)
def dock_phrases() -> tuple[str, ...]:
    """The dock's request templates filled with the gazetteer's places (speech_sphinx's sentences)."""
    places = speech_sphinx.place_names(pronunciations()) if pronunciations() else []
    time.sleep(GIL_BREATH_S)
    return tuple(" ".join(words) for words in speech_sphinx.requests(places))


@functools.lru_cache(maxsize=1)
def pronunciations() -> dict[str, list[str]]:
    """CMU pronunciations (pocketsphinx's dictionary) with the dock's spelled acronyms; {} without pocketsphinx."""
    if not speech_sphinx.available():
        return {}
    return dict(speech_sphinx._pronunciations())


def word_phones(word: str) -> list[tuple[str, ...]]:
    if word in SAID_AS_WORDS:
        return [tuple(SAID_AS_WORDS[word].split())]
    known = pronunciations().get(word)
    if known:
        return [tuple(re.sub(r"\d", "", p).split()) for p in known[:2]]
    if re.fullmatch(r"[a-z]{1,5}", word):  # an acronym the dictionary lacks, said letter by letter
        return [tuple(" ".join(LETTERS[c] for c in word).split())]
    return []


def phrase_phones(words: list[str]) -> list[tuple[str, ...]]:
    said: list[tuple[str, ...]] = [()]
    for word in words:
        ways = word_phones(word)
        if not ways:
            return []
        said = [a + b for a in said for b in ways][:4]
    return said


def phone_distance(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    """Edit distance over phones (a vowel for a vowel costs half), over the longer length."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        row = [i]
        for j, y in enumerate(b, 1):
            swap = 0.0 if x == y else 0.5 if x in VOWELS and y in VOWELS else 1.0
            row.append(min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + swap))
        previous = row
    return previous[-1] / max(1, len(a), len(b))


class DomainModel:
    """A trigram model of requests over normalised words, and the words worth proposing as near misses."""

    def __init__(self, sentences: Iterable[str], discount: float = 0.7) -> None:
        self.discount = discount
        self.unigrams: collections.Counter = collections.Counter()
        self.ngrams: collections.Counter = collections.Counter()  # bigrams and trigrams, keyed by tuples
        self.history: collections.Counter = collections.Counter()
        self.followers: dict[tuple, set] = collections.defaultdict(set)
        written: dict[str, str] = {}
        for n, sentence in enumerate(sentences):
            if n % 200 == 0:
                time.sleep(GIL_BREATH_S)
            words = ["<s>", "<s>", *normalise(sentence), "</s>"]
            for i in range(2, len(words)):
                self.unigrams[words[i]] += 1
                for context in (tuple(words[i - 1:i]), tuple(words[i - 2:i])):
                    self.ngrams[(*context, words[i])] += 1
                    self.history[context] += 1
                    self.followers[context].add(words[i])
            for written_word in re.findall(r"[A-Za-z][\w-]*", sentence):
                key = " ".join(normalise(written_word))
                if len(written_word) >= 3 and key and key not in FUNCTION_WORDS:
                    written.setdefault(key, written_word)
        self.total = sum(self.unigrams.values())
        self._targets = written
        self._by_length: dict[int, list[tuple[str, str, tuple[str, ...]]]] | None = None

    def _p(self, context: tuple, word: str) -> float:
        if not context:
            return (1 - UNKNOWN_WORD) * self.unigrams[word] / self.total + UNKNOWN_WORD
        lower = self._p(context[1:], word)
        seen = self.history[context]
        if not seen:
            return lower
        return (max(self.ngrams[(*context, word)] - self.discount, 0) / seen
                + self.discount * len(self.followers[context]) / seen * lower)

    def logp(self, text: str) -> float:
        """Natural log of the probability of the transcript as a request (its normalised words)."""
        words = ["<s>", "<s>", *normalise(text), "</s>"]
        return sum(math.log(self._p(tuple(words[i - 2:i]), words[i])) for i in range(2, len(words)))

    def _targets_by_length(self):
        if self._by_length is None:
            by_length = collections.defaultdict(list)
            for n, (key, written) in enumerate(self._targets.items()):
                if n % 200 == 0:
                    time.sleep(GIL_BREATH_S)
                for phones in phrase_phones(key.split()):
                    by_length[len(phones)].append((written, key, phones))
            self._by_length = dict(by_length)
        return self._by_length

    def near_misses(self, text: str, longest: int = 3) -> set[str]:
        """Transcripts with one span of up to `longest` words replaced by a known word that sounds like it."""
        if not pronunciations():
            return set()
        words = text.split()
        out = set()
        for i, word in enumerate(words):
            bare = re.sub(r"\W", "", word).lower()
            if bare in CONFUSED:
                out.add(" ".join([*words[:i], word.replace(bare, CONFUSED[bare]), *words[i + 1:]]))
        by_length = self._targets_by_length()
        for i in range(len(words)):
            for j in range(i + 1, min(len(words), i + longest) + 1):
                said = normalise(" ".join(words[i:j]))
                for phones in phrase_phones(said):
                    for length in range(max(1, len(phones) - 2), len(phones) + 3):
                        for written, key, known in by_length.get(length, ()):
                            if key != " ".join(said) and phone_distance(phones, known) <= NEAR:
                                trailing = re.search(r"[^\w]*$", words[j - 1]).group()
                                out.add(" ".join([*words[:i], written + trailing, *words[j:]]))
        return out


_lock = threading.Lock()
_models: dict[tuple[str, ...], DomainModel] = {}


def domain_model(names: Iterable[str] = ()) -> DomainModel:
    """The model for these layer and collection names, built once (in the caller's thread: a worker)."""
    key = tuple(sorted({str(name) for name in names}))
    with _lock:
        if key not in _models:
            if len(_models) > 8:
                _models.clear()
            _models[key] = DomainModel(corpus(key))
        return _models[key]
