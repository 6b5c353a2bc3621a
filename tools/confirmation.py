"""Every tool call — from the chat dock or from an outside MCP client — passes this gate: the call's
effects are assessed from its actual arguments, and a destructive one waits for the user's OK through
MCP elicitation (refused when the client cannot ask its user).

A tool family registers an assessor for every destructive tool, and for one whose safety depends on its
arguments (Processing: an algorithm that empties a table is destructive, a buffer into the plugin's output
folder is not); it says in words read from the real state what the call would do ("Remove layer 'parcels'
(4 features) from the project"). A tool without one is judged by its annotation and described by its name
(tests/qgis/test_confirmation_cards.py fails for a destructive tool of the plugin that has none).

The dock crosses the in-process boundary with each call's assessment once: a call carrying
`_meta[PREFLIGHT_KEY]` is assessed and not run, so the dock can ask once for all destructive calls of a
step; the call it then sends carries `_meta[GRANT_KEY]`, a one-time grant the dock got from this gate for
exactly that call (`grant`, a Python method of the in-process server, never reachable over MCP) once it
needed no OK or the user gave it, and runs without being judged or asked again. An unknown or mismatched
grant is refused. Every other caller's call, an outside client's above all, is judged here.

Works on both protocol generations: 2026-07-28 clients get an `InputRequiredResult` carrying the
question and retry with the answer; handshake-era clients are asked over the session back-channel.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import secrets
from typing import Any, Awaitable, Callable

from mcp.shared.exceptions import NoBackChannelError
from mcp_types import (
    CallToolResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
    TextContent,
)

from ..agent.safety import (
    ASSESSMENT_KEY,
    GRANT_KEY,
    PREFLIGHT_KEY,
    Assessment,
    Safety,
    tool_policy_meta,
    tool_safety,
)

log = logging.getLogger(__name__)

QUESTION_KEY = "confirm_destructive"
MAX_GRANTS = 64  # grants not used yet; the oldest go first (a dock asks for one just before its call)
FOLD_WIDTH = 100  # long values are folded into lines of this width, never cut
SCHEMA = {"type": "object", "properties": {"confirm": {"type": "boolean", "title": "Go ahead",
                                                       "description": "Run the action(s) listed above"}},
          "required": ["confirm"]}


Assessor = Callable[[dict[str, Any]], Awaitable[Assessment]]


def add_assessor(server: Any, tool_name: str, assessor: Assessor) -> None:
    """Judge `tool_name` by its arguments instead of by its annotation."""
    registry = getattr(server, "_stacgis_assessors", None)
    if registry is None:
        registry = {}
        server._stacgis_assessors = registry
    registry[tool_name] = assessor


def fold(value: Any, width: int = FOLD_WIDTH) -> str:
    """A value in full; text longer than `width` is broken into continuation lines, not dropped."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    if len(text) <= width:
        return text
    return "\n    ".join(text[i:i + width] for i in range(0, len(text), width))


def argument_lines(arguments: Any) -> list[str]:
    if not isinstance(arguments, dict):
        return [fold(arguments)]
    return [f"{key} = {fold(value)}" for key, value in arguments.items()]


def question(calls: list[tuple[str, Assessment]]) -> str:
    """One question for one or several destructive calls, listing every effect and what undo can do."""
    lines = [f"The assistant wants to run {len(calls)} action(s) that change data:" if len(calls) > 1
             else "The assistant wants to run an action that changes data:"]
    for name, assessment in calls:
        if assessment.action:
            lines.append(f"{assessment.action}:")
        for effect in assessment.effects or (f"runs {name}",):
            lines.append(f"• {effect}")
    lines.append(undo_truth([a for _, a in calls]))
    return "\n".join(lines)


def undo_truth(assessments: list[Assessment]) -> str:
    # Only outside clients read this question (the dock asks with its own card): for them the way back
    # is the undo_last_turn tool, which reverts the project changes of the latest call or turn.
    if all(a.undoable for a in assessments):
        return "The undo_last_turn tool brings it back."
    if not any(a.undoable for a in assessments):
        return "This cannot be undone."
    return "Map changes can be undone with the undo_last_turn tool; changes to files and stores cannot."


def _refused(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def _fingerprint(name: str, arguments: Any) -> str:
    return hashlib.sha256(json.dumps([name, arguments], sort_keys=True, default=str).encode()).hexdigest()


def _accepted(answer: Any) -> bool:
    if isinstance(answer, dict):
        answer = ElicitResult.model_validate(answer)
    return isinstance(answer, ElicitResult) and answer.action == "accept" and bool((answer.content or {}).get("confirm"))


class ConfirmDestructiveMiddleware:
    answers_preflight = True  # the dock's ToolHost looks for this before sending preflight calls

    def __init__(self, server: Any) -> None:
        self.server = server
        self._tools: dict[str, Any] | None = None
        self._grants: dict[str, str] = {}  # one-time token -> fingerprint of the call it approves

    def grant(self, name: str, arguments: dict[str, Any]) -> str:
        """A one-time token for `_meta[GRANT_KEY]` of exactly this call, which the dock judged through this
        gate: it needed no OK, or the dock's user gave it."""
        token = secrets.token_urlsafe(24)
        self._grants[token] = _fingerprint(name, arguments)
        while len(self._grants) > MAX_GRANTS:
            self._grants.pop(next(iter(self._grants)))
        return token

    async def assess(self, name: str, arguments: dict[str, Any]) -> Assessment:
        assessor = getattr(self.server, "_stacgis_assessors", {}).get(name)
        if assessor is not None:
            return await assessor(arguments)
        if self._tools is None:
            self._tools = {t.name: t for t in await self.server.list_tools()}
        tool = self._tools.get(name)
        if tool is None or tool_safety(tool) != Safety.DESTRUCTIVE:
            return Assessment(False)
        what = re.sub(r"\s*\([^)]*\)", "", (tool.description or name).strip().splitlines()[0])  # asides are for models
        effect = f"{name}: {what}" + "".join(f"\n    {line}" for line in argument_lines(arguments))
        return Assessment(True, (effect,), undoable=bool(tool_policy_meta(tool).get("undoable")))

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        if ctx.method != "tools/call":
            return await call_next(ctx)
        params = ctx.params or {}
        name, arguments = str(params.get("name")), params.get("arguments") or {}
        token = (params.get("_meta") or {}).get(GRANT_KEY)
        if token is not None:  # judged (and approved where needed) in the dock: not judged again
            if self._grants.pop(str(token), None) == _fingerprint(name, arguments):
                return await call_next(ctx)
            return _refused(f"Refused '{name}': its grant does not match this call; send it again.")
        try:
            assessment = await self.assess(name, arguments)
        except Exception as exc:  # a call that cannot be judged is not run
            log.warning("could not assess %s: %s", name, exc)
            return _refused(f"Refused '{name}': its effects could not be checked ({exc}). Fix the arguments.")
        if (params.get("_meta") or {}).get(PREFLIGHT_KEY):
            return CallToolResult(content=[TextContent(type="text", text=json.dumps(assessment.to_dict()))],
                                  is_error=True, _meta={ASSESSMENT_KEY: assessment.to_dict()})
        if not assessment.destructive:
            return await call_next(ctx)
        message = question([(name, assessment)])
        fingerprint = _fingerprint(name, arguments)
        responses = params.get("inputResponses") or params.get("input_responses")
        if responses is not None:
            state = params.get("requestState") or params.get("request_state")
            if state != fingerprint:
                return _refused(f"Refused '{name}': the confirmation does not match this call; ask again.")
            if _accepted(responses.get(QUESTION_KEY)):
                return await call_next(ctx)
            return _refused(f"The user declined '{name}'. Do not retry it; ask the user what to do instead.")
        capabilities = ctx.session.client_capabilities
        if capabilities is None or capabilities.elicitation is None:
            return _refused(f"Refused '{name}': it needs the user's confirmation ({'; '.join(assessment.effects)}), "
                            "but this MCP client cannot ask its user (no elicitation support). "
                            "Run it from the QGIS chat dock.")
        try:
            answer = await ctx.session.elicit_form(message, SCHEMA, related_request_id=ctx.request_id)
        except NoBackChannelError:  # 2026-07-28: the question travels in the result and the client retries
            request = ElicitRequest(params=ElicitRequestFormParams(message=message, requested_schema=SCHEMA))
            return InputRequiredResult(input_requests={QUESTION_KEY: request}, request_state=fingerprint)
        if _accepted(answer):
            return await call_next(ctx)
        return _refused(f"The user declined '{name}'. Do not retry it; ask the user what to do instead.")


class ReadOnlyMiddleware:
    """For outside clients the analyst allowed to read only (Settings ▸ Outside access, `ToolDeps.read_only`): only
    the tools that change nothing are listed, and a call to any other is refused with a sentence before anyone is
    asked (agent/trust.py is the dock's side of the same levels). A reading tool marked "judged" (the vector search,
    whose filter may be code) is listed; the gate after this one judges each of its calls, and asks for code."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self._safety: dict[str, Safety] | None = None

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        if ctx.method == "tools/list":
            return _reading_only(await call_next(ctx))
        if ctx.method != "tools/call":
            return await call_next(ctx)
        name = str((ctx.params or {}).get("name"))
        if self._safety is None:
            self._safety = {t.name: tool_safety(t) for t in await self.server.list_tools()}
        if name in self._safety and self._safety[name] is not Safety.READ:
            return _refused(f"Refused '{name}': the QGIS user lets outside clients read only (Settings ▸ Outside "
                            "access), so no tool that changes the project or files runs. Tell your user what you "
                            "would change.")
        return await call_next(ctx)


def _reading_only(result: Any) -> Any:
    """A tools/list result with only the tools that change nothing."""
    if isinstance(result, dict) and isinstance(result.get("tools"), list):
        return {**result, "tools": [t for t in result["tools"] if tool_safety(t) is Safety.READ]}
    tools = getattr(result, "tools", None)
    if tools is None:
        return result
    return result.model_copy(update={"tools": [t for t in tools if tool_safety(t) is Safety.READ]})
