"""The chat's side of the undo history: one history turn per message the analyst sends, the files a
turn wrote in the outputs folder (read in a worker thread), and going back or forward from the dock."""

from __future__ import annotations

import asyncio
import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Coroutine

from ....agent.dock_text import Translate, as_written
from ....agent.events import UserMessage
from . import states as st
from .history import TurnHistory
from .record import ANALYST, is_turn_id
from .words import StepReport, in_words


@dataclass(frozen=True)
class UndoOutcome:
    undone: bool
    message: str  # in English
    report: StepReport | None = None
    redo: bool = False
    target: int | None = None

    def words(self, tr: Translate = as_written) -> str:
        """The message in the dock's language (`tr`, agent/dock_text.py)."""
        return self.report.message(self.redo, self.target, tr) if self.report is not None else in_words(self.message, tr)


class ChatTurns:
    """The history turn of each chat message (keyed by the message's id, as its events are) and the
    dock's Undo and "Back to here"."""

    def __init__(self, history: TurnHistory, outputs: Path | None = None,
                 start_task: Callable[[Coroutine], Any] | None = None,
                 on_change: Callable[[], None] | None = None) -> None:
        self.history = history
        self._outputs = str(outputs) if outputs else None
        self._start_task = start_task
        self.on_change = on_change or (lambda: None)
        self._current = ""
        self._busy = False
        self._scan: Any = None  # the outputs folder as the turn began (a task)
        self._recording: set = set()  # file records still being read; a step waits for them

    def begin(self, message: UserMessage) -> None:
        """A message was sent: its turn is keyed by the message's id."""
        self._current = message.message_id or uuid.uuid4().hex
        self._busy = True
        self.history.begin_turn(self._current, message.text)
        self._clear_dropped()
        self._scan = None
        if self._outputs and self._start_task is not None:
            self._scan = self._start_task(asyncio.to_thread(st.scan_outputs, self._outputs))

    def busy_changed(self, busy: bool) -> None:
        if busy:
            return
        self._busy = False
        turn_id = self.history.open_turn_id
        scan, self._scan = self._scan, None
        self.history.end_turn(keep_empty=scan is not None)
        if scan is not None and turn_id:
            task = self._start_task(self._record_files(turn_id, scan))
            self._recording.add(task)
            task.add_done_callback(self._recording.discard)
        self.on_change()

    def tool_done(self, event: Any) -> None:
        """Names a move of the map after the place the zoom went to."""
        result = getattr(event, "result", None)
        if getattr(event, "tool_name", "") == "zoom_to_location" and isinstance(result, dict):
            place = result.get("place") or {}
            if place.get("name"):
                self.history.describe_view(f"zoomed to {place['name']}")

    async def _record_files(self, turn_id: str, scan: Any) -> None:
        before = await scan
        after = await asyncio.to_thread(st.scan_outputs, self._outputs)
        new = {name: sig for name, sig in after.items() if name not in before}
        overwritten = {name: sig for name, sig in after.items() if name in before and before[name] != sig}
        self.history.files_written(turn_id, new, overwritten)
        self.on_change()

    @property
    def reading_files(self) -> bool:
        """True while the files of a finished turn are still being read from the outputs folder."""
        return bool(self._recording)

    def current_changed_map(self, _tool_name: str = "") -> bool:
        return self._current in self.history.turn_ids()

    # -- going back and forward ------------------------------------------------------------------
    async def undo(self, message_id: str) -> UndoOutcome:
        """The Undo button of an answer: only the newest turn that is not undone yet."""
        changed = self.history.turn_ids(ANALYST)  # an outside client's calls since do not stand in the way
        if not changed or message_id != changed[-1]:
            return UndoOutcome(False, "Only the most recent turn that changed the map can be undone this way; "
                                      "use the History tab to go further back.")
        turn = self.history.turn(changed[-1])
        return await self._step(turn.number - 1, redo=False, target=None, owner=ANALYST)

    async def back_to(self, number: int) -> UndoOutcome:
        return await self._step(number, redo=False, target=number)

    async def redo_to(self, number: int) -> UndoOutcome:
        return await self._step(number, redo=True, target=number)

    async def _step(self, number: int, redo: bool, target: int | None, owner: str | None = None) -> UndoOutcome:
        if self._busy:
            return UndoOutcome(False, "The assistant is still working on a message; try again when it has answered.")
        if self._recording:
            await asyncio.wait(list(self._recording))
        if redo:  # files first: a layer redone reads its file
            files = StepReport(files=self.history.files_to_redo(number))
            if files.files and self._outputs:
                await asyncio.to_thread(self._move_files, files, True)
            report = self.history.redo_to(number)
            report.done.extend(files.done)
            report.kept.extend(files.kept)
        else:
            report = self.history.revert_to(number, owner)
            if report.files and self._outputs:
                before = await asyncio.to_thread(st.scan_outputs, self._outputs)
                self.history.release_layers_reading({str(Path(self._outputs) / c.target) for _, c in report.files})
                await asyncio.to_thread(self._move_files, report, False, before)
        self.history.save()
        self.on_change()
        return UndoOutcome(bool(report.turns), report.message(redo=redo, target=target), report, redo, target)

    def _move_files(self, report: StepReport, redo: bool, before: dict[str, list[int]] | None = None) -> None:
        """Worker thread: files of undone turns wait in the outputs folder's '.undone' folder for a redo.
        `before`: the folder as it was before the layers reading those files were let go (st.park_files)."""
        by_turn: dict[str, list] = {}
        for turn, change in report.files:
            by_turn.setdefault(turn.turn_id, []).append(change)
        for turn_id, changes in by_turn.items():
            if redo:
                back, blocked = st.unpark_files(self._outputs, turn_id, [c.target for c in changes])
                for change in changes:
                    change.undone = change.target not in back
                report.done.extend(f"put '{n}' back in the outputs folder" for n in back)
                report.kept.extend(f"'{n}' (a file of that name is there now)" for n in blocked)
                continue
            moved, changed, gone = st.park_files(self._outputs, turn_id, {c.target: c.after for c in changes}, before)
            for change in changes:
                change.undone = change.target in moved
            report.done.extend(f"set '{n}' aside in the outputs folder's .undone folder, for a redo" for n in moved)
            report.kept.extend(f"file '{n}' (it changed after the turn)" for n in changed)

    def _clear_dropped(self) -> None:
        """Files parked for turns that can no longer be redone are deleted (worker thread)."""
        dropped, self.history.dropped = self.history.dropped, []
        if dropped and self._outputs and self._start_task is not None:
            folders = [st.parked_folder(self._outputs, turn_id) for turn_id in dropped if is_turn_id(turn_id)]
            self._start_task(asyncio.to_thread(lambda: [shutil.rmtree(f, ignore_errors=True) for f in folders]))
