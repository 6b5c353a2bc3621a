"""Speaks answers with Qt's offline text-to-speech when this Qt has it; otherwise offers nothing."""

from __future__ import annotations

import importlib
import logging
import re

log = logging.getLogger(__name__)


def _speech_module():
    for name in ("qgis.PyQt.QtTextToSpeech", "PyQt6.QtTextToSpeech", "PyQt5.QtTextToSpeech"):
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    return None


def speech_available() -> bool:
    return _speech_module() is not None


_UNSPOKEN = re.compile(r"```.*?```|`[^`]*`|!\[[^\]]*\]\([^)]*\)", re.DOTALL)
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_MARKUP = re.compile(r"[#*_>|~]")


def speakable(markdown: str) -> str:
    """What a listener needs: link texts kept, code blocks, images and markup left out."""
    text = _LINK.sub(r"\1", _UNSPOKEN.sub(" ", markdown))
    return " ".join(_MARKUP.sub(" ", text).split())


class AnswerSpeaker:
    def __init__(self):
        module = _speech_module()
        self._engine = module.QTextToSpeech() if module is not None else None

    @property
    def available(self) -> bool:
        return self._engine is not None

    def speak(self, markdown: str) -> None:
        if self._engine is not None and markdown.strip():
            self._engine.say(speakable(markdown))

    def stop(self) -> None:
        if self._engine is not None:
            self._engine.stop()
