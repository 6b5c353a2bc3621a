"""What the undo history says: a turn's row in the dock and what a step back or forward did, in the
analyst's words.

The history keeps its phrases in English (they are saved with the project and logged); each is made from one
of the PHRASES below. The dock says them in its language: `in_words(text, tr)` finds the phrase a text was made
from and fills its translation (`tr`, agent/dock_text.py) with the same names; a text made otherwise shows as
written. tests/unit/test_core_dock_texts.py checks that every phrase the history writes is one of PHRASES."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

from ....agent.dock_text import Translate, as_written, translatable
from .record import ANALYST

# What a turn changed, what a step did and what it kept. {change} holds another of these phrases; any other
# placeholder is a name (a layer, a layout, a file, a place) shown as written.
PHRASES = (
    translatable("added layer '{name}'"), translatable("removed layer '{name}'"),
    translatable("added group '{name}'"), translatable("restyled '{name}'"), translatable("moved the map"),
    translatable("changed the map background"), translatable("changed the measurement ellipsoid"),
    translatable("put the measurement ellipsoid back"), translatable("the measurement ellipsoid you set"),
    translatable("made print layout '{name}'"),
    translatable("rebuilt print layout '{name}'"), translatable("deleted print layout '{name}'"),
    translatable("wrote file '{name}'"), translatable("overwrote file '{name}'"), translatable("zoomed to {place}"),
    translatable("brought back layer '{name}'"), translatable("removed group '{name}'"),
    translatable("put back the style of '{name}'"), translatable("put the map view back"),
    translatable("put the map background back"), translatable("put print layout '{name}' back as it was"),
    translatable("'{name}' (overwritten in turn {number})"),
    translatable("{change} (could not be undone; see the QGIS log)"),
    translatable("{change} (could not be redone; see the QGIS log)"),
    translatable("layer '{name}' as you changed it"), translatable("the map view you set"),
    translatable("the map background you chose"), translatable("print layout '{name}' as you edited it"),
    translatable("print layout '{name}' stays deleted (you deleted it)"),
    translatable("layer '{name}' could not be rebuilt"), translatable("group '{name}' (it holds layers you put there)"),
    translatable("layer '{name}' (you added it)"), translatable("your changes to layer '{name}'"),
    translatable("layer '{name}' stays removed (you removed it)"),
    translatable("put '{name}' back in the outputs folder"), translatable("'{name}' (a file of that name is there now)"),
    translatable("set '{name}' aside in the outputs folder's .undone folder, for a redo"),
    translatable("file '{name}' (it changed after the turn)"),
    translatable("Turn {number}"), translatable("by an outside MCP client"), translatable("{n} more"),
    translatable("no change"), translatable("Cannot be undone: {change}"),
    translatable("Only the most recent turn that changed the map can be undone this way; use the History tab to "
                 "go further back."),
    translatable("The assistant is still working on a message; try again when it has answered."),
)


def _pattern(phrase: str) -> re.Pattern:
    parts = re.split(r"\{(\w+)\}", phrase)  # literal, name, literal, name, …
    return re.compile("".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+)" for i, p in enumerate(parts)), re.DOTALL)


_PATTERNS = [(phrase, _pattern(phrase)) for phrase in PHRASES]


def in_words(text: str, tr: Translate = as_written) -> str:
    """`text`, a phrase of the history, in the dock's language."""
    for phrase, pattern in _PATTERNS:
        found = pattern.fullmatch(text)
        if found:
            parts = {k: in_words(v, tr) if k == "change" else v for k, v in found.groupdict().items()}
            return tr(phrase).format(**parts)
    return text




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

    def message(self, redo: bool = False, target: int | None = None, tr: Translate = as_written) -> str:
        """What the step did, in the dock's language (`tr`); in English without it."""
        if not self.turns:
            return tr("Nothing to redo there.") if redo else tr("Nothing to undo: the project is already at that point.")
        numbers = [str(n) for n in self.turns]
        listed = numbers[0] if len(numbers) == 1 else tr("{first} and {last}").format(
            first=", ".join(numbers[:-1]), last=numbers[-1])
        several = len(numbers) > 1
        if redo:
            head = (tr("Redid turns {turns}") if several else tr("Redid turn {turns}")).format(turns=listed)
        else:
            head = (tr("Undid turns {turns}") if several else tr("Undid turn {turns}")).format(turns=listed)
        if self.done:
            first = tr("{head}: {changes}.").format(head=head, changes=self._said(self.done, tr))
        elif self.kept:
            first = {(False, False): tr("{head}, but nothing in it could be undone."),
                     (False, True): tr("{head}, but nothing in them could be undone."),
                     (True, False): tr("{head}, but nothing in it could be redone."),
                     (True, True): tr("{head}, but nothing in them could be redone.")}[(redo, several)].format(head=head)
        else:
            first = head + "."
        if target is not None and not redo:
            first = (tr("Back to turn {number}.").format(number=target) if target
                     else tr("Back to before the first turn.")) + " " + first
        parts = [first]
        if self.kept:
            parts.append((tr("Not redone, you changed them since: {changes}.") if redo
                          else tr("Kept your own changes: {changes}.")).format(changes=self._said(self.kept, tr)))
        if self.lost:
            parts.append(tr("Cannot be brought back: {changes}.").format(changes=self._said(self.lost, tr)))
        return " ".join(parts)

    @staticmethod
    def _said(items: list[str], tr: Translate) -> str:
        return "; ".join(in_words(item, tr) for item in unique(items))


def entry_in_words(entry: TurnEntry, tr: Translate = as_written) -> TurnEntry:
    """A row of the history in the dock's language; its title ("Turn 3 · added layer 'NDVI' · moved the map")
    piece by piece. The analyst's request is shown as they wrote it."""
    return dataclasses.replace(entry, title=" · ".join(in_words(piece, tr) for piece in entry.title.split(" · ")),
                               details=[in_words(d, tr) for d in entry.details],
                               warnings=[in_words(w, tr) for w in entry.warnings])


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
    if kind == "ellipsoid":
        return "put the measurement ellipsoid back"
    if kind == "layout":
        return f"put print layout '{change.target}' back as it was" if change.before else \
            f"deleted print layout '{change.target}'"
    return change.description


def entries_of(turns: list[Any]) -> list[TurnEntry]:
    """The history's rows as the dock shows them, newest first (`turns`: undo.record.Turn, oldest first)."""
    rows = []
    shown = [t for t in turns if t.changes]
    current = next((t for t in reversed(shown) if not t.undone), None)
    for turn in reversed(shown):
        by = "by an outside MCP client · " if turn.owner != ANALYST else ""
        rows.append(TurnEntry(turn.number, f"Turn {turn.number} · {by}{summary(turn.changes)}", turn.request,
                              unique([c.description for c in turn.changes]),
                              [f"Cannot be undone: {c.description}" for c in turn.changes if c.irreversible],
                              turn.undone, turn is current))
    return rows


def hand_edits(turns: list[Any], number: int, report: StepReport, now: dict[str, list]) -> list[str]:
    """The analyst's own layer edits since turn `number`, which going back left as they are (`now`: every
    layer's [name, fingerprint] by id)."""
    point = next((t for t in turns if t.number == number), None)
    later = [t for t in turns if t.number > number]
    reference = point.layers_after if point is not None else (later[0].layers_before if later else {})
    touched = " ".join(report.kept)
    notes = []
    for layer_id, (name, print_) in now.items():
        if f"'{name}'" in touched:
            continue  # already named as kept
        if layer_id not in reference:
            notes.append(f"layer '{name}' (you added it)")
        elif reference[layer_id][1] != print_:
            notes.append(f"your changes to layer '{name}'")
    for layer_id, (name, _print) in reference.items():
        if layer_id not in now and f"'{name}'" not in touched:
            notes.append(f"layer '{name}' stays removed (you removed it)")
    return notes
