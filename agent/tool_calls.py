"""Running the tool calls of one model turn: validate, apply the policy, ask before anything
destructive, run (read-only ones concurrently), and turn every failure into an observation.

What a call would do is judged from its actual arguments by the tool server (a Processing call
that empties a table is destructive although the tool is only marked "write", and a read marked "judged"
is judged too: a filter that is code asks, in a read-only chat as well); when one step holds
several destructive calls the user is asked once, with every effect listed."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Optional

from .conversation import ConversationMemory
from .dock_text import Said, say, translatable
from .events import AskUser, Notice, ToolError, ToolProgress, ToolResult, ToolStart
from .llm.types import ToolCall
from .permissions import Policy
from .safety import Assessment
from .tool_host import ToolHost, ToolOutcome, failed
from .trust import ChatTrust
from .visible_tools import unwrap_call

log = logging.getLogger(__name__)

ASK_USER_TOOL = "ask_user"
ASK_USER_SPEC = {"type": "function", "function": {
    "name": ASK_USER_TOOL,
    "description": "Ask the user a question and wait for the answer (e.g. to choose between options, "
                   "or when the request is ambiguous).",
    "parameters": {"type": "object", "properties": {
        "question": {"type": "string", "description": "The question, one or two sentences"},
        "options": {"type": "array", "items": {"type": "string"}, "description": "Choices to offer, if any"},
    }, "required": ["question"]}}}
APPROVALS = frozenset({"yes", "y", "ok", "okay", "run", "run it", "proceed", "confirm", "approve",
                       "yes, run it", "do it"})
RUN_IT, DONT = translatable("Yes, run it"), translatable("No")
DONT_ASK_AGAIN = translatable("Yes, and don't ask again in this chat")  # for the kinds of change the card lists
CARD_OPTIONS = (RUN_IT, DONT_ASK_AGAIN, DONT)  # the confirmation card's answers: the dock shows them translated

Emit = Callable[[Any], None]
AskFn = Callable[[AskUser], Awaitable[Optional[str]]]


@dataclass
class CallReport:
    call: ToolCall
    ok: bool
    text: str  # what the model reads


class ToolCallRunner:
    def __init__(self, host: ToolHost, policy: Policy, memory: ConversationMemory, emit: Emit, ask: AskFn,
                 on_change: Callable[[], Awaitable[None]] | None = None, trust: ChatTrust | None = None):
        self.on_change = on_change  # re-reads the state after a tool that may have changed it
        self.trust = trust if trust is not None else ChatTrust()  # the chat's level and what is not asked again
        self.host = host
        self.policy = policy
        self.memory = memory
        self.emit = emit
        self.ask = ask
        self.calls_run = 0
        self._decisions: dict[str, bool] = {}  # call id → the user's answer for this step's destructive calls
        self._pending: list[tuple[ToolCall, Assessment]] = []  # destructive calls of this step, not yet asked
        self._judged: dict[str, tuple[Assessment, bool]] = {}  # call id → (its assessment at the step's start, by_gate)
        self._changed = False  # a call that may change data has run in this step: assessments may be stale

    async def run_all(self, step: int, calls: tuple[ToolCall, ...]) -> list[CallReport]:
        """Runs the calls in order; consecutive read-only calls run together. Each call gets
        exactly one ToolStart then one ToolResult or ToolError, and one tool message in memory."""
        calls = tuple(unwrap_call(c) for c in calls)  # call_tool(name, …) is judged as the tool it names
        reports: list[CallReport] = []
        self._decisions, self._judged, self._changed = {}, {}, False
        self._pending = await self._destructive_calls(calls)
        i = 0
        while i < len(calls):
            batch = [calls[i]]
            while (self._parallel_ok(batch[-1]) and i + len(batch) < len(calls)
                   and self._parallel_ok(calls[i + len(batch)])):
                batch.append(calls[i + len(batch)])
            i += len(batch)
            if len(batch) > 1:
                reports.extend(await self._run_read_only_batch(step, batch))
                continue
            report = await self._run_one(step, batch[0])
            reports.append(report)
            if report.ok and self.on_change is not None and not self.policy.is_read_only(report.call.name) \
                    and report.call.name in self.host.tools:
                await self.on_change()  # the allow-list for the next call of this turn
        return reports

    def _parallel_ok(self, call: ToolCall) -> bool:
        return (call.name in self.host.tools and not self.policy.is_judged(call.name)
                and self.policy.why_not_allowed(call.name) is None
                and not self.host.validate(call.name, call.arguments))

    async def _run_read_only_batch(self, step: int, batch: list[ToolCall]) -> list[CallReport]:
        for call in batch:
            self.emit(ToolStart(step, call.id, call.name, dict(call.arguments)))
        started = time.perf_counter()
        outcomes = await asyncio.gather(*(self._call(c, step) for c in batch))
        elapsed = (time.perf_counter() - started) * 1000
        return [self._finish(step, call, outcome, elapsed) for call, outcome in zip(batch, outcomes)]

    async def _run_one(self, step: int, call: ToolCall) -> CallReport:
        self.emit(ToolStart(step, call.id, call.name, dict(call.arguments)))
        if call.name == ASK_USER_TOOL and call.name not in self.host.tools:
            return await self._ask_user_tool(step, call)
        problem = self._check(call)
        if problem:
            return self._fail(step, call, *problem)
        cleared = False  # the gate judged this call and it may run: sent with the gate's grant, judged once
        known = any(pending.id == call.id for pending, _ in self._pending) or call.id in self._decisions
        if not known and self.policy.is_judged(call.name):  # a write, or a read that may be code
            judged, by_gate = self._judged.get(call.id) or (None, False)
            if judged is None or self._changed:  # an earlier call of this step may have changed the answer
                judged, by_gate = await self._effects(call)
            if judged.destructive and not self._waved(call, judged):
                self._pending.append((call, judged))
                known = True
            else:
                cleared = by_gate
        if known:
            if not await self._confirmed(call):
                said = say(translatable("Not run: the user did not approve this action."))
                return self._fail(step, call, said.text() + " Do not retry it; ask the user what they want instead.",
                                  said)
            cleared = True
        if known or not self.policy.is_read_only(call.name):  # an approved read was code: it may have written
            self._changed = True
        started = time.perf_counter()
        outcome = await self._call(call, step, cleared)
        return self._finish(step, call, outcome, (time.perf_counter() - started) * 1000)

    def _check(self, call: ToolCall) -> tuple[str, Said] | None:
        """Why the call cannot run: (what the model reads, what the dock says of it)."""
        if call.name not in self.host.tools:
            names = ", ".join(sorted(self.policy.allowed())[:30])
            said = say(translatable("Unknown tool '{tool}'."), tool=call.name)
            return f"{said.text()} Use one of the tools you were given: {names}.", said
        if not self.trust.offers(self.policy.is_read_only(call.name)):
            return self.trust.refusal(call.name)
        blocked = self.policy.why_not_allowed(call.name)
        if blocked:
            return blocked, self.policy.why_not_allowed_said(call.name)
        problems = self.host.validate(call.name, call.arguments)
        if problems:  # jsonschema's words, as it wrote them
            said = say(translatable("Invalid arguments for '{tool}': {problems}."), tool=call.name,
                       problems="; ".join(problems))
            return f"{said.text()} Call it again with corrected arguments.", said
        return None

    async def _call(self, call: ToolCall, step: int = 0, cleared: bool = False) -> ToolOutcome:
        async def progress(done: float, total: float | None, message: str | None) -> None:
            self.emit(ToolProgress(step, call.id, call.name, done, total, message or ""))

        try:
            return await self.host.call(call.name, call.arguments, cleared=cleared, progress=progress)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a protocol-level failure is still only this call's failure
            log.warning("tool %s failed at the protocol level: %s", call.name, exc)
            return failed(call.name, str(exc) or type(exc).__name__)

    def _finish(self, step: int, call: ToolCall, outcome: ToolOutcome, duration_ms: float) -> CallReport:
        self.calls_run += 1
        changed = self.policy.after_call(call.name, outcome.ok)
        if changed:
            log.debug("state after %s: %s", call.name, sorted(self.policy.state))
        if not outcome.ok:
            return self._fail(step, call, outcome.text, outcome.said)  # what went wrong and what to do, by the host
        self.emit(ToolResult(step, call.id, call.name, outcome.value, round(duration_ms, 2)))
        self.memory.add_tool_result(call.id, call.name, outcome.text, outcome.images)
        return CallReport(call, True, outcome.text)

    def _fail(self, step: int, call: ToolCall, message: str, said: Said | None = None) -> CallReport:
        self.emit(ToolError(step, call.id, call.name, message, said or Said()))
        self.memory.add_tool_result(call.id, call.name, json.dumps({"error": message}, ensure_ascii=False))
        return CallReport(call, False, message)

    async def _destructive_calls(self, calls: tuple[ToolCall, ...]) -> list[tuple[ToolCall, Assessment]]:
        """The calls of this step that would change data, judged on their actual arguments."""
        found = []
        for call in calls:
            if call.name not in self.host.tools or not self.policy.is_judged(call.name) or self._check(call):
                continue  # unknown or invalid calls never run, and plain reads are not asked about
            effects, by_gate = self._judged[call.id] = await self._effects(call)
            if effects.destructive and not self.trust.skips_card(call.name, effects):
                found.append((call, effects))
        return found

    def _waved(self, call: ToolCall, judged: Assessment) -> bool:
        """A destructive call of a kind the analyst said not to ask again about in this chat: said in the feed."""
        if not self.trust.skips_card(call.name, judged):
            return False
        said = say(translatable("Not asked again, as you chose in this chat: {action}"),
                   action=judged.action or call.name)
        self.emit(Notice(said.text(), said))
        return True


    async def _effects(self, call: ToolCall) -> tuple[Assessment, bool]:
        """(what the call would do, whether the server's gate said so); when the gate cannot say, a guess
        from the tool's annotation, and the gate judges the call itself when it arrives."""
        try:
            assessed = await self.host.assess(call.name, call.arguments)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.warning("could not assess %s: %s", call.name, exc)
            assessed = None
        if assessed is not None:
            return assessed, True
        if not self.policy.is_destructive(call.name):
            return Assessment(False), False
        tool = self.host.tools[call.name]
        what = (tool.description or "").strip().splitlines()[0] if tool.description else call.name
        args = json.dumps(call.arguments, ensure_ascii=False, default=str)
        return Assessment(True, (f"{call.name}: {what}", f"Arguments: {args}")), False

    async def _confirmed(self, call: ToolCall) -> bool:
        """Asks once for every destructive call of the step (at the first of them); later ones reuse the answer."""
        if call.id not in self._decisions:
            pending, self._pending = self._pending, []
            named = [(asked.name, effects) for asked, effects in pending]
            waves = ChatTrust.may_wave(named) and not self.trust.read_only
            choice = await self.ask(confirmation_request(call.id, pending, waves=waves))
            if waves and is_waving(choice):
                self.trust.wave(named)
            for asked, _ in pending:
                self._decisions[asked.id] = is_approval(choice)
        return self._decisions.get(call.id, False)

    async def _ask_user_tool(self, step: int, call: ToolCall) -> CallReport:
        args = call.arguments if isinstance(call.arguments, dict) else {}
        question = str(args.get("question") or "").strip()
        if not question:
            return self._fail(step, call, "ask_user needs a 'question' (string). Call it again with one.")
        options = tuple(str(o) for o in args.get("options") or () if str(o).strip())
        started = time.perf_counter()
        choice = await self.ask(AskUser(request_id=f"ask-{call.id}", question=question, options=options,
                                        allow_free_text=True))
        value = {"answer": choice} if choice is not None else {
            "answer": None, "note": "The user did not answer in time. Continue with the most reasonable "
                                    "choice and say which one you made, or stop and summarise."}
        outcome = ToolOutcome(True, value, json.dumps(value, ensure_ascii=False))
        self.calls_run += 1
        self.emit(ToolResult(step, call.id, call.name, value, round((time.perf_counter() - started) * 1000, 2)))
        self.memory.add_tool_result(call.id, call.name, outcome.text)
        return CallReport(call, True, outcome.text)


def confirmation_request(call_id: str, calls: list[tuple[ToolCall, Assessment]], waves: bool = False) -> AskUser:
    """One card for the step's destructive calls: every effect in full, and what undo can and cannot do;
    `waves`: it also offers "don't ask again in this chat" for the kinds of change it asks about."""
    effects = [e for _, e in calls]
    count = len(effects)
    question = f"Run '{calls[0][0].name}'?" if count == 1 else f"Run these {count} actions?"
    if count == 1 and effects[0].action:
        question = f"{effects[0].action}?"
    if all(e.undoable for e in effects):
        truth = "Undo in the chat brings it back."
    elif not any(e.undoable for e in effects):
        truth = "It cannot be undone." if count == 1 else "They cannot be undone."
    else:
        truth = "Map changes can be undone in the chat; changes to files and stores cannot."
    details = tuple(line for e in effects
                    for line in ((f"{e.action}:",) if count > 1 and e.action else ()) + e.effects)
    kinds = tuple(dict.fromkeys(e.kind for e in effects)) if waves else ()
    return AskUser(request_id=f"confirm-{call_id}", question=f"{question} {truth}",
                   options=(RUN_IT, DONT_ASK_AGAIN, DONT) if kinds else (RUN_IT, DONT), details=details, waves=kinds)


def is_approval(choice: str | None) -> bool:
    return choice is not None and (choice.strip().lower().rstrip(".!") in APPROVALS | {RUN_IT.lower()}
                                   or is_waving(choice))


def is_waving(choice: str | None) -> bool:
    """The analyst approved and said not to ask again for this kind of change in this chat."""
    return choice is not None and choice.strip().lower() == DONT_ASK_AGAIN.lower()
