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
