"""Runs agent turns on the qasync loop and hands their events to the widgets, text batched.

Not a widget: it owns the AgentLoop of the open session, the running turn task, Stop and the
ask-user answers, and it coalesces streamed text so a fast model cannot flood the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from qgis.PyQt.QtCore import QObject, pyqtSignal

from ..agent.chat_slot import chat_slot
from ..agent.events import AgentEvent, Content, Done, Error, Notice, Thinking, ToolResult, UserMessage
from ..agent.trust import ChatTrust
from .event_bridge import EventBridge
from .i18n import tr

log = logging.getLogger(__name__)

MAX_REPAINTS_PER_S = 30
# How long Stop waits for the loop to wind down by itself before cancelling the task.
STOP_GRACE_S = 0.3

LoopFactory = Callable[[Optional[str]], Any]  # session_id (None: new) -> AgentLoop
ContextSource = Callable[[], Any]  # -> MapContext | None
READ_MAP = object()  # ChatSession.send's default: read the map context from the canvas now


class TextBatcher:
    """Joins consecutive text fragments of one kind and releases them at most `rate` times a
    second; any other event first releases what is pending, so the order never changes."""

    def __init__(self, emit: Callable[[AgentEvent], None], rate: float = MAX_REPAINTS_PER_S):
        self._emit = emit
        self._interval = 1.0 / rate
        self._pending: list[str] = []
        self._kind: tuple[type, int] | None = None
        self._last_flush = 0.0
        self._timer: asyncio.TimerHandle | None = None

    def push(self, event: AgentEvent) -> None:
        kind = _fragment_kind(event)
        if kind is None:
            self.flush()
            self._emit(event)
            return
        if self._kind is not None and kind != self._kind:
            self.flush()
        self._kind = kind
        self._pending.append(event.text)
        wait = self._last_flush + self._interval - time.monotonic()
        if wait <= 0:
            self.flush()
        elif self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(wait, self.flush)

    def flush(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self._pending:
            return
        text = "".join(self._pending)
        kind_type, step = self._kind
        self._pending, self._kind = [], None
        self._last_flush = time.monotonic()
        self._emit(Thinking(step, text) if kind_type is Thinking else Content(text))


def _fragment_kind(event: AgentEvent) -> tuple[type, int] | None:
    if isinstance(event, Thinking):
        return (Thinking, event.step)
    if isinstance(event, Content) and not event.is_complete:
        return (Content, 0)
    return None


class ChatSession(QObject):
    """The conversation the dock shows: one AgentLoop at a time, one turn at a time."""

    busy_changed = pyqtSignal(bool)
    map_changed = pyqtSignal(str)  # message_id of a finished turn whose tools changed the map
    session_changed = pyqtSignal(str)  # session_id now open ("" for a new, unsaved one)
    queue_changed = pyqtSignal(object)  # agent.chat_slot.QueuePlace while waiting for a slot; None once running
    trust_changed = pyqtSignal(object)  # the chat's agent.trust.ChatTrust: its level or what is not asked again

    def __init__(self, loop_factory: LoopFactory, *, context_source: ContextSource | None = None,
                 changes_map: Callable[[str], bool] | None = None, gate: Any = None,
                 max_repaints_per_s: float = MAX_REPAINTS_PER_S, parent: QObject | None = None):
        super().__init__(parent)
        self.bridge = EventBridge(self)
        self._loop_factory = loop_factory
        self._context_source = context_source
        self._changes_map = changes_map or (lambda tool_name: False)
        self._gate = gate  # ConcurrencyGate or None (a laptop: no queue)
        self._agent: Any = None
        self._session_id: str | None = None
        self._task: asyncio.Task | None = None
        self._batcher = TextBatcher(self.bridge.emit_event, max_repaints_per_s)
        self._agent_running = False  # False while a turn still waits for its slot
        self.trust = self._new_trust()

    def _new_trust(self) -> ChatTrust:
        """Every chat starts asking before changes, with nothing waved through (agent/trust.py)."""
        trust = ChatTrust()
        trust.on_change = lambda: self.trust_changed.emit(trust)
        return trust

    @property
    def session_id(self) -> str | None:
        return self._session_id

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    def map_context(self) -> Any:
        if self._context_source is None:
            return None
        try:
            return self._context_source()
        except Exception:  # a broken canvas must not stop the user from chatting
            log.exception("could not read the map context")
            return None

    def send(self, text: str, context: Any = READ_MAP) -> asyncio.Task | None:
        """Starts a turn. The stream opens with the message's UserMessage event (`bridge.user_message`),
        whose id the turn's every later event and its Done carry. `context`: the map context as the
        caller read it (None: none sent); by default it is read from the canvas now."""
        text = text.strip()
        if not text or self.busy:
            return None
        if context is READ_MAP:
            context = self.map_context()
        said = UserMessage(text, uuid.uuid4().hex, time.time())
        self._batcher.push(said)
        self._task = asyncio.ensure_future(self._run_turn(said, context))
        self.busy_changed.emit(True)
        return self._task

    def stop(self) -> None:
        """Asks the loop to stop; cancels the task if it has not ended within STOP_GRACE_S."""
        if not self.busy:
            return
        task = self._task
        if not self._agent_running:  # still waiting for a slot: nothing runs yet
            task.cancel()
            return
        self._agent.cancel()
        asyncio.get_running_loop().call_later(STOP_GRACE_S, lambda: task.done() or task.cancel())

    def answer(self, request_id: str, choice: str) -> None:
        if self._agent is not None:
            self._agent.answer(request_id, choice)

    async def open(self, session_id: str | None) -> None:
        """Switches the agent to another stored session (None: a new one)."""
        await self.close_agent()
        self._session_id = session_id
        self.trust = self._new_trust()
        self.trust_changed.emit(self.trust)
        self.session_changed.emit(session_id or "")

    async def close_agent(self) -> None:
        if self.busy:
            self.stop()
            await asyncio.wait([self._task], timeout=2 * STOP_GRACE_S + 1)
        if self._agent is not None:
            agent, self._agent = self._agent, None
            try:
                await agent.aclose()
            except Exception:
                log.exception("AgentLoop.aclose failed")

    def shutdown(self) -> asyncio.Future | None:
        """For the plugin's unload (which cannot await): stops the turn now and closes the agent
        in the background; returns that closing task so a caller that can wait may do so."""
        agent, task = self._agent, self._task
        self._agent = None
        if task is not None and not task.done():
            if agent is None or not self._agent_running:
                task.cancel()
            else:
                agent.cancel()  # one cancel only: a second one would interrupt the stream's closing
        if agent is None:
            return None
        return asyncio.ensure_future(_close_after(agent, task))

    async def _run_turn(self, said: UserMessage, context: Any) -> None:
        progress = _TurnProgress()
        if self._session_id is None:  # named now, so the gate and the store agree on it
            self._session_id = uuid.uuid4().hex
            self.session_changed.emit(self._session_id)
        try:
            async with chat_slot(self._gate, self._session_id, self.queue_changed.emit,
                                 lambda notice: self._batcher.push(Notice(notice)), tr):
                await self._converse(said, context, progress)
        except asyncio.CancelledError:
            self._batcher.flush()
            if not progress.finished:  # the loop never said so: tell the user the turn stopped
                self._batcher.push(Done(self._session_id, said.message_id, progress.text(), time.time(),
                                        stopped=True))
        except Exception as exc:  # the dock must survive whatever the turn raises
            log.exception("the turn failed")
            self._batcher.push(Error(tr("The turn failed: {error}").format(error=exc), recoverable=True))
            if not progress.finished:
                self._batcher.push(Done(self._session_id, said.message_id, progress.text(), time.time()))
        finally:
            self._agent_running = False
            self._batcher.flush()
            self.busy_changed.emit(False)

    async def _converse(self, said: UserMessage, context: Any, progress: _TurnProgress) -> None:
        if self._agent is None:
            self._agent = self._loop_factory(self._session_id)
        self._agent.trust = self.trust  # the level the dock shows is the one the agent obeys
        self._agent_running = True
        async for event in self._agent.run(said.text, context, message_id=said.message_id):
            if isinstance(event, ToolResult) and self._changes_map(event.tool_name):
                progress.changed_map = True
            if isinstance(event, Content) and not event.is_complete:
                progress.parts.append(event.text)
            self._batcher.push(event)
            if isinstance(event, Done):
                progress.finished = True
                if event.session_id and event.session_id != self._session_id:
                    self._session_id = event.session_id
                    self.session_changed.emit(event.session_id)
                if progress.changed_map:  # after Done, so the answer bubble knows its message_id
                    self.map_changed.emit(event.message_id)


async def _close_after(agent: Any, task: asyncio.Task | None) -> None:
    if task is not None and not task.done():
        await asyncio.wait([task], timeout=2 * STOP_GRACE_S + 1)
    await agent.aclose()


@dataclass
class _TurnProgress:
    parts: list[str] = field(default_factory=list)
    finished: bool = False
    changed_map: bool = False

    def text(self) -> str:
        return "".join(self.parts)
