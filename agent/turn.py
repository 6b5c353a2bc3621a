"""One user request, step by step: THINK -> ACT -> OBSERVE -> ... -> RESPOND.

A step streams the model, emits thinking/content as it arrives, then either runs the tool
calls (back to THINK) or finishes with the answer. Guards: step limit, exploration budget,
context window, continuation of answers cut by the length limit.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import time
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Mapping

from .context_window import ContextFitter, fitted_said
from .dock_text import Said, say, translatable
from .events import (
    AskUser,
    Content,
    Done,
    IterationLimit,
    Notice,
    ProviderSwitched,
    Thinking,
    ToolStart,
    Usage,
)
from .llm.errors import cut_answer
from .llm.types import (
    ChatResponse,
    ContentChunk,
    FinalChunk,
    Message,
    ProtocolChunk,
    ProviderSwitchChunk,
    ThinkingChunk,
    ToolSpec,
)
from .permissions import STATE_MARKER
from .system_prompt import ANSWER_NOW, CONTINUE, SUMMARISE_NOW
from .tool_calls import ASK_USER_SPEC, ToolCallRunner, is_approval
from .trust import READ_ONLY_NOTE, ChatTrust

if TYPE_CHECKING:
    from .config import Settings
    from .context_window import TokenEstimator
    from .conversation import ConversationMemory
    from .llm.types import ChatOptions, Provider
    from .map_context import MapContext
    from .permissions import Policy
    from .tool_host import ToolHost
    from .tool_ranking import ToolSelector
    from .turn_stats import PromptCache
    from .visible_tools import ToolSet

log = logging.getLogger(__name__)

MAX_CONTINUATIONS = 2
MAX_CALLS_PER_STEP = 10  # a runaway model asking for 1,000 calls must not flood the feed and the context
PROJECT_LAYERS = "layers://project"  # resource of the tool server listing the project's layers
KEEP_EXPLORING, STOP_EXPLORING = "Keep exploring", "Stop and summarise"
_MARKUP = re.compile(r"<think>.*?(</think>|$)|<tool_call>.*?(</tool_call>|$)|<function=[^>]*>.*?(</function>|$)",
                     re.DOTALL)


@dataclass
class TurnState:
    message_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    started: float = field(default_factory=time.perf_counter)
    steps: int = 0
    tool_calls: int = 0
    prompt_tokens: int = 0
    eval_tokens: int = 0
    eval_ns: int = 0
    reread_tokens: int = 0  # prompt tokens not served from the model's KV cache (agent/turn_stats.py)
    prompt_eval_ns: int = 0
    first_token_ms: float = 0.0
    context_used: int = 0  # the last step's prompt + answer: what fills the window, unlike the sums above
    streamed: str = ""  # content shown so far in the current step (kept if the user stops)

    def usage(self, num_ctx: int) -> Usage:
        return Usage(prompt_tokens=self.prompt_tokens, eval_tokens=self.eval_tokens, steps=self.steps,
                     tool_calls=self.tool_calls, wall_ms=round((time.perf_counter() - self.started) * 1000, 2),
                     eval_ms=round(self.eval_ns / 1e6, 2), context_window=num_ctx,
                     reread_tokens=self.reread_tokens if self.steps else -1,
                     prompt_eval_ms=round(self.prompt_eval_ns / 1e6, 2), first_token_ms=self.first_token_ms,
                     context_used=self.context_used)


class ProtocolNotices:
    """Remembers the tool-calling protocol last announced, so the user hears only of changes;
    it outlives a turn (one per chat)."""

    def __init__(self, announced: str = "native"):
        self.announced = announced

    def notice_for(self, chunk: ProtocolChunk) -> Notice | None:
        if chunk.protocol == self.announced:
            return None
        self.announced = chunk.protocol
        if chunk.protocol == "constrained":
            why = f" ({chunk.reason})" if chunk.reason else ""
            said = say(translatable("Tool calling for {model}: constrained JSON{why}. The tools are described in the "
                                    "prompt and each reply is forced to be one JSON action."), model=chunk.model, why=why)
        else:
            said = say(translatable("Tool calling for {model}: the model's native tool calls."), model=chunk.model)
        return Notice(said.text(), said)


@dataclass
class TurnPorts:
    """Everything a turn uses from the chat it runs in, handed over explicitly: the turn never
    sees the AgentLoop, so the two modules do not import each other."""

    provider: Provider
    options: ChatOptions
    settings: Settings
    session_id: str
    memory: ConversationMemory
    policy: Policy
    tools: ToolHost
    specs: Mapping[str, ToolSpec]  # every tool the server offers, by name, in the model's format
    selector: ToolSelector
    embed: Callable[[list[str]], Awaitable[Any]] | None
    estimator: TokenEstimator
    protocols: ProtocolNotices
    emit: Callable[[Any], None]  # shows an event to the user and logs it
    ask: Callable[[AskUser], Awaitable[str | None]]  # emits the question, waits for the answer (None: timeout)
    tool_set: ToolSet  # which tools the model sees: decided rarely, only appended (agent/visible_tools.py)
    prompt_cache: PromptCache  # what the model's KV cache holds of the chat's last request
    trust: ChatTrust = field(default_factory=ChatTrust)  # read only or ask, and what is not asked again (agent/trust.py)


class TurnRunner:
    def __init__(self, ports: TurnPorts, state: TurnState):
        self.ports = ports
        self.state = state
        self.settings = ports.settings
        self.memory = ports.memory
        self.policy = ports.policy
        self.fitter = ContextFitter(ports.options.num_ctx, ports.estimator)

    def emit(self, event: Any) -> None:
        self.ports.emit(event)

    async def run(self, message: str, context: MapContext | None, head: list[Message]) -> None:
        ports, state, settings = self.ports, self.state, self.settings
        if context is not None:  # without one, the state of the previous request still holds
            self.policy.set_state(context.states())
        self._note_state(self.policy.state_note())  # rides with the user's message, the newest one
        if ports.trust.read_only:
            self._note_state(READ_ONLY_NOTE)
        self.policy.reset_exploration()
        turn_start = len(self.memory) - 1
        runner = ToolCallRunner(ports.tools, self.policy, self.memory, self._emit_counted, ports.ask,
                                on_change=self._refresh_layers, trust=ports.trust)
        max_steps = max(1, settings.max_steps)
        last_thought = ""
        summarise = False
        for step in range(1, max_steps + 1):
            state.steps = step
            answer_now = summarise or step >= max_steps - 1
            # the same tools at every step, even the last (the tail says "answer now"): the tool
            # list sits at the top of the prompt, and changing it makes the model re-read everything
            specs = await self._select_tools(message, last_thought)
            tail = [{"role": "system", "content": SUMMARISE_NOW if summarise else ANSWER_NOW}] if answer_now else []
            messages, actions, turn_start = self.fitter.fit(head, self.memory, turn_start, specs, tail)
            if actions:
                self.emit(Notice("To fit the model's context window I " + " and ".join(actions) + ".",
                                 fitted_said(self.fitter.said_actions)))
            response = await self._complete(step, messages, specs)
            last_thought = response.thinking[-600:]
            if len(response.tool_calls) > MAX_CALLS_PER_STEP and not answer_now:
                said = say(translatable("The model asked for {count} tool calls in one step; only the first {limit} "
                                        "run. It can ask for more in its next step."),
                           count=len(response.tool_calls), limit=MAX_CALLS_PER_STEP)
                self.emit(Notice(said.text(), said))
                response = dataclasses.replace(response, tool_calls=response.tool_calls[:MAX_CALLS_PER_STEP])
            if response.tool_calls and not answer_now:
                self.memory.add_assistant(response.as_message())
                state.streamed = ""
                note = self.policy.state_note()
                await runner.run_all(step, response.tool_calls)
                if self.policy.state_note() != note:  # a layer appeared or went: say so in the newest message
                    self._note_state(self.policy.state_note() or STATE_MARKER + "every tool can run now.")
                if self.policy.exploration_exhausted():
                    summarise = not await self._keep_exploring()
                continue
            if response.tool_calls:  # tools were withheld but the model still asked for them
                self.memory.add_assistant(response.as_message())
                self.memory.close_dangling_calls("Not run: no more tools in this request. Answer now.")
                state.streamed = ""
                if step < max_steps:
                    continue
                break
            await self._finish(response.content, response, messages)
            return
        self.emit(IterationLimit(steps=state.steps, limit=max_steps))
        summary = self._best_effort_summary(max_steps)
        self.memory.add_assistant({"role": "assistant", "content": summary})
        self.emit(Content(summary, is_complete=True))
        self._done(summary)

    def _note_state(self, note: str) -> None:
        """Appends what the tools can do now to the newest message (the user's, or a tool result)."""
        if not note or not len(self.memory):
            return
        index = len(self.memory) - 1
        last = self.memory.messages[index]
        if last.get("role") in ("user", "tool"):
            self.memory.replace_content(index, f"{last.get('content', '')}\n\n{note}")

    async def _refresh_layers(self) -> None:
        """Re-reads the project's layers (if the server publishes them) after a tool changed something."""
        text = await self.ports.tools.read_text(PROJECT_LAYERS)
        if text is None:
            return
        try:
            rows = json.loads(text)
        except ValueError:
            return
        if isinstance(rows, list):
            self.policy.set_layer_states(str(r.get("type", "other")) for r in rows if isinstance(r, dict))

    def _emit_counted(self, event: Any) -> None:
        if isinstance(event, ToolStart):
            self.state.tool_calls += 1
        self.emit(event)

    async def _select_tools(self, message: str, last_thought: str) -> list[ToolSpec]:
        # the tool set decides rarely and only appends (agent/visible_tools.py): the top of the prompt
        # stays the same from step to step, so the model's KV cache is reused
        # every tool, whatever the project's state: a call the state does not allow yet is refused
        # with one sentence (ToolCallRunner), and the state itself rides in the newest message
        names = await self.ports.tool_set.for_step(message, last_thought, required=self.policy.required_tools())
        # a read-only chat is offered only the tools that change nothing (the list stays stable while it is)
        names = [n for n in names if self.ports.trust.offers(self.policy.is_read_only(n))]
        specs = self.ports.tool_set.specs_for(names, self.ports.specs)  # held-back tools via call_tool
        if "ask_user" not in names:
            specs.insert(0, ASK_USER_SPEC)
        return specs

    async def _complete(self, step: int, messages: list[Message], specs: list[ToolSpec] | None) -> ChatResponse:
        raw_estimate = self.ports.estimator.raw(messages, specs)
        response = await self._stream(step, messages, specs)
        self.ports.estimator.observe(raw_estimate, response.usage.prompt_eval_count)
        prompt = response.usage.prompt_eval_count
        if prompt < 0.5 * raw_estimate:  # an older server reused its cache and counted only the new tail
            prompt = max(int(raw_estimate * self.ports.estimator.factor), self.state.context_used)
        self.state.context_used = prompt + response.usage.eval_count
        return response

    async def _stream(self, step: int, messages: list[Message], specs: list[ToolSpec] | None) -> ChatResponse:
        state = self.state
        final: ChatResponse | None = None
        stream = self.ports.provider.chat_stream(messages, specs or None, self.ports.options)
        try:
            async for chunk in stream:
                if not state.first_token_ms and isinstance(chunk, (ThinkingChunk, ContentChunk, FinalChunk)):
                    state.first_token_ms = round((time.perf_counter() - state.started) * 1000, 2)
                if isinstance(chunk, ThinkingChunk):
                    if chunk.text:
                        self.emit(Thinking(step, chunk.text))
                elif isinstance(chunk, ContentChunk):
                    if chunk.text:
                        state.streamed += chunk.text
                        self.emit(Content(chunk.text))
                elif isinstance(chunk, ProviderSwitchChunk):
                    self.emit(ProviderSwitched(chunk.from_provider, chunk.to_provider, chunk.reason,
                                               getattr(chunk.cause, "said", None) or Said()))
                elif isinstance(chunk, ProtocolChunk):
                    notice = self.ports.protocols.notice_for(chunk)
                    if notice is not None:
                        self.emit(notice)
                elif isinstance(chunk, FinalChunk):
                    final = chunk.response
        finally:  # closing the stream is what stops generation on the server
            close = getattr(stream, "aclose", None)
            if close is not None:
                await close()
        if final is None:
            raise cut_answer()
        if getattr(final, "context_overflow", ""):
            self.emit(Notice(final.context_overflow, getattr(final, "overflow_said", None) or Said()))
        full, reread = self.ports.prompt_cache.observe(messages, specs, final.usage.prompt_eval_count)
        state.prompt_tokens += full
        state.reread_tokens += reread
        state.prompt_eval_ns += final.usage.prompt_eval_duration_ns
        state.eval_tokens += final.usage.eval_count
        state.eval_ns += final.usage.eval_duration_ns
        return final

    async def _finish(self, text: str, response: ChatResponse, messages: list[Message]) -> None:
        parts = [_MARKUP.sub("", text)]
        continuations = 0
        while response.done_reason == "length" and continuations < MAX_CONTINUATIONS:
            continuations += 1
            follow = messages + [{"role": "assistant", "content": "".join(parts).lstrip()},
                                 {"role": "user", "content": CONTINUE}]
            response = await self._complete(self.state.steps, follow, None)
            parts.append(_MARKUP.sub("", response.content) if not response.tool_calls else "")
        answer = "".join(parts).strip()
        self.memory.add_assistant({"role": "assistant", "content": answer})
        self.emit(Content(answer, is_complete=True))
        self._done(answer)

    def _done(self, content: str) -> None:
        self.state.streamed = ""
        self.emit(Done(session_id=self.ports.session_id, message_id=self.state.message_id, content=content,
                       timestamp=time.time(), usage=self.state.usage(self.ports.options.num_ctx)))

    async def _keep_exploring(self) -> bool:
        n = self.policy.discovery_streak
        choice = await self.ports.ask(AskUser(
            request_id=f"explore-{uuid.uuid4().hex[:8]}",
            question=f"I have made {n} look-up calls in a row without getting closer to an answer. "
                     "Keep exploring, or stop and summarise what I found?",
            options=(KEEP_EXPLORING, STOP_EXPLORING)))
        keep = choice is not None and (choice.strip().lower() == KEEP_EXPLORING.lower() or is_approval(choice))
        if keep:
            self.policy.reset_exploration()
        return keep

    def _best_effort_summary(self, max_steps: int) -> str:
        """Built from what the tools returned, since the model did not answer in time."""
        msgs = self.memory.messages
        start = max((i for i, m in enumerate(msgs) if m.get("role") == "user"), default=0)
        lines = []
        for m in msgs[start:]:
            if m.get("role") == "tool":
                text = str(m.get("content", ""))
                try:
                    text = json.dumps(json.loads(text), ensure_ascii=False)
                except ValueError:
                    pass
                lines.append(f"- {m.get('tool_name')}: {text[:200]}{'…' if len(text) > 200 else ''}")
        found = "\n".join(lines[-8:]) if lines else "- no tool returned a result"
        return (f"I reached the limit of {max_steps} steps before finishing. What the tools returned:\n"
                f"{found}\nAsk again with a narrower request, or raise the step limit in the settings.")
