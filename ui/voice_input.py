"""Push-to-talk: the microphone's audio captured with Qt Multimedia, recognised offline, put in the input box.

The widget never sends what it heard: the transcript lands in the box for the analyst to read and correct.
The recogniser is loaded in a worker thread when Speak is pressed (while the analyst talks), and recognition
runs in a worker thread too, so the dock stays responsive; the functions are handed in by plugin/runtime.py
(the engine's recogniser: Whisper, or pocketsphinx as the fallback): `transcribe(pcm, rate, vocabulary)`, where
`vocabulary` (the project's layer names, the catalog's collections) is read on the GUI thread at Stop.
"""

from __future__ import annotations

import importlib
import logging
import threading
from typing import Callable

from qgis.PyQt.QtCore import QIODevice, QObject, pyqtSignal

from .i18n import tr, translatable

log = logging.getLogger(__name__)

RATE = 16_000  # what the recogniser reads; a microphone that cannot give it is resampled
NO_MULTIMEDIA = translatable("Voice input needs Qt Multimedia, which this QGIS does not have (on Debian and Ubuntu: "
                 "install the package python3-pyqt5.qtmultimedia, then restart QGIS).")
NO_MICROPHONE = translatable("No microphone was found. Plug one in (or allow QGIS to use it in your system's privacy "
                 "settings), then press Speak again.")
NOTHING_HEARD = translatable("Nothing was recognised. Press Speak, say your request, then press Stop.")
TOO_SHORT_S = 0.3


def multimedia():
    """Qt Multimedia of this Qt (PyQt5 or PyQt6), or None."""
    for name in ("PyQt6.QtMultimedia", "PyQt5.QtMultimedia"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if name.startswith("PyQt6") != _qt6():
            continue
        return module
    return None


def _qt6() -> bool:
    from qgis.PyQt.QtCore import QT_VERSION_STR

    return QT_VERSION_STR.startswith("6")


class PcmSink(QIODevice):
    """Where the microphone writes (Qt's push mode): keeps the raw 16-bit mono samples of one utterance."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._chunks: list[bytes] = []

    def writeData(self, data) -> int:  # noqa: N802 - Qt's name
        chunk = bytes(data)
        self._chunks.append(chunk)
        return len(chunk)

    def readData(self, _maxlen):  # noqa: N802 - Qt's name
        return b""

    def take(self) -> bytes:
        pcm, self._chunks = b"".join(self._chunks), []
        return pcm


class PushToTalk(QObject):
    """start() opens the default microphone into a PcmSink; stop() recognises what it captured."""

    listening = pyqtSignal(bool)
    heard = pyqtSignal(str)  # the transcript ("" never: NOTHING_HEARD comes as a problem)
    problem = pyqtSignal(str)  # a sentence for the analyst
    install_needed = pyqtSignal()  # the recogniser's package is missing: the dock offers to install it

    def __init__(self, transcribe: Callable[[bytes, int, tuple[str, ...]], str] | None, *,
                 recogniser_ready: Callable[[], bool] = lambda: True, install_hint: str = "",
                 vocabulary: Callable[[], tuple[str, ...]] = tuple, prepare: Callable[[], object] | None = None,
                 parent=None):
        super().__init__(parent)
        self._transcribe = transcribe
        self._ready = recogniser_ready
        self._install_hint = install_hint
        self._vocabulary = vocabulary  # called on the GUI thread (it may read the project)
        self._prepare = prepare  # loads the recogniser: in a worker, at the first press
        self._preparing: threading.Thread | None = None
        self.sink = PcmSink(self)
        self._audio = None
        self.rate = RATE
        self.active = False
        self.recognising = False

    def start(self) -> bool:
        """True when listening; else a problem was emitted (no Qt Multimedia, no microphone, no recogniser)."""
        if self.active or self.recognising:
            return self.active
        if self._transcribe is None or not self._ready():
            self.problem.emit(self._install_hint or tr("Voice input is not available in this session."))
            self.install_needed.emit()
            return False
        module = multimedia()
        if module is None:
            self.problem.emit(tr(NO_MULTIMEDIA))
            return False
        try:
            self._audio, self.rate = _open_microphone(module, self)
        except LookupError:
            self.problem.emit(tr(NO_MICROPHONE))
            return False
        self.sink.open(QIODevice.OpenModeFlag.WriteOnly)
        self.sink.take()
        self._audio.start(self.sink)
        self.active = True
        self.listening.emit(True)
        self.prepare()
        return True

    def prepare(self) -> None:
        """Loads the recogniser in a worker, once, while the analyst is still talking (never on the GUI thread)."""
        if self._prepare is None or self._preparing is not None:
            return
        self._preparing = threading.Thread(target=self._load, name="stacgis-speech-load", daemon=True)
        self._preparing.start()

    def _load(self) -> None:
        try:
            self._prepare()
        except Exception:  # said when the first recognition tries again and fails
            log.warning("loading the speech recogniser failed", exc_info=True)

    def begin_utterance(self, rate: int = RATE) -> None:
        """Listening without a microphone (what start() does after opening one): bytes written to `sink`
        by someone else, e.g. a recording, take the same path to the recogniser."""
        self.sink.open(QIODevice.OpenModeFlag.WriteOnly)
        self.sink.take()
        self.rate = rate
        self.active = True
        self.listening.emit(True)
        self.prepare()

    def stop(self) -> None:
        if not self.active:
            return
        self.active = False
        if self._audio is not None:
            self._audio.stop()
            self._audio = None
        self.sink.close()
        self.listening.emit(False)
        pcm = self.sink.take()
        if len(pcm) < TOO_SHORT_S * self.rate * 2:
            self.problem.emit(tr(NOTHING_HEARD))
            return
        try:
            vocabulary = tuple(self._vocabulary())
        except Exception:  # the words only help: a project that cannot be read leaves them out
            log.warning("the voice vocabulary could not be read", exc_info=True)
            vocabulary = ()
        self.recognising = True
        threading.Thread(target=self._recognise, args=(pcm, self.rate, vocabulary), name="stacgis-speech",
                         daemon=True).start()

    def _recognise(self, pcm: bytes, rate: int, vocabulary: tuple[str, ...]) -> None:
        try:
            text = self._transcribe(pcm, rate, vocabulary)
        except Exception as exc:  # a broken model file, a missing package: said, never raised into Qt
            log.warning("speech recognition failed", exc_info=True)
            self.recognising = False
            self._say(self.problem, tr("Voice input failed: {error}").format(error=exc))
            return
        self.recognising = False  # before the signal: a slot may start the next utterance at once
        if text:
            self._say(self.heard, text)  # queued to the GUI thread: the object lives there
        else:
            self._say(self.problem, tr(NOTHING_HEARD))

    @staticmethod
    def _say(signal, text: str) -> None:
        try:
            signal.emit(text)
        except RuntimeError:  # the dock was closed (the plugin unloaded) while the recogniser worked
            log.info("voice input closed before its transcript arrived")


def _open_microphone(module, parent):
    """(the audio input, its sample rate) for the default microphone, 16-bit mono, 16 kHz when it can."""
    fmt = module.QAudioFormat()
    fmt.setSampleRate(RATE)
    fmt.setChannelCount(1)
    if hasattr(module, "QMediaDevices"):  # Qt 6
        device = module.QMediaDevices.defaultAudioInput()
        if device.isNull():
            raise LookupError("no microphone")
        fmt.setSampleFormat(module.QAudioFormat.SampleFormat.Int16)
        if not device.isFormatSupported(fmt):
            fmt.setSampleRate(device.preferredFormat().sampleRate())
        return module.QAudioSource(device, fmt, parent), fmt.sampleRate()
    device = module.QAudioDeviceInfo.defaultInputDevice()
    if device.isNull():
        raise LookupError("no microphone")
    fmt.setSampleSize(16)
    fmt.setCodec("audio/pcm")
    fmt.setByteOrder(module.QAudioFormat.Endian.LittleEndian)
    fmt.setSampleType(module.QAudioFormat.SampleType.SignedInt)
    if not device.isFormatSupported(fmt):
        fmt.setSampleRate(device.nearestFormat(fmt).sampleRate())
    return module.QAudioInput(device, fmt, parent), fmt.sampleRate()
