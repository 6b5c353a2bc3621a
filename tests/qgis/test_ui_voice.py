"""Voice is offered only where it works: never a dead button."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

from stacgis_agent.ui import voice
from stacgis_agent.ui.chat_panel import ChatPanel
from stacgis_agent.ui.chat_session import ChatSession

UI = Path(voice.__file__).resolve().parent


def _qt_speech_installed() -> bool:
    for package in ("PyQt5", "PyQt6"):
        if importlib.util.find_spec(package) and importlib.util.find_spec(f"{package}.QtTextToSpeech"):
            try:  # present but unusable counts as absent (PyQt6's wheel needs the system's libpulse)
                importlib.import_module(f"{package}.QtTextToSpeech")
            except ImportError:
                continue
            return True
    return False


def test_speak_switch_and_microphone_follow_what_is_installed(qgis_app):
    panel = ChatPanel(ChatSession(lambda sid: None))
    panel.show()
    assert voice.speech_available() == _qt_speech_installed()
    assert panel.speak_box.isHidden() == (not _qt_speech_installed())
    assert panel.mic_button.isHidden()  # no offline recogniser is integrated
    panel.close()


def test_spoken_text_leaves_out_markup_code_and_images():
    text = "## NDVI\n\nMean is **0.61** ([source](https://x.org)).\n\n```python\nprint(1)\n```\n![chart](c.png)"
    assert voice.speakable(text) == "NDVI Mean is 0.61 (source)."


def test_ui_imports_qt_only_through_qgis_pyqt():
    for path in UI.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith(("PyQt5", "PyQt6")), path.name
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith(("PyQt5", "PyQt6")) for a in node.names), path.name
