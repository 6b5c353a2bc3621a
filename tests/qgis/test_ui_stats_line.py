"""The line under the chat: the last turn's numbers with the context used, and no made-up zeros for a
turn stopped before the model said anything."""

from __future__ import annotations

from stacgis_agent.agent.events import Done, Usage
from stacgis_agent.ui.chat_panel import ChatPanel
from stacgis_agent.ui.chat_session import ChatSession


def _panel(qgis_app) -> ChatPanel:
    panel = ChatPanel(ChatSession(lambda sid: None))
    panel.show()
    return panel


def test_a_turn_with_tools_shows_the_context_used(qgis_app):
    panel = _panel(qgis_app)
    usage = Usage(prompt_tokens=9000, eval_tokens=80, steps=3, tool_calls=2, wall_ms=4100, context_window=16384,
                  context_used=3400)
    panel.session.bridge.emit_event(Done("s", "m", "ok", 1.0, usage))
    assert "context 3\u202f400 / 16\u202f384 (21%)" in panel.stats.text()
    assert panel.feed.entries()[-1].startswith("Done · ") and "context 3\u202f400" in panel.feed.entries()[-1]
    panel.close()


def test_a_turn_stopped_before_the_first_step_says_so_without_zeros(qgis_app):
    panel = _panel(qgis_app)
    panel.session.bridge.emit_event(Done("s", "m", "", 1.0, stopped=True))
    assert panel.stats.text() == "Stopped before the model answered."
    panel.close()
