"""How a tool declares its safety, read from the MCP tool definition.

Convention for every tool module: MCP ToolAnnotations carry the safety —
readOnlyHint=True → read; destructiveHint=True → destructive; otherwise write.
Extra policy facts go in the tool's meta under "stacgis": {"requires": [state, ...],
"discovery": bool, "judged": bool} (the states the tool needs, e.g. "raster_layer"; discovery tools
count toward the exploration budget; a "judged" tool reads, so read-only chats and outside clients are offered it,
but one of its calls may be code, so its assessor judges every call like a writing tool's: `judged_per_call`).

What one call would do is an `Assessment`, the one vocabulary of the confirmation gate
(tools/confirmation.py) and of the dock's card (agent/tool_calls.py). Three `_meta` keys of a tools/call
carry it across the in-process MCP boundary: `PREFLIGHT_KEY` asks for the call's assessment without
running it (the answer rides under `ASSESSMENT_KEY`); `GRANT_KEY` carries the gate's one-time grant
for exactly a call the dock had judged: one that needed no OK, or that the user approved in the chat.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

PREFLIGHT_KEY = "stacgis/preflight"
ASSESSMENT_KEY = "stacgis/assessment"
GRANT_KEY = "stacgis/grant"


class Safety(str, enum.Enum):
    READ = "read"
    WRITE = "write"
    DESTRUCTIVE = "destructive"


def _get(obj: Any, *names: str) -> Any:
    for name in names:
        if isinstance(obj, dict) and name in obj:
            return obj[name]
        if hasattr(obj, name):
            return getattr(obj, name)
    return None


def tool_safety(tool: Any) -> Safety:
    """Safety of an mcp Tool (or its dict form); tools that say nothing count as write."""
    annotations = _get(tool, "annotations")
    if annotations is None:
        return Safety.WRITE
    if _get(annotations, "destructiveHint", "destructive_hint"):
        return Safety.DESTRUCTIVE
    if _get(annotations, "readOnlyHint", "read_only_hint"):
        return Safety.READ
    return Safety.WRITE


def tool_policy_meta(tool: Any) -> dict[str, Any]:
    meta = _get(tool, "meta", "_meta") or {}
    return dict(meta.get("stacgis", {})) if isinstance(meta, dict) else {}


def judged_per_call(tool: Any) -> bool:
    """Whether each call is judged on its arguments before it runs: every tool that may change something, and a
    reading one marked "judged" (its filter may be code); the dock then asks the gate, and shows its card."""
    return tool_safety(tool) is not Safety.READ or bool(tool_policy_meta(tool).get("judged"))


@dataclass(frozen=True)
class Assessment:
    """What one call would do, judged on its actual arguments: `effects` are full sentences in the
    analyst's terms ("empties table roads in file /data/a.gpkg")."""
    destructive: bool
    effects: tuple[str, ...] = ()
    undoable: bool = False  # the chat's Undo (undo_last_turn) brings it back
    action: str = ""  # the call in the analyst's words ("Buffer 'parcels' by 10 m"); "" = the tool's name
    # The kind of change, in the analyst's words ("take layers off the map; Undo in the chat brings them back"):
    # what "don't ask again in this chat" covers (agent/trust.py). "" for code, downloads, overwrites and
    # whatever cannot be judged: those ask every time.
    kind: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"destructive": self.destructive, "effects": list(self.effects), "undoable": self.undoable,
                "action": self.action, "kind": self.kind}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Assessment:
        return cls(bool(data.get("destructive")), tuple(str(e) for e in data.get("effects") or ()),
                   bool(data.get("undoable")), str(data.get("action") or ""), str(data.get("kind") or ""))
