"""The undo history as the project file keeps it. A project file is untrusted input (issue 40 item 11): anyone
can write one, and its stored history decides which files "Redo to here" moves and which folder a dropped
turn's files are deleted from. So the history is read as records: a turn id is an id, never a path; a file a
turn wrote is a name directly in the outputs folder; an owner is one the server could have issued; kinds,
numbers and flags have their types. Anything else is dropped, with a log line that says what and why."""

from __future__ import annotations

import dataclasses
import json
import logging
import re
from typing import Any

from .record import ANALYST, FAMILY, Change, Turn, is_output_name, is_turn_id

log = logging.getLogger(__name__)

VERSION = 1
OUTSIDE_UNKNOWN = "outside:unknown"  # an outside client's turn kept before owners were recorded
OWNER = re.compile(r"(analyst|outside:(unknown|[0-9a-f]{16}))\Z")
MAX_TEXT = 100_000  # a description, a target; a layer's XML or a layout is a `before`/`after`, not checked here


def dumps(turns: list[Turn], next_number: int) -> str:
    data = {"version": VERSION, "next": next_number,
            "turns": [{**dataclasses.asdict(t), "layouts_before": None} for t in turns]}
    return json.dumps(data, separators=(",", ":"))


def loads(text: str) -> tuple[list[Turn], int]:
    """The turns kept in the project, oldest first, and the next turn's number; what is not a valid record
    is left out (logged)."""
    try:
        data = json.loads(text)
    except ValueError:
        log.warning("The project's undo history is not JSON; it starts empty.")
        return [], 1
    if not isinstance(data, dict) or not isinstance(data.get("turns"), list):
        log.warning("The project's undo history has no list of turns; it starts empty.")
        return [], 1
    turns: list[Turn] = []
    for index, item in enumerate(data["turns"]):
        turn = _turn(item, index)
        if turn is None:
            continue
        if any(t.turn_id == turn.turn_id or t.number == turn.number for t in turns):
            log.warning("Undo history: turn %d repeats the id or number of an earlier one; dropped.", index)
            continue
        turns.append(turn)
    next_number = data.get("next")
    next_number = next_number if _count(next_number) else 1
    return turns, max([next_number] + [t.number + 1 for t in turns])


def _turn(item: Any, index: int) -> Turn | None:
    if not isinstance(item, dict):
        return _dropped(index, "is not a record")
    turn_id = item.get("turn_id")
    if not is_turn_id(turn_id):
        return _dropped(index, f"has an id that is not an id ({str(turn_id)[:80]!r})")
    if not _count(item.get("number")):
        return _dropped(index, "has no turn number")
    owner = item.get("owner", OUTSIDE_UNKNOWN if turn_id.startswith("untracked-") else ANALYST)
    if not isinstance(owner, str) or not OWNER.match(owner):
        return _dropped(index, f"names an owner no server issued ({str(owner)[:80]!r})")
    changes = [c for n, raw in enumerate(item.get("changes") or []) if (c := _change(raw, index, n)) is not None] \
        if isinstance(item.get("changes", []), list) else []
    request = item.get("request", "")
    return Turn(turn_id, item["number"], request[:200] if isinstance(request, str) else "", changes,
                ended=_mapping(item.get("ended")), layers_before=_looks(item.get("layers_before")),
                layers_after=_looks(item.get("layers_after")), undone=item.get("undone") is True, owner=owner)


def _change(raw: Any, turn: int, index: int) -> Change | None:
    if not isinstance(raw, dict) or raw.get("kind") not in FAMILY:
        return _dropped_change(turn, index, "is not a known kind of change")
    kind, target = raw["kind"], raw.get("target", "")
    if not isinstance(target, str) or len(target) > MAX_TEXT or "\0" in target:
        return _dropped_change(turn, index, "has no valid target")
    if FAMILY[kind] == "file":
        if not is_output_name(target):
            return _dropped_change(turn, index, f"names a file outside the outputs folder ({target[:80]!r})")
        if not _signature(raw.get("after")):
            return _dropped_change(turn, index, "has no file signature")
    description = raw.get("description")
    if not isinstance(description, str) or len(description) > MAX_TEXT:
        return _dropped_change(turn, index, "has no description")
    return Change(kind, description, target, raw.get("before"), raw.get("after"), raw.get("was"),
                  irreversible=raw.get("irreversible") is True, undone=raw.get("undone") is True)


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 10**9


def _signature(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                                for v in value)


def _mapping(value: Any) -> dict | None:
    return value if isinstance(value, dict) and all(isinstance(k, str) for k in value) else None


def _looks(value: Any) -> dict[str, list]:
    """Layer id → [name, fingerprint], as `states.LookCache.snapshot` writes it."""
    return {k: v for k, v in (_mapping(value) or {}).items()
            if isinstance(v, list) and len(v) == 2 and isinstance(v[0], str)}


def _dropped(index: int, why: str) -> None:
    log.warning("Undo history read from the project: turn %d %s; dropped.", index, why)
    return None


def _dropped_change(turn: int, index: int, why: str) -> None:
    log.warning("Undo history read from the project: change %d of turn %d %s; dropped.", index, turn, why)
    return None
