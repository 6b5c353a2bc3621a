"""What the outside endpoint keeps of finished MCP tasks: each client's newest KEEP_PER_CLIENT for KEEP_FINISHED_S,
never a running one, so a client polling many tasks cannot grow the server's memory without bound."""

from __future__ import annotations

import time

from stacgis_agent.tools.outside.tasks import ToolTasks, _Task


def _task(tasks: ToolTasks, owner: str, name: str, finished_ago: float | None) -> _Task:
    now = time.time()
    task = _Task(name, owner, "collection_statistics", now - 10, now - 10)
    if finished_ago is not None:
        task.end("completed", None, result={"content": []})
        task.finished = now - finished_ago
    tasks._tasks[name] = task
    return task


def test_each_client_keeps_its_newest_finished_tasks_for_a_while_and_every_running_one():
    tasks = ToolTasks(keep_s=60, keep_per_client=2)
    for k, ago in enumerate([30, 20, 10]):
        _task(tasks, "a", f"a-done-{k}", ago)
    _task(tasks, "a", "a-expired", 61)
    _task(tasks, "a", "a-running", None)
    _task(tasks, "b", "b-done", 50)
    tasks._prune()
    assert sorted(tasks._tasks) == ["a-done-1", "a-done-2", "a-running", "b-done"]


def test_a_finished_task_says_how_long_it_is_kept_and_a_running_one_is_not_dropped():
    tasks = ToolTasks(keep_s=60)
    running = _task(tasks, "a", "r", None).wire(tasks.keep_s)
    done = _task(tasks, "a", "d", 0).wire(tasks.keep_s)
    assert running["ttlMs"] is None and "result" not in running
    assert 69_000 <= done["ttlMs"] <= 71_000 and done["result"] == {"content": []}  # 10 s old, kept 60 s more
    assert done["createdAt"].endswith("Z") and done["status"] == "completed"


def test_a_clients_kept_results_are_bounded_in_bytes_oldest_dropped_first():
    tasks = ToolTasks(keep_s=60, keep_per_client=20, keep_bytes_per_client=25_000)
    for k, ago in enumerate([40, 30, 20, 10]):
        task = _task(tasks, "a", f"a-{k}", ago)
        task.end("completed", None, result={"content": [{"type": "text", "text": "x" * 10_000}]})
        task.finished = time.time() - ago
    huge = _task(tasks, "b", "b-huge", 5)
    huge.end("completed", None, result={"rows": ["y" * 100_000]})
    tasks._prune()
    assert sorted(tasks._tasks) == ["a-2", "a-3", "b-huge"]  # the newest result is kept, whatever its size


def test_the_client_is_the_token_not_a_session_header_it_chose_on_the_sessionless_protocol():
    from types import SimpleNamespace

    from stacgis_agent.tools.heavy_calls import client_key

    def call(protocol: str, **headers: str) -> SimpleNamespace:
        return SimpleNamespace(request=SimpleNamespace(headers=headers), protocol_version=protocol)

    token = {"authorization": "Bearer secret-token"}
    modern = {client_key(call("2026-07-28", **token, **{"mcp-session-id": f"mine-{k}"})) for k in range(9)}
    assert modern == {client_key(call("2026-07-28", **token))}  # nine chosen ids, one client
    assert client_key(call("2026-07-28", authorization="Bearer other")) not in modern
    # on the handshake-era protocol the session manager made the id (and answers 404 to any other)
    assert client_key(call("2025-06-18", **token, **{"mcp-session-id": "abc"})) == "session:abc"
