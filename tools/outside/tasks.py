"""Long analyses as MCP tasks: the tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663, protocol
2026-07-28). A client that declares the extension on its `tools/call` of a long analysis (a tool marked
`policy(heavy=True)`) gets a task handle at once instead of waiting on the call; `tasks/get` says how the job
stands (its progress line as `statusMessage`) and, once it is done, carries the tool's result; `tasks/cancel`
stops it the way the dock's Stop does (the task is cancelled, so the reads in flight stop); `tasks/update` is
acknowledged, and since these tools never ask for input while they run there is nothing it can answer.

A task belongs to the client that started it (`heavy_calls.client_key`: a session the server created, else the
bearer token; never a header the client picks): any other client is told it does not exist, and task ids are
unguessable. A finished task is kept KEEP_FINISHED_S, and at most KEEP_PER_CLIENT of them and KEEP_BYTES_PER_CLIENT
of their results per client (the oldest go first), then forgotten. A task's job takes its place in the
per-client limit on long analyses (heavy_calls) like a plain call, so asking for tasks does not get a client
more jobs at once. Destructive calls are confirmed before this middleware is reached (tools.server orders it
after the confirmation gate), so a task never skips the user's OK."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Awaitable, Callable

from mcp.server.extension import Extension, MethodBinding
from mcp.server.mcpserver.server import require_client_extension
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS, RequestParams
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import Field

from ..heavy_calls import client_key

log = logging.getLogger(__name__)

TASKS = "io.modelcontextprotocol/tasks"
KEEP_FINISHED_S = 3600.0  # a finished task's result can be fetched this long after it ended
KEEP_PER_CLIENT = 20  # finished tasks kept per client; the oldest go first
KEEP_BYTES_PER_CLIENT = 16 * 1024 * 1024  # their results' JSON, together; the newest is kept whatever its size
POLL_INTERVAL_MS = 1000
CANCEL_WAIT_S = 5.0  # tasks/cancel answers once the job has stopped, or after this long
TERMINAL = ("completed", "failed", "cancelled")


class TaskParams(RequestParams):
    task_id: str = Field(alias="taskId")


class UpdateTaskParams(TaskParams):
    input_responses: dict[str, Any] | None = Field(default=None, alias="inputResponses")


@dataclass
class _Task:
    task_id: str
    owner: str
    tool: str
    created: float
    updated: float
    status: str = "working"
    message: str | None = None
    result: dict | None = None
    error: dict | None = None
    finished: float | None = None
    cancel_asked: bool = False
    job: asyncio.Task | None = None
    size: int = 0  # bytes of the kept result or error, as JSON


    def note(self, message: str) -> None:
        self.message, self.updated = message, time.time()

    def end(self, status: str, message: str | None, result: dict | None = None, error: dict | None = None) -> None:
        self.status, self.result, self.error = status, result, error
        self.size = len(json.dumps(result or error or {}, default=str))
        self.finished = time.time()
        self.note(message or self.message or status)

    def wire(self, keep_s: float) -> dict[str, Any]:
        """The task as tasks/get shows it: status, timestamps, and the result or error once finished."""
        # Working tasks are never dropped; a finished one lives until keep_s after it ended.
        ttl = None if self.finished is None else int((self.finished + keep_s - self.created) * 1000)
        shown: dict[str, Any] = {"taskId": self.task_id, "status": self.status, "createdAt": _iso(self.created),
                                 "lastUpdatedAt": _iso(self.updated), "ttlMs": ttl,
                                 "pollIntervalMs": POLL_INTERVAL_MS}
        if self.message:
            shown["statusMessage"] = self.message
        if self.status == "completed":
            shown["result"] = self.result
        elif self.status == "failed":
            shown["error"] = self.error
        return shown


class _TaskSession:
    """The request's session for a job that outlives its request: progress lines become the task's
    statusMessage (the spec carries no progress notifications for tasks); everything else is the request's."""

    def __init__(self, session: Any, task: _Task) -> None:
        self._session = session
        self._task = task

    async def report_progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        if message:
            self._task.note(message)
        elif total:
            self._task.note(f"{progress:g} / {total:g}")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


class ToolTasks(Extension):
    """The tasks extension of the outside endpoint's server; the heavy-call limit starts the tasks."""

    identifier = TASKS

    def __init__(self, keep_s: float = KEEP_FINISHED_S, keep_per_client: int = KEEP_PER_CLIENT,
                 keep_bytes_per_client: int = KEEP_BYTES_PER_CLIENT) -> None:
        self.keep_s = keep_s
        self.keep_per_client = keep_per_client
        self.keep_bytes_per_client = keep_bytes_per_client
        self._tasks: dict[str, _Task] = {}

    def methods(self) -> list[MethodBinding]:
        return [MethodBinding("tasks/get", TaskParams, self._get),
                MethodBinding("tasks/update", UpdateTaskParams, self._update),
                MethodBinding("tasks/cancel", TaskParams, self._cancel)]

    def wanted(self, ctx: Any) -> bool:
        """Whether this request declared the extension (only then may it get a task: the spec's MUST) on a
        protocol that can carry a task handle (2026-07-28 on; a handshake-era session gets plain calls)."""
        if getattr(ctx, "protocol_version", None) not in MODERN_PROTOCOL_VERSIONS:
            return False
        session = getattr(ctx, "session", None)
        capabilities = getattr(session, "client_capabilities", None)
        return TASKS in (getattr(capabilities, "extensions", None) or {})

    def start(self, ctx: Any, owner: str, tool: str, run: Callable[[Any], Awaitable[Any]],
              release: Callable[[], None]) -> dict[str, Any]:
        """Starts `run` (the rest of the call's middleware chain) as a task; the CreateTaskResult for the client.
        `release` gives back the call's place in the heavy-call limit when the job ends, however it ends."""
        self._prune()
        now = time.time()
        task = _Task(secrets.token_urlsafe(24), owner, tool, now, now,
                     message=f"{tool} accepted; poll tasks/get for its progress and result")
        self._tasks[task.task_id] = task
        job_ctx = dataclasses.replace(ctx, session=_TaskSession(ctx.session, task))
        task.job = asyncio.get_running_loop().create_task(self._run(task, run, job_ctx), name=f"mcp-task-{tool}")
        task.job.add_done_callback(lambda _job: self._ended(task, release))
        log.info("task %s… started for %s", task.task_id[:6], tool)
        return {"resultType": "task", **task.wire(self.keep_s)}

    @staticmethod
    def _ended(task: _Task, release: Callable[[], None]) -> None:
        release()
        if task.finished is None:  # cancelled before its first step: it never ran
            task.end("cancelled", "cancelled by the client" if task.cancel_asked else "cancelled before it started")

    async def _run(self, task: _Task, run: Callable[[Any], Awaitable[Any]], ctx: Any) -> None:
        try:
            await self._finish(task, run, ctx)
        finally:  # the session's statistics count the whole job, as for a plain call
            stats = getattr(ctx.lifespan_context, "stats", None)
            if stats is not None:
                failed = task.status != "completed" or bool((task.result or {}).get("isError"))
                stats.record(task.tool, time.time() - task.created, failed)

    async def _finish(self, task: _Task, run: Callable[[Any], Awaitable[Any]], ctx: Any) -> None:
        try:
            result = await run(ctx)
        except asyncio.CancelledError:
            task.end("cancelled", "cancelled by the client" if task.cancel_asked else
                     "cancelled: the MCP endpoint stopped")
            return
        except MCPError as exc:
            task.end("failed", exc.error.message, error=exc.error.model_dump(by_alias=True, exclude_none=True))
            return
        except Exception as exc:  # an error of ours: the task says so instead of vanishing
            log.exception("task %s… of %s failed", task.task_id[:6], task.tool)
            task.end("failed", f"{task.tool} failed: {exc}", error={"code": INTERNAL_ERROR, "message": str(exc)})
            return
        shown = dict(result) if isinstance(result, dict) else result.model_dump(by_alias=True, exclude_none=True)
        failed = bool(shown.get("isError"))
        task.end("completed", f"{task.tool} {'returned an error' if failed else 'finished'}", result=shown)

    async def _get(self, ctx: Any, params: TaskParams) -> dict[str, Any]:
        return {"resultType": "complete", **self._find(ctx, params.task_id).wire(self.keep_s)}

    async def _update(self, ctx: Any, params: UpdateTaskParams) -> dict[str, Any]:
        self._find(ctx, params.task_id)  # no outstanding input requests: every response is ignored
        return {"resultType": "complete"}

    async def _cancel(self, ctx: Any, params: TaskParams) -> dict[str, Any]:
        task = self._find(ctx, params.task_id)
        if task.status not in TERMINAL and task.job is not None:
            task.cancel_asked = True
            task.note("cancelling…")
            task.job.cancel()
            await asyncio.wait({task.job}, timeout=CANCEL_WAIT_S)
        return {"resultType": "complete"}

    def _find(self, ctx: Any, task_id: str) -> _Task:
        require_client_extension(ctx, TASKS)
        self._prune()
        task = self._tasks.get(task_id)
        if task is None or task.owner != client_key(ctx):  # another client's task is as unknown as none
            raise MCPError(code=INVALID_PARAMS, message=(
                f"Failed to retrieve task: no task {task_id!r} of this client. A task is seen only by the "
                f"client that started it, and a finished one is kept {self.keep_s / 60:g} minutes."))
        return task

    def _prune(self) -> None:
        now = time.time()
        finished: dict[str, list[_Task]] = {}
        for task in list(self._tasks.values()):
            if task.finished is None:
                continue
            if now - task.finished > self.keep_s:
                del self._tasks[task.task_id]
            else:
                finished.setdefault(task.owner, []).append(task)
        for tasks in finished.values():
            kept_bytes = 0
            for rank, task in enumerate(sorted(tasks, key=lambda t: t.finished or 0, reverse=True)):
                kept_bytes += task.size
                if rank and (rank >= self.keep_per_client or kept_bytes > self.keep_bytes_per_client):
                    del self._tasks[task.task_id]

    async def close(self) -> None:
        """Stops every running job (the endpoint is stopping)."""
        jobs = [t.job for t in self._tasks.values() if t.job is not None and not t.job.done()]
        for job in jobs:
            job.cancel()
        if jobs:
            await asyncio.wait(jobs, timeout=CANCEL_WAIT_S)


def _iso(stamp: float) -> str:
    return datetime.fromtimestamp(stamp, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
