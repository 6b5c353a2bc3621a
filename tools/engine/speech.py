"""Offline speech recognition of the analyst's spoken requests: 16-bit mono PCM in, text out.

Whisper through faster-whisper (speech_whisper) when it is installed: it hears ordinary requests in voices it
was not tuned on, primed with the domain's words and the project's layer names. pocketsphinx (speech_sphinx)
is the small fallback: it hears the product's own phrases only. Both run in the caller's thread, which is a
worker: loading a model and recognising never happen on the GUI thread. The transcript lands in the input box
for the analyst to read and correct; it is never sent unseen.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from . import speech_sphinx, speech_whisper
from .speech_words import word_error_rate  # noqa: F401  (the measure the tests and the bench report)

log = logging.getLogger(__name__)

SAMPLE_RATE = 16_000
INSTALL_HINT = ("Voice input needs an offline recogniser: click “Install voice input” in the dock (it installs "
                "Whisper through faster-whisper, about 310 MB, into the plugin's own folder), then press "
                "Speak again.")


def available() -> bool:
    """Whether a recogniser is installed (Whisper, or the pocketsphinx fallback)."""
    return speech_whisper.available() or speech_sphinx.available()


def sphinx_available() -> bool:
    return speech_sphinx.available()


class Recogniser:
    """Whisper when it can be loaded, else pocketsphinx; the choice is made once, by the first load.

    `model` is Settings' voice model folder ("" = the bundled tiny.en); `folder` is where pocketsphinx keeps
    the language model it builds."""

    def __init__(self, folder: Path, model: str = "") -> None:
        self.folder = Path(folder)
        self.model = model
        self._lock = threading.Lock()
        self._engine = None
        self.name = ""

    def load(self):
        """The recogniser, loaded (slow the first time: call it from a worker)."""
        with self._lock:
            if self._engine is None:
                self._engine, self.name = self._choose()
            return self._engine

    def _choose(self):
        if speech_whisper.available():
            whisper = speech_whisper.WhisperRecogniser(self.model)
            try:
                whisper.load()
                return whisper, "whisper"
            except speech_whisper.ModelProblem:
                if self.model or not speech_sphinx.available():
                    raise  # the analyst's own model folder is wrong: say so rather than hear less
                log.warning("no Whisper model installed; voice input falls back to pocketsphinx", exc_info=True)
        if speech_sphinx.available():
            sphinx = speech_sphinx.SphinxRecogniser(self.folder)
            sphinx.load()
            return sphinx, "pocketsphinx"
        raise RuntimeError(INSTALL_HINT)

    def transcribe_at(self, pcm: bytes, rate: int, vocabulary: tuple[str, ...] = ()) -> str:
        """The words heard in 16-bit mono PCM sampled at `rate` (resampled to SAMPLE_RATE first); `vocabulary`:
        the project's layer names and the catalog's collections, which prime Whisper."""
        import numpy as np

        pcm16k = pcm if rate == SAMPLE_RATE else resample(np.frombuffer(pcm, "<i2"), rate)
        return self.load().transcribe(pcm16k, tuple(vocabulary))


def resample(samples, rate: int) -> bytes:
    """16-bit mono PCM at SAMPLE_RATE from samples at `rate`: band-limited in the frequency domain (numpy's FFT),
    which keeps consonants recognisable where linear interpolation lost a third of the words."""
    import numpy as np

    data = np.asarray(samples, dtype=np.float64)
    if rate != SAMPLE_RATE and data.size:
        size = max(1, round(data.size * SAMPLE_RATE / rate))
        spectrum = np.fft.rfft(data)[: size // 2 + 1]
        data = np.fft.irfft(spectrum, size) * (size / data.size)
    return np.clip(data.round(), -32768, 32767).astype("<i2").tobytes()
