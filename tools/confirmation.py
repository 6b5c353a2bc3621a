"""Destructive tools called by outside MCP clients wait for the user's OK through MCP elicitation,
and are refused when the client cannot ask its user.

Works on both protocol generations: 2026-07-28 clients get an `InputRequiredResult` carrying the
question and retry with the answer; handshake-era clients are asked over the session back-channel.
The embedded agent loop confirms through its own dialog and does not use this gate.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

from mcp.shared.exceptions import NoBackChannelError
from mcp_types import (
    CallToolResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
    TextContent,
)

from ..agent.safety import Safety, tool_safety

log = logging.getLogger(__name__)

QUESTION_KEY = "confirm_destructive"
SCHEMA = {"type": "object", "properties": {"confirm": {"type": "boolean", "title": "Go ahead",
                                                       "description": "This cannot be undone"}},
          "required": ["confirm"]}


def _refused(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def _fingerprint(name: str, arguments: Any) -> str:
    return hashlib.sha256(json.dumps([name, arguments], sort_keys=True, default=str).encode()).hexdigest()


def _accepted(answer: Any) -> bool:
    if isinstance(answer, dict):
        answer = ElicitResult.model_validate(answer)
    return isinstance(answer, ElicitResult) and answer.action == "accept" and bool((answer.content or {}).get("confirm"))


class ConfirmDestructiveMiddleware:
    def __init__(self, server: Any) -> None:
        self.server = server
        self._destructive: set[str] | None = None

    async def _is_destructive(self, name: str) -> bool:
        if self._destructive is None:
            self._destructive = {t.name for t in await self.server.list_tools() if tool_safety(t) == Safety.DESTRUCTIVE}
        return name in self._destructive

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        if ctx.method != "tools/call" or not await self._is_destructive(str((ctx.params or {}).get("name"))):
            return await call_next(ctx)
        params = ctx.params or {}
        name, arguments = str(params.get("name")), params.get("arguments") or {}
        message = f"The assistant wants to run '{name}' with {json.dumps(arguments)[:300]}. This cannot be undone."
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
            return _refused(f"Refused '{name}': it is destructive and needs the user's confirmation, but this MCP "
                            "client cannot ask its user (no elicitation support). Run it from the QGIS chat dock.")
        try:
            answer = await ctx.session.elicit_form(message, SCHEMA, related_request_id=ctx.request_id)
        except NoBackChannelError:  # 2026-07-28: the question travels in the result and the client retries
            request = ElicitRequest(params=ElicitRequestFormParams(message=message, requested_schema=SCHEMA))
            return InputRequiredResult(input_requests={QUESTION_KEY: request}, request_state=fingerprint)
        if _accepted(answer):
            return await call_next(ctx)
        return _refused(f"The user declined '{name}'. Do not retry it; ask the user what to do instead.")
