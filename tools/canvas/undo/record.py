"""What the undo history keeps: each turn's changes as plain values (QML, layer XML, extents), which the
project's own entry stores (tools/canvas/undo/history.py writes and reads it)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

ENTRY = ("StacGisAgent", "undo_history")  # the project entry the history is kept in
ANALYST = "analyst"  # the owner of the dock's chat turns (the analyst's hand edits are never turns: they are kept)
TURN_ID = re.compile(r"[A-Za-z0-9_-]{1,100}\Z")  # a message id, "outside-…", "untracked-…": never a path
PARKED_FOLDER = ".undone"  # where files of undone turns wait for a redo, inside the outputs folder
FAMILY = {"layer_added": "layer", "layer_removed": "layer", "restyled": "style", "group_added": "group",
          "view": "view", "background": "background", "ellipsoid": "ellipsoid", "layout": "layout",
          "file_written": "file", "file_overwritten": "file"}


@dataclass
class Change:
    kind: str
    description: str
    target: str = ""  # layer id, group, layout or file name; empty for the view and background
    before: Any = None  # what undoing puts back
    after: Any = None  # what redoing puts back (taken when the turn ends, or when it is undone)
    was: Any = None  # the thing's state before the change, compared before a redo
    irreversible: bool = False
    undone: bool = False

    @property
    def key(self) -> str:
        return f"{FAMILY[self.kind]}:{self.target}"


@dataclass
class Turn:
    turn_id: str
    number: int = 0
    request: str = ""
    changes: list[Change] = field(default_factory=list)
    ended: dict[str, Any] | None = None  # each touched thing's state when the turn ended
    layers_before: dict[str, list] = field(default_factory=dict)
    layers_after: dict[str, list] = field(default_factory=dict)
    undone: bool = False
    owner: str = ANALYST  # who made it: the analyst's chat, or "outside:<digest>" of what the server issued a client
    layouts_before: dict[str, str] | None = None  # while the turn runs only


def is_turn_id(text: Any) -> bool:
    return isinstance(text, str) and TURN_ID.match(text) is not None


def is_output_name(text: Any) -> bool:
    """A file directly in the outputs folder (what the history records a turn wrote): a name, never a path."""
    return (isinstance(text, str) and 0 < len(text) <= 255 and text not in (".", "..", PARKED_FOLDER)
            and not any(c in text for c in "/\\\0"))
