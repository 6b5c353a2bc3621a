"""The agent's side of the embedded MCP server: one long-lived in-process client.

mcp's Client must be entered and exited in the same task (an anyio rule), so one owner
task holds it open for the session; calls are made from the loop's task through it.
Arguments are validated against each tool's JSON schema before anything runs.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from dataclasses import dataclass, field
from typing import Any

import jsonschema
from mcp import Client
from mcp_types import ElicitResult

from .dock_text import Said, SaidError, say, translatable
from .safety import ASSESSMENT_KEY, GRANT_KEY, PREFLIGHT_KEY, Assessment

log = logging.getLogger(__name__)


class ToolHostError(SaidError):
    """The embedded tool server could not be reached; the message says what to do."""


@dataclass(frozen=True)
class ToolOutcome:
    ok: bool
    value: Any  # plain data shown in the UI (structured content, or text)
    text: str  # what the model reads back
    images: tuple[str, ...] = ()  # base64 images the tool returned (MCP ImageContent), for vision models
    said: Said = field(default_factory=Said)  # what went wrong for the dock, when the host wrote it (not the tool)


class ToolHost:
    def __init__(self, server: Any):
        self.server = server
        self.tools: dict[str, Any] = {}  # name -> mcp Tool
        self.resources: set[str] = set()  # URIs the server lists
        self._validators: dict[str, Any] = {}
        self._client: Client | None = None
        self._owner: asyncio.Task | None = None
        self._closing: asyncio.Event | None = None  # made in start(): bound to the running loop
        # the server's confirmation gate (tools.confirmation), in this process: it assesses calls and grants approvals
        self._gate = next((m for m in getattr(server, "middleware", ()) if getattr(m, "answers_preflight", False)),
                          None)

    @property
    def started(self) -> bool:
        return self._client is not None

    async def start(self) -> None:
        if self._owner is not None:
            return
        self._closing = asyncio.Event()
        ready: asyncio.Future = asyncio.get_running_loop().create_future()
        self._owner = asyncio.create_task(self._own(ready, self._closing), name="stacgis-mcp-client")
        try:
            await ready
        except Exception as exc:
            self._owner = None
            raise ToolHostError(say(translatable(
                "The plugin's tool server did not start ({error}). Reload the plugin; if it persists, see the "
                "QGIS log (STAC GIS Agent tab)."), error=exc)) from exc
        await self.refresh_tools()
        await self.refresh_resources()

    async def _own(self, ready: asyncio.Future, closing: asyncio.Event) -> None:
        try:
            async with Client(self.server, elicitation_callback=self._answer_confirmation) as client:
                self._client = client
                ready.set_result(None)
                await closing.wait()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc if isinstance(exc, Exception) else RuntimeError(str(exc)))
            if not isinstance(exc, (asyncio.CancelledError, GeneratorExit)):
                log.exception("MCP client owner task failed")
            raise
        finally:
            self._client = None

    async def refresh_tools(self) -> list[Any]:
        client = self._require()
        tools: list[Any] = []
        cursor = None
        while True:
            page = await client.list_tools(cursor=cursor, cache_mode="refresh")
            tools.extend(page.tools)
            cursor = page.next_cursor
            if not cursor:
                break
        self.tools = {t.name: t for t in tools}
        self._validators.clear()
        return tools

    async def refresh_resources(self) -> set[str]:
        try:
            listing = await self._require().list_resources(cache_mode="refresh")
            self.resources = {str(r.uri) for r in listing.resources}
        except Exception as exc:  # a server without resources is fine
            log.debug("no resources listed: %s", exc)
            self.resources = set()
        return self.resources

    async def read_text(self, uri: str, timeout_s: float = 5.0) -> str | None:
        """The text of a listed resource, or None when absent, failing or too slow."""
        if uri not in self.resources:
            return None
        try:
            result = await asyncio.wait_for(self._require().read_resource(uri, cache_mode="refresh"), timeout_s)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.warning("could not read resource %s: %s", uri, exc)
            return None
        return "\n".join(getattr(c, "text", "") or "" for c in result.contents)

    def validate(self, name: str, arguments: Any) -> list[str]:
        """Problems with `arguments` for tool `name`, as sentences the model can act on."""
        if not isinstance(arguments, dict):
            return [f"arguments must be a JSON object, got {type(arguments).__name__}"]
        validator = self._validators.get(name)
        if validator is None:
            schema = self.tools[name].input_schema or {"type": "object"}
            cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
            validator = self._validators[name] = cls(schema)
        problems = []
        for err in sorted(validator.iter_errors(arguments), key=lambda e: list(e.path)):
            where = ".".join(str(p) for p in err.path) or "arguments"
            problems.append(f"{where}: {err.message}")
        return problems

    async def call(self, name: str, arguments: dict[str, Any], cleared: bool = False,
                   progress: Any = None) -> ToolOutcome:
        """`cleared`: the gate has judged this exact call and it may run (it needed no OK, or the user gave
        it in the chat), so it carries the gate's one-time grant and is not judged again.
        `progress(done, total, message)` receives the tool's MCP progress notifications."""
        client = self._require()
        meta = {GRANT_KEY: self._gate.grant(name, arguments)} if cleared and self._gate is not None else None
        result = await client.call_tool(name, arguments, progress_callback=progress, meta=meta)
        return outcome_of(result, name)

    @property
    def assesses_calls(self) -> bool:
        """Whether the server can say what a call would do before it runs (tools.confirmation)."""
        return self._gate is not None

    async def assess(self, name: str, arguments: dict[str, Any]) -> Assessment | None:
        """What this exact call would do, without running it; None if the server cannot say."""
        if not self.assesses_calls:
            return None
        result = await self._require().call_tool(name, arguments, meta={PREFLIGHT_KEY: True})
        assessment = (result.meta or {}).get(ASSESSMENT_KEY)
        return Assessment.from_dict(assessment) if isinstance(assessment, dict) else None

    async def _answer_confirmation(self, _context: Any, _params: Any) -> ElicitResult:
        # A question reaches the dock only for a call sent without the user's approval (its grant): the
        # dock never says yes on its own.
        log.warning("the tool server asked to confirm a call the user had not approved; declined")
        return ElicitResult(action="decline")

    def _require(self) -> Client:
        if self._client is None:
            raise ToolHostError(say(translatable("The tool server is not connected. Send the message again; if it "
                                                 "persists, reload the plugin.")))
        return self._client

    async def aclose(self) -> None:
        owner, self._owner = self._owner, None
        if owner is None or self._closing is None:
            return
        self._closing.set()
        try:
            await asyncio.wait_for(owner, timeout=5)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            owner.cancel()
        except Exception as exc:
            log.debug("the MCP client owner ended with %r (logged when it happened)", exc)


_MCP_PREFIX = re.compile(r"^(?:Error executing tool [\w.-]+:?\s*)+")  # the SDK's wrapper, repeated when nested
_PYDANTIC_LINK = re.compile(r"\s*For further information visit \S+")


def outcome_of(result: Any, name: str = "the tool") -> ToolOutcome:
    """What the model reads back is what the tool wrote for it (the `ok()` summary sentence and its
    compact JSON); the structured content is what the UI and the session log keep."""
    texts = []
    images: list[str] = []
    for part in result.content or ():
        kind = getattr(part, "type", "")
        if kind == "text":
            texts.append(part.text)
        elif kind == "image":
            texts.append(f"[image {getattr(part, 'mime_type', '') or getattr(part, 'mimeType', '')}]")
            if getattr(part, "data", None):
                images.append(part.data)
        elif kind in ("resource", "resource_link"):
            uri = getattr(part, "uri", None) or getattr(getattr(part, "resource", None), "uri", "")
            texts.append(f"[resource {uri}]")
    text = "\n".join(texts)
    if result.is_error:
        return failed(name, text)
    value = result.structured_content
    if isinstance(value, dict) and set(value) == {"result"}:  # mcp wraps non-object returns
        value = value["result"]
    if value is None:
        return ToolOutcome(True, _maybe_json(text), text, tuple(images))
    if isinstance(value, str):
        return ToolOutcome(True, value, value, tuple(images))
    if not text.strip() or _maybe_json(text) in (value, result.structured_content):
        text = json.dumps(value, ensure_ascii=False, default=str, separators=(",", ":"))  # no summary: compact
    return ToolOutcome(True, value, text, tuple(images))


def failed(name: str, detail: str) -> ToolOutcome:
    """A failed call as what went wrong, then what to do. The SDK's "Error executing tool x:" prefix
    is removed and no "x failed:" is added: the feed, the export and the model's tool message
    already say which tool it was, so the message is never wrapped twice."""
    detail = _PYDANTIC_LINK.sub("", _MCP_PREFIX.sub("", detail.strip())).strip().rstrip(".").strip()
    if detail:
        stop = "" if detail.endswith(("?", "!")) else "."
        message = f"{detail}{stop} Fix the arguments or try another tool."  # as the tool wrote it ("bbox …")
        return ToolOutcome(False, message, message)
    # A crash inside the tool: the SDK keeps its text on the server side.
    said = say(translatable("'{tool}' stopped with an unexpected error inside the tool (a fault of the tool, not "
                            "of the request)."), tool=name)
    message = f"{said.text()} Try another tool, or tell the user this step could not be done."
    return ToolOutcome(False, message, message, said=said)


def _maybe_json(text: str) -> Any:
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        try:
            return json.loads(stripped)
        except ValueError:
            return text
    return text
