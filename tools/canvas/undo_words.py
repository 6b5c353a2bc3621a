"""What the undo history says: a turn's row in the dock and what a step back or forward did, in the
analyst's words."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class TurnEntry:
    """One row of the history as the dock shows it."""
    number: int
    title: str
    request: str
    details: list[str]
    warnings: list[str]
    undone: bool
    current: bool


@dataclass
class StepReport:
    """What going back (or forward) did, in the analyst's words."""
    turns: list[int] = field(default_factory=list)
    done: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    files: list[tuple[Any, Any]] = field(default_factory=list)  # (Turn, Change): files the caller moves

    def message(self, redo: bool = False, target: int | None = None) -> str:
        if not self.turns:
            return "Nothing to redo there." if redo else "Nothing to undo: the project is already at that point."
        numbers = [str(n) for n in self.turns]
        listed = numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " and " + numbers[-1]
        head = (f"Redid turn{'s' if len(numbers) > 1 else ''} {listed}" if redo
                else f"Undid turn{'s' if len(numbers) > 1 else ''} {listed}")
        if target is not None and not redo:
            head = (f"Back to turn {target}. " if target else "Back to before the first turn. ") + head
        nothing = f", but nothing in {'it' if len(numbers) == 1 else 'them'} could be {'redone' if redo else 'undone'}."
        parts = [head + (": " + "; ".join(unique(self.done)) + "." if self.done else nothing if self.kept else ".")]
        if self.kept:
            parts.append(("Not redone, you changed them since: " if redo else "Kept your own changes: ")
                         + "; ".join(unique(self.kept)) + ".")
        if self.lost:
            parts.append("Cannot be brought back: " + "; ".join(unique(self.lost)) + ".")
        return " ".join(parts)


def unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def summary(changes: list[Any], most: int = 3) -> str:
    words: list[str] = []
    views = [c.description for c in changes if c.kind == "view"]
    for change in changes:
        text = views[-1] if change.kind == "view" else change.description
        if text not in words:
            words.append(text)
    if len(words) > most:
        return " · ".join(words[:most]) + f" · {len(words) - most} more"
    return " · ".join(words) or "no change"


def undone_words(change: Any) -> str:
    kind = change.kind
    if kind == "layer_added":
        return change.description.replace("added layer", "removed layer", 1)
    if kind == "layer_removed":
        return change.description.replace("removed layer", "brought back layer", 1)
    if kind == "group_added":
        return change.description.replace("added group", "removed group", 1)
    if kind == "restyled":
        return change.description.replace("restyled", "put back the style of", 1)
    if kind == "view":
        return "put the map view back"
    if kind == "background":
        return "put the map background back"
    if kind == "layout":
        return f"put print layout '{change.target}' back as it was" if change.before else \
            f"deleted print layout '{change.target}'"
    return change.description
