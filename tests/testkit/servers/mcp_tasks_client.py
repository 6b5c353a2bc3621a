"""The MCP tasks extension (io.modelcontextprotocol/tasks, 2026-07-28) on the official mcp client: mcp 2.3 has
no tasks client of its own, but its extension surface carries one. `TasksClient` declares the extension and
claims the `resultType: "task"` shape of tools/call; `tasks_get` / `tasks_update` / `tasks_cancel` send the
extension's methods through `ClientSession.send_request` (with the Mcp-Name header the spec asks for)."""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp_types import CallToolResult, Request, RequestParams, Result
from pydantic import ConfigDict, Field

TASKS = "io.modelcontextprotocol/tasks"
TERMINAL = ("completed", "failed", "cancelled")


class TaskHandle(Result):
    """CreateTaskResult: what tools/call answers when the server made the call a task."""

    model_config = ConfigDict(extra="allow")
    result_type: Literal["task"] = Field(alias="resultType")
    task_id: str = Field(alias="taskId")
    status: str
    status_message: str | None = Field(default=None, alias="statusMessage")
    ttl_ms: int | None = Field(default=None, alias="ttlMs")
    poll_interval_ms: int | None = Field(default=None, alias="pollIntervalMs")


class TaskState(Result):
    """What tasks/get answers: the task, with the call's result (completed) or error (failed)."""

    model_config = ConfigDict(extra="allow")
    task_id: str = Field(alias="taskId")
    status: str
    status_message: str | None = Field(default=None, alias="statusMessage")
    created_at: str = Field(alias="createdAt")
    last_updated_at: str = Field(alias="lastUpdatedAt")
    ttl_ms: int | None = Field(default=None, alias="ttlMs")
    poll_interval_ms: int | None = Field(default=None, alias="pollIntervalMs")
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


class Ack(Result):
    result_type: str | None = Field(default=None, alias="resultType")


class TaskParams(RequestParams):
    task_id: str = Field(alias="taskId")


class UpdateParams(TaskParams):
    input_responses: dict[str, Any] = Field(default_factory=dict, alias="inputResponses")


class GetTaskRequest(Request[TaskParams, Literal["tasks/get"]]):
    name_param = "taskId"


class UpdateTaskRequest(Request[UpdateParams, Literal["tasks/update"]]):
    name_param = "taskId"


class CancelTaskRequest(Request[TaskParams, Literal["tasks/cancel"]]):
    name_param = "taskId"


async def tasks_get(session: Any, task_id: str) -> TaskState:
    return await session.send_request(GetTaskRequest(method="tasks/get", params=TaskParams(taskId=task_id)),
                                      TaskState)


async def tasks_update(session: Any, task_id: str, responses: dict[str, Any]) -> Ack:
    request = UpdateTaskRequest(method="tasks/update", params=UpdateParams(taskId=task_id, inputResponses=responses))
    return await session.send_request(request, Ack)


async def tasks_cancel(session: Any, task_id: str) -> Ack:
    return await session.send_request(CancelTaskRequest(method="tasks/cancel", params=TaskParams(taskId=task_id)),
                                      Ack)


async def poll_until_done(session: Any, task_id: str, seen: list[TaskState] | None = None,
                          timeout_s: float = 60.0) -> TaskState:
    """tasks/get until the task is terminal, at the server's poll interval (shortened for tests)."""
    deadline = asyncio.get_running_loop().time() + timeout_s
    while True:
        state = await tasks_get(session, task_id)
        if seen is not None:
            seen.append(state)
        if state.status in TERMINAL:
            return state
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"task {task_id} still {state.status} after {timeout_s} s")
        await asyncio.sleep(min((state.poll_interval_ms or 1000) / 1000, 0.1))


async def _resolve(handle: TaskHandle, ctx: ClaimContext) -> CallToolResult:
    state = await poll_until_done(ctx.session, handle.task_id)
    if state.status != "completed":
        raise RuntimeError(f"task {handle.task_id} ended {state.status}: {state.status_message}")
    return CallToolResult.model_validate(state.result)


class TasksClient(ClientExtension):
    """Declares the tasks extension; `Client.call_tool` then polls a task to its end and returns its result,
    while `client.session.call_tool(..., allow_claimed=True)` hands back the TaskHandle itself."""

    identifier = TASKS

    def claims(self) -> list[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=TaskHandle, resolve=_resolve)]
