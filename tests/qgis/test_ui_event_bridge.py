"""Every event kind reaches the widgets on the signal named after it, live or restored from a log."""

from __future__ import annotations

from stacgis_agent.agent import events as ev
from stacgis_agent.ui.event_bridge import EventBridge


def test_each_kind_arrives_on_its_own_signal_only(qgis_app):
    bridge = EventBridge()
    received: list[tuple[str, object]] = []
    for kind in ev.EVENT_KINDS:
        getattr(bridge, kind).connect(lambda event, kind=kind: received.append((kind, event)))
    sent = [ev.UserMessage("hi"), ev.Thinking(1, "hm"), ev.ToolStart(1, "c1", "zoom_to_location", {"place": "Lyon"}),
            ev.ToolError(1, "c1", "zoom_to_location", "No place named 'Lyonx'."), ev.Notice("keywords"),
            ev.Done("s", "m", "ok", 0.0)]
    for event in sent:
        bridge.emit_event(ev.event_from_dict(ev.event_to_dict(event)))  # as a restored session does
    assert received == [(e.kind, e) for e in sent]
    assert all(hasattr(EventBridge, kind) for kind in ev.EVENT_KINDS)  # made from the vocabulary

