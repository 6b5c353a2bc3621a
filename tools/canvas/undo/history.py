"""The undo history: what each agent turn changed in the project, kept with the project, reverted to any
earlier point and redone while nothing new was done.

Each change remembers only what it touched (one layer, the map view, a print layout, a file in the
outputs folder) and how that thing was when the turn ended. Going back, a change is undone only if the
thing is still as the turn left it: whatever the analyst changed by hand in between stays, and is named.
The record is plain values (QML, layer XML, extents), written into the project's own entries, so it
survives a plugin reload and a project save and reopen (read back as validated records: `stored`). Files a
turn overwrote are marked as lost.

A turn belongs to whoever made it (`Turn.owner`, see `owners`): a change goes into its maker's turn, and
`undo_last_turn` undoes only the caller's own turns.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any, Callable

from qgis.core import QgsLayerTreeGroup, QgsMapLayer, QgsProject

from . import states as st
from . import stored
from .changes import ChangeActions
from .owners import CALLER
from .record import ANALYST, ENTRY, FAMILY, Change, Turn
from .words import StepReport, TurnEntry, entries_of, hand_edits, undone_words, unique

log = logging.getLogger(__name__)

KEEP_TURNS = 30

class TurnHistory:
    """Turns in order, oldest first. Tools record changes into the open turn."""

    def __init__(self, project: Callable[[], Any] = QgsProject.instance, canvas: Callable[[], Any] | None = None) -> None:
        self._project = project
        self.canvas = canvas  # the map canvas, for the view; set by the plugin, or by the first view change
        self._turns: list[Turn] = []
        self._open: Turn | None = None  # the analyst's chat turn under way
        self._calls: dict[str, list] = {}  # owner → [its call's turn, calls in flight]: outside clients' calls
        self._parked: dict[str, QgsMapLayer] = {}  # layers taken out of the project, kept for undo or redo
        self._next = 1
        self.dropped: list[str] = []  # turns no longer redoable: their parked files may go
        self._looks = st.LookCache()
        self._actions = ChangeActions(project, lambda: self.canvas, self._parked)
        self._then: Callable[[], None] = lambda: None  # shows the history again after a project is opened
        self.load()

    # -- turns --------------------------------------------------------------------------------
    def begin_turn(self, turn_id: str, request: str = "") -> Turn:
        self._close_untracked()
        for turn in [t for t in self._turns if t.undone]:  # a new turn: the undone ones cannot come back
            self._forget(turn)
        project = self._project()
        opened = self._open = Turn(str(turn_id), self._next, request.strip()[:200],
                                   layers_before=self._looks.snapshot(project), layouts_before=st.layouts_of(project))
        self._next += 1
        self._turns.append(opened)
        return opened

    def end_turn(self, keep_empty: bool = False) -> None:
        if self._open is not None:
            self._finish(self._open)
            if not self._open.changes and not keep_empty:
                self._turns.remove(self._open)
            self._open = None
            self._trim()
            self.save()

    @property
    def open_turn_id(self) -> str | None:
        return self._open.turn_id if self._open else None

    def turn_ids(self, owner: str | None = None) -> list[str]:
        return [t.turn_id for t in self._turns if t.changes and not t.undone and owner in (None, t.owner)]

    def begin_call(self, owner: str) -> None:
        """An outside client's call begins: what it changes goes to a turn of its own, never to the analyst's
        open chat turn, and it ends with the call, so nothing the analyst does later is counted as the call's."""
        if owner in self._calls:
            self._calls[owner][1] += 1  # the same client's calls at once share one turn
            return
        project = self._project()
        turn = Turn(f"outside-{uuid.uuid4().hex[:12]}", self._next, layers_before=self._looks.snapshot(project),
                    layouts_before=st.layouts_of(project), owner=owner)
        self._next += 1
        self._turns.append(turn)
        self._calls[owner] = [turn, 1]

    def end_call(self, owner: str) -> None:
        entry = self._calls.get(owner)
        if entry is None:
            return
        entry[1] -= 1
        if entry[1] > 0:
            return
        del self._calls[owner]
        turn = entry[0]
        self._finish(turn)
        if not turn.changes:
            self._turns.remove(turn)
            if turn.number == self._next - 1:
                self._next -= 1  # a call that changed nothing leaves no gap in the turns' numbers
        self._trim()
        self.save()

    def turn(self, turn_id: str) -> Turn | None:
        return next((t for t in self._turns if t.turn_id == turn_id), None)

    def record(self, change: Change) -> None:
        """Into the turn of whoever is calling (CALLER): an outside client's call, or the analyst's chat turn."""
        owner = CALLER.get()
        if owner != ANALYST:
            if owner not in self._calls:  # a call its middleware did not open (it should have)
                self.begin_call(owner)
            self._calls[owner][0].changes.append(change)
            return
        # a tool of the dock's server called outside any chat turn opens one, unique after a reload too
        turn = self._open if self._open is not None else self.begin_turn(f"untracked-{uuid.uuid4().hex[:12]}")
        turn.changes.append(change)

    def describe_view(self, text: str) -> None:
        """Names the open turn's last move of the map ('zoomed to Bonn')."""
        if self._open is not None:
            for change in reversed(self._open.changes):
                if change.kind == "view":
                    change.description = text
                    return

    def files_written(self, turn_id: str, new: dict[str, list[int]], overwritten: dict[str, list[int]]) -> None:
        turn = self.turn(turn_id)
        if turn is None:
            return
        for name, signature in sorted(new.items()):
            turn.changes.append(Change("file_written", f"wrote file '{name}'", name, after=signature))
        for name, signature in sorted(overwritten.items()):
            turn.changes.append(Change("file_overwritten", f"overwrote file '{name}'", name,
                                       after=signature, irreversible=True))
        if not turn.changes and turn is not self._open:
            self._turns.remove(turn)
        self.save()

    def entries(self) -> list[TurnEntry]:
        """The rows of the dock's list, newest first."""
        return entries_of(self._turns)

    # -- going back and forward ------------------------------------------------------------------
    def undo_last_turn(self, owner: str = ANALYST, skip_open: bool = False) -> Turn | None:
        """Undoes `owner`'s newest turn with changes (not its open one when `skip_open`); None if it has none.
        Nobody else's turn is touched: an outside client undoes only its own calls, the chat only the analyst's."""
        if owner == ANALYST:
            self._close_untracked(keep=not skip_open)
        for turn in reversed(self._turns):
            if turn.owner != owner or turn.undone or not turn.changes or self._in_call(turn):
                continue
            if skip_open and turn is self._open:
                continue  # the caller's own turn
            if turn is self._open:
                self.end_turn()
            self._revert_turn(turn, StepReport())
            self.save()
            return turn
        return None

    def _call_turns(self) -> list[Turn]:
        return [entry[0] for entry in self._calls.values()]

    def _in_call(self, turn: Turn) -> bool:
        return any(turn is t for t in self._call_turns())  # identity: turns compare by value

    def others_have_turns(self, owner: str) -> bool:
        return any(t.owner != owner and t.changes and not t.undone for t in self._turns)

    def revert_to(self, number: int, owner: str | None = None) -> StepReport:
        """Undoes every turn after turn `number` (0: all of them; only `owner`'s when given), newest first; files
        are left to the caller."""
        self._close_untracked()
        report = StepReport()
        for turn in reversed(self._turns):
            if (turn.number > number and not turn.undone and turn.changes and turn is not self._open
                    and not self._in_call(turn) and owner in (None, turn.owner)):
                self._revert_turn(turn, report)
        if report.turns:
            report.kept = unique(report.kept + hand_edits(self._turns, number, report,
                                                                  self._looks.snapshot(self._project())))
        self.save()
        return report

    def redo_to(self, number: int) -> StepReport:
        report = StepReport()
        for turn in self._turns:
            if turn.undone and turn.number <= number:
                self._redo_turn(turn, report)
        self.save()
        return report

    def release_layers_reading(self, paths: set[str]) -> None:
        """Before files are set aside: parked layers reading them are let go (a redo rebuilds them from their
        saved definition), so that no GDAL dataset left open writes a file back later (undo_states)."""
        st.release_layers(self._parked, paths)

    def files_to_redo(self, number: int) -> list[tuple[Turn, Change]]:
        return [(t, c) for t in self._turns if t.undone and t.number <= number
                for c in t.changes if c.kind == "file_written" and c.undone]

    def _revert_turn(self, turn: Turn, report: StepReport) -> None:
        if turn.ended is None:
            self._finish(turn)
        ended = turn.ended or {}
        still = {key: self._actions.same(key, self._actions.state(key), ended.get(key))
                 for key in {c.key for c in turn.changes if FAMILY[c.kind] != "file"}}
        for change in reversed(turn.changes):
            if change.kind == "file_overwritten":
                report.lost.append(f"'{change.target}' (overwritten in turn {turn.number})")
            elif change.kind == "file_written":
                report.files.append((turn, change))
            elif not still[change.key]:
                note = self._actions.kept_note(change)
                if note:
                    report.kept.append(note)
            else:
                try:
                    note = self._actions.revert(change)
                except Exception:  # one stale change must not block the rest
                    log.warning("Could not undo: %s", change.description, exc_info=True)
                    report.kept.append(f"{change.description} (could not be undone; see the QGIS log)")
                    continue
                if note:
                    report.kept.append(note)
                else:
                    change.undone = True
                    report.done.append(undone_words(change))
        turn.undone = True
        report.turns.append(turn.number)
        self._settle_layouts(turn)

    def _redo_turn(self, turn: Turn, report: StepReport) -> None:
        first: dict[str, Any] = {}
        for change in turn.changes:
            if change.undone and FAMILY[change.kind] != "file":
                first.setdefault(change.key, change.was)
        still = {key: self._actions.same(key, self._actions.state(key), was) for key, was in first.items()}
        for change in turn.changes:
            if not change.undone:
                continue
            if change.kind == "file_written":
                continue  # put back by the caller, before the layers that read them (files_to_redo)
            if not still[change.key]:
                report.kept.append(change.description)
                continue
            try:
                self._actions.redo(change)
            except Exception:
                log.warning("Could not redo: %s", change.description, exc_info=True)
                report.kept.append(f"{change.description} (could not be redone; see the QGIS log)")
                continue
            change.undone = False
            report.done.append(change.description)
        turn.undone = False
        report.turns.append(turn.number)
        self._settle_layouts(turn)

    def _finish(self, turn: Turn) -> None:
        """The end of a turn: what each change left, the layouts it made or rebuilt, every layer's look."""
        project = self._project()
        if turn.layouts_before is not None:
            for name, xml in sorted(st.layouts_of(project).items()):
                old = turn.layouts_before.get(name)
                if old != xml:
                    words = "made" if old is None else "rebuilt"
                    turn.changes.append(Change("layout", f"{words} print layout '{name}'", name, old, xml,
                                               st._digest(old) if old else None))
            for name, old in turn.layouts_before.items():
                if project.layoutManager().layoutByName(name) is None:
                    turn.changes.append(Change("layout", f"deleted print layout '{name}'", name, old, None,
                                               st._digest(old)))
            turn.layouts_before = None
        canvas = self.canvas() if self.canvas else None
        for change in turn.changes:
            if change.kind == "restyled":
                layer = project.mapLayer(change.target)
                change.after = st.style_of(layer) if layer is not None else None
            elif change.kind == "view" and canvas is not None:
                change.after = st.view_of(canvas, project)
            elif change.kind == "background" and canvas is not None:
                change.after = st.background_of(canvas, project)
            elif change.kind == "ellipsoid":
                change.after = project.ellipsoid()
            elif change.kind == "group_added":
                group = project.layerTreeRoot().findGroup(change.target)
                change.after = {"index": group.parent().children().index(group) if group is not None else 0}
        turn.ended = {c.key: self._actions.state(c.key) for c in turn.changes if FAMILY[c.kind] != "file"}
        turn.layers_after = self._looks.snapshot(project)
        self._settle_layouts(turn)

    def _settle_layouts(self, turn: Turn) -> None:
        """The layouts `turn` made, rebuilt, deleted or put back are its own: the other turns still under way
        take them as they are now, so their end does not count them as theirs too."""
        names = {c.target for c in turn.changes if c.kind == "layout"}
        if not names:
            return
        now = st.layouts_of(self._project())
        for other in [self._open, *self._call_turns()]:
            if other is None or other is turn or other.layouts_before is None:
                continue
            for name in names:
                if name in now:
                    other.layouts_before[name] = now[name]
                else:
                    other.layouts_before.pop(name, None)

    def _close_untracked(self, keep: bool = False) -> None:
        if self._open is not None and self._open.turn_id.startswith("untracked-") and not keep:
            self.end_turn()

    def _forget(self, turn: Turn) -> None:
        for change in turn.changes:
            if change.kind == "layer_added" and change.undone:
                self._parked.pop(change.target, None)
        self._turns.remove(turn)
        self.dropped.append(turn.turn_id)

    def _trim(self) -> None:
        while len(self._turns) > KEEP_TURNS:
            oldest = next((t for t in self._turns if t is not self._open and not self._in_call(t)), None)
            if oldest is None:
                return
            self._forget(oldest)

    # -- what the canvas tools change ------------------------------------------------------------
    def layer_added(self, layer: QgsMapLayer) -> None:
        self.record(Change("layer_added", f"added layer '{layer.name()}'", layer.id()))

    def group_added(self, group: QgsLayerTreeGroup) -> None:
        self.record(Change("group_added", f"added group '{group.name()}'", group.name()))

    def take_layer(self, layer: QgsMapLayer) -> None:
        """Removes `layer` from the project but keeps it, so undo can put it back where it was."""
        project = self._project()
        change = Change("layer_removed", f"removed layer '{layer.name()}'", layer.id(),
                        {"xml": st.layer_xml(layer), "where": st.tree_position(project, layer.id())},
                        was=st.fingerprint(layer))
        self._parked[layer.id()] = project.takeMapLayer(layer)
        self.record(change)

    def renderer_changing(self, layer: QgsMapLayer) -> None:
        """Call before changing a layer's renderer, opacity or labels."""
        self.record(Change("restyled", f"restyled '{layer.name()}'", layer.id(), st.style_of(layer),
                           was=st.fingerprint(layer)))

    def layout_changing(self) -> None:
        """Call before making, emptying or rebuilding a print layout: a call of the dock's server outside any chat
        turn opens a turn of its own, so the layout is kept as it was and the turn's end records the change (an
        outside client's call has its turn already: begin_call)."""
        if CALLER.get() == ANALYST and self._open is None:
            self.begin_turn(f"untracked-{uuid.uuid4().hex[:12]}")

    def layout_changed(self) -> None:
        """Call after a layout change: a turn opened by layout_changing ends here, so History shows it at once."""
        if CALLER.get() == ANALYST:
            self._close_untracked()

    def view_changing(self, canvas: Any) -> None:
        """Call before moving the canvas or changing its CRS."""
        self.canvas = self.canvas or (lambda: canvas)
        view = st.view_of(canvas, self._project())
        self.record(Change("view", "moved the map", before=view, was=view))

    def background_changing(self, canvas: Any) -> None:
        self.canvas = self.canvas or (lambda: canvas)
        colours = st.background_of(canvas, self._project())
        self.record(Change("background", "changed the map background", before=colours, was=colours))

    def ellipsoid_changing(self) -> None:
        before = self._project().ellipsoid()
        self.record(Change("ellipsoid", "changed the measurement ellipsoid", before=before, was=before))

    # -- kept with the project -------------------------------------------------------------------
    def save(self) -> None:
        project = self._project()
        text = stored.dumps([t for t in self._turns if t is not self._open and not self._in_call(t)], self._next)
        if project.readEntry(*ENTRY)[0] != text:
            project.writeEntry(*ENTRY, text)

    def load(self) -> None:
        """The history kept in the project (after a plugin reload, or when a project is opened), read as
        records: what a crafted project names beyond them is dropped (`stored`)."""
        self._turns, self._open, self._calls = [], None, {}
        self._parked.clear()
        self._next = 1
        text, found = self._project().readEntry(*ENTRY)
        if found and text:
            self._turns, self._next = stored.loads(text)

    def follow_project(self, project: Any, then: Callable[[], None] | None = None) -> Callable[[], None]:
        """Reads the history again when a project is opened, empties it when the project is closed (and
        calls `then`, to show it); returns the function that stops following."""
        self._then = then or (lambda: None)
        project.readProject.connect(self._project_read)
        project.cleared.connect(self._project_cleared)

        def stop() -> None:
            self._looks.stop()
            for signal, slot in ((project.readProject, self._project_read), (project.cleared, self._project_cleared)):
                try:
                    signal.disconnect(slot)
                except (TypeError, RuntimeError):
                    pass
        return stop

    def _project_read(self, *_args: Any) -> None:
        self.load()
        self._then()

    def _project_cleared(self) -> None:
        self._turns, self._open, self._next, self._calls = [], None, 1, {}
        self._parked.clear()
        self._looks.stop()
        self._then()
