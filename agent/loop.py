"""AgentLoop: the public face of the agent core, used by the dock and the tests.

    loop = AgentLoop(provider, server, settings, session_store=store)
    async for event in loop.run("NDVI of the selected parcel", context):
        ...                         # AgentEvent from agent/events.py, ending with Done
    loop.answer(request_id, "Yes, run it")   # resumes an AskUser pause
    loop.cancel()                            # stops at once; Done(stopped=True) ends the run
    await loop.aclose()

The work of a run happens in its own task that feeds a queue, so cancel() can stop it in
the middle of an LLM stream or a tool call while the caller is waiting for an event.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from typing import Any, AsyncIterator

from .config import Settings
from .context_window import ContextTooSmall, TokenEstimator
from .conversation import ConversationMemory
from .dock_text import Said, say, translatable
from .events import AgentEvent, AskUser, Content, Done, Error, Notice, Thinking, ToolResult, UserMessage
from .llm.errors import LLMError
from .llm.types import ChatOptions, Provider, ToolSpec
from .longterm import memories_note, recall
from .map_context import MapContext
from .permissions import Policy
from .redaction import redacted_in
from .stores.base import MemoryStore, SessionStore
from .system_prompt import build_system_prompt, collections_brief
from .tool_host import ToolHost, ToolHostError
from .tool_ranking import ToolSelector, ToolText
from .trust import ChatTrust
from .turn import ProtocolNotices, TurnPorts, TurnRunner, TurnState
from .turn_stats import PromptCache
from .visible_tools import ToolSet

log = logging.getLogger(__name__)
_END = object()
COLLECTIONS_RESOURCE = "collections://list"


class AgentLoop:
    def __init__(self, provider: Provider, server: Any, settings: Settings | None = None, *,
                 session_id: str | None = None, memory: ConversationMemory | None = None,
                 memory_store: MemoryStore | None = None, embed: Any = None,
                 session_store: SessionStore | None = None, user: str = "default"):
        self.provider = provider
        self.settings = settings or Settings()
        self.session_id = session_id or uuid.uuid4().hex
        self.memory = memory if memory is not None else ConversationMemory()
        self._memory_given = memory is not None
        self.memory_store = memory_store
        self.session_store = session_store
        self.user = user
        self.embed = embed or getattr(provider, "embed", None)
        self.options = ChatOptions.from_settings(self.settings)
        self.tools = ToolHost(server)
        # a custom embed function may use any model: only the provider's own is shared
        own_embed = embed is None or embed == getattr(provider, "embed", None)
        embedding_model = getattr(provider, "embed_model", self.settings.embedding_model) if own_embed else ""
        self.selector = ToolSelector(self.embed, top_k=self.settings.tool_top_k, embedding_model=embedding_model)
        self.tool_set = ToolSet(self.selector, self.embed, mode=self.settings.tool_set,
                                top_k=self.settings.tool_top_k, embedding_model=embedding_model,
                                context_window=self.settings.num_ctx)
        self.estimator = TokenEstimator()
        self.prompt_cache = PromptCache()  # what the model's KV cache holds of this chat's last request
        self.policy = Policy(rules={}, exploration_budget=self.settings.exploration_budget)
        self.trust = ChatTrust()  # the chat's trust level; the dock hands its own (ui/chat_session.py)
        self.system_prompt = ""
        self.protocols = ProtocolNotices()  # the tool-calling protocol last announced to the user
        self.log: list[dict[str, Any]] = []  # the session log: every event shown, fragments joined
        self._specs: dict[str, ToolSpec] = {}
        self._ready = False
        self._queue: asyncio.Queue | None = None
        self._task: asyncio.Task | None = None
        self._cancelled: asyncio.Task | None = None
        self._pending: dict[str, asyncio.Future] = {}
        self._turn: TurnState | None = None

    # ---- public API ----------------------------------------------------------------------
    async def run(self, message: str, context: MapContext | None = None,
                  message_id: str = "") -> AsyncIterator[AgentEvent]:
        """One message's turn. `message_id`: the id the UI already gave the message's UserMessage event
        (a new one when empty); the turn's log and its Done carry the same id."""
        if self._task is not None and not self._task.done():
            raise RuntimeError("A request is already running in this chat; wait for it or stop it first.")
        queue: asyncio.Queue = asyncio.Queue()
        self._queue = queue
        state = self._turn = TurnState(message_id=message_id) if message_id else TurnState()
        task = asyncio.create_task(self._produce(message, context, queue, state), name="stacgis-agent-turn")
        self._task = task
        finished = False
        try:
            while True:
                event = await queue.get()
                if event is _END:
                    break
                yield event
                if isinstance(event, Done):
                    finished = True
            if not finished:  # the task was cancelled before it could say so
                yield await self._stopped(state)
        finally:
            if not task.done():  # the caller stopped iterating: do not leave the turn running
                self._cancel_once(task)
                await asyncio.gather(task, return_exceptions=True)
                self._close_memory()

    def answer(self, request_id: str, choice: str) -> None:
        """The user's answer to an AskUser event; unknown or stale ids are ignored."""
        future = self._pending.get(request_id)
        if future is not None and not future.done():
            future.set_result(choice)
        else:
            log.info("answer for %s ignored: nothing is waiting for it", request_id)

    def cancel(self) -> None:
        task = self._task
        if task is not None and not task.done():
            self._cancel_once(task)

    def _cancel_once(self, task: asyncio.Task) -> None:
        # A second cancel would interrupt the provider while it closes the HTTP stream, leaving
        # the stream open and the model generating.
        if task is not self._cancelled:
            self._cancelled = task
            task.cancel()

    async def aclose(self) -> None:
        self.cancel()
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)
        await self.tools.aclose()

    # ---- handed to the turn ---------------------------------------------------------------
    def _ports(self) -> TurnPorts:
        return TurnPorts(provider=self.provider, options=self.options, settings=self.settings,
                         session_id=self.session_id, memory=self.memory, policy=self.policy, tools=self.tools,
                         specs=self._specs, selector=self.selector, embed=self.embed, estimator=self.estimator,
                         protocols=self.protocols, emit=self._emit, ask=self._ask, tool_set=self.tool_set,
                         prompt_cache=self.prompt_cache, trust=self.trust)

    def _emit(self, event: Any) -> None:
        self._log_event(event)
        if self._queue is None:  # our own bug: the turn's ports are used only while run() reads the queue
            raise RuntimeError(f"{type(event).__name__} emitted outside a turn")
        self._queue.put_nowait(event)

    async def _ask(self, request: AskUser) -> str | None:
        """Emits the question and waits for `answer()`; None after the timeout."""
        future = asyncio.get_running_loop().create_future()
        self._pending[request.request_id] = future
        self._emit(request)
        try:
            return await asyncio.wait_for(future, timeout=self.settings.ask_user_timeout_s)
        except asyncio.TimeoutError:
            self._emit(_notice(say(translatable("No answer within {seconds} s; going on without one."),
                                   seconds=f"{self.settings.ask_user_timeout_s:g}")))
            return None
        finally:
            self._pending.pop(request.request_id, None)

    # ---- the turn task -------------------------------------------------------------------
    async def _produce(self, message: str, context: MapContext | None, queue: asyncio.Queue,
                       state: TurnState) -> None:
        try:
            await self._ensure_ready()
            # Prompt layout (agent/system_prompt.py): what is volatile (memories, the map) rides
            # with the user's message, after the history, so every earlier token stays cached.
            said = message.strip()
            map_block = ""
            if context is not None and self.settings.send_map_context and context.to_prompt():
                map_block = "\n\n" + context.to_prompt()
            self.memory.add_user(said + map_block)
            self._log_event(UserMessage(message, state.message_id, time.time()))
            await self._save()  # the message is safe before anything else can fail
            recalled = await self._recall(message)
            if recalled:
                self.memory.replace_content(len(self.memory) - 1, said + recalled + map_block)
            head = [{"role": "system", "content": self.system_prompt}]
            await TurnRunner(self._ports(), state).run(message, context, head)
            await asyncio.shield(self._save())  # a stop pressed just after the answer must not lose it
        except asyncio.CancelledError:
            raise  # run() reports the stop and saves
        except (LLMError, ToolHostError) as exc:
            self._fail(state, exc.said, str(exc), recoverable=True)
            await self._save()
        except ContextTooSmall as exc:
            self._fail(state, exc.said, str(exc), recoverable=False)
            await self._save()
        except Exception as exc:  # our own bug: stop loudly, keep the UI alive
            log.exception("agent turn failed")
            said = say(translatable("Internal error in the agent ({error}). The details are in the QGIS log (STAC "
                                    "GIS Agent tab); please report them."), error=f"{type(exc).__name__}: {exc}")
            self._fail(state, said, said.text(), recoverable=False)
            await self._save()
        finally:
            queue.put_nowait(_END)

    def _fail(self, state: TurnState, said: Said, message: str, recoverable: bool) -> None:
        self._close_memory("[interrupted by an error]")
        self._emit(Error(message, recoverable=recoverable, said=said))
        self._emit(Done(self.session_id, state.message_id, "", time.time(), state.usage(self.options.num_ctx)))

    async def _stopped(self, state: TurnState) -> Done:
        """The end of a cancelled turn: history without dangling calls, saved, reported."""
        partial = self._close_memory()
        done = Done(self.session_id, state.message_id, partial, time.time(),
                    state.usage(self.options.num_ctx), stopped=True)
        self._log_event(done)
        await self._save()
        return done

    def _close_memory(self, note: str = "[stopped by the user]") -> str:
        self.memory.close_dangling_calls()
        partial = self._turn.streamed.strip() if self._turn else ""
        if partial:
            self.memory.add_assistant({"role": "assistant", "content": f"{partial} {note}"})
            self._turn.streamed = ""
        return partial

    async def _ensure_ready(self) -> None:
        """Once per session: tools, policy, selection index, system prompt, stored history."""
        if self._ready:
            return
        await self.tools.start()
        tools = list(self.tools.tools.values())
        self.policy = Policy.from_tools(tools, exploration_budget=self.settings.exploration_budget)
        self._specs = _format_tools(tools)
        self.tool_set.measure(self._specs, self.estimator.estimate)
        await self.selector.index(ToolText(t.name, t.description or "") for t in tools)
        if not self.selector.embeddings_ok and tools:
            self._emit(_notice(say(translatable("Tool embeddings are unavailable (is the embedding model '{model}' "
                                                "pulled?); choosing tools by keywords."),
                                   model=self.settings.embedding_model)))
        self.system_prompt = build_system_prompt(self.settings.max_steps, self.settings.catalogs,
                                                 resources=await self._preloaded_resources(),
                                                 held_back=self.tool_set.holds_back)
        if self.session_store is not None and not self._memory_given:
            try:
                record = await self.session_store.get_or_create(self.session_id, user=self.user)
                if record.memory:
                    self.memory = ConversationMemory.from_dict(record.memory)
                self.log = list(record.events)
            except Exception as exc:
                log.warning("could not load session %s: %s", self.session_id, exc)
                self._emit(_notice(say(translatable("The conversation store cannot be opened ({error}). This chat "
                                                    "goes on but is not saved until that is fixed."), error=exc)))
        self._ready = True

    async def _preloaded_resources(self) -> list[str]:
        """The configured catalogs' collections, read once so the model need not look them up."""
        text = await self.tools.read_text(COLLECTIONS_RESOURCE)
        brief = collections_brief(text) if text else ""
        return [brief] if brief else []

    async def _recall(self, message: str) -> str:
        """Relevant long-term memories as a block to append to the user's message ("" when none)."""
        if self.memory_store is None or self.embed is None:
            return ""
        try:
            hits = await recall(self.memory_store, self.embed, self.user, message, model=self.settings.embedding_model)
        except Exception as exc:  # long-term memory is a bonus, never a blocker
            log.warning("long-term memory lookup failed: %s", exc)
            return ""
        note = memories_note(hits)
        return "\n\n" + note if note else ""

    async def _save(self) -> None:
        if self.session_store is None:
            return
        try:
            await self.session_store.save(self.session_id, self.memory.to_dict(), redacted_in(self.log), user=self.user)
        except Exception as exc:
            log.warning("could not save session %s: %s", self.session_id, exc)
            if self._queue is not None:
                self._emit(_notice(say(translatable("The conversation could not be saved ({error}). It stays on "
                                                    "screen; check the session store settings."), error=exc)))

    def _log_event(self, event: AgentEvent) -> None:
        """Appends to the session log, joining streamed fragments into one entry."""
        if not event.logged:
            return
        entry = event.to_dict()
        last = self.log[-1] if self.log else None
        if isinstance(event, Thinking) and last and last["type"] == Thinking.kind and last["step"] == event.step:
            last["text"] += event.text
            return
        if isinstance(event, Content):
            if not event.is_complete:
                return  # the complete answer follows as one entry
        if isinstance(event, ToolResult):
            entry["result"] = _loggable_result(event.result)
        self.log.append(redacted_in(entry))  # the saved session travels (bug reports): no signed URL, no token


LOG_RESULT_CHARS = 20_000  # a tool result kept whole in the session log up to this size


def _loggable_result(result: Any) -> Any:
    """The session is rewritten after every message: a huge tool result (a 10 MB item) is kept as
    a preview so saving stays fast and the stored session small."""
    try:
        text = json.dumps(result, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = str(result)
    if len(text) <= LOG_RESULT_CHARS:
        return result
    return {"truncated": True, "size_chars": len(text), "preview": text[:LOG_RESULT_CHARS]}


def _format_tools(tools: list[Any]) -> dict[str, ToolSpec]:
    from .llm.schema import format_tools  # owned by the LLM provider layer

    return {spec["function"]["name"]: spec for spec in format_tools(tools)}


def _notice(said: Said) -> Notice:
    return Notice(said.text(), said)
