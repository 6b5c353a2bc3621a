"""Counts of tool calls in this session, shown by the `analytics://summary` resource."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field


@dataclass
class SessionStats:
    started_at: float = field(default_factory=time.time)
    calls: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    seconds: Counter = field(default_factory=Counter)

    def record(self, tool: str, seconds: float, failed: bool) -> None:
        self.calls[tool] += 1
        self.seconds[tool] += seconds
        if failed:
            self.errors[tool] += 1

    def summary(self) -> dict:
        return {
            "session_seconds": round(time.time() - self.started_at, 1),
            "tool_calls": sum(self.calls.values()),
            "tool_errors": sum(self.errors.values()),
            "by_tool": {name: {"calls": n, "errors": self.errors[name], "seconds": round(self.seconds[name], 3)}
                        for name, n in self.calls.most_common()},
        }
