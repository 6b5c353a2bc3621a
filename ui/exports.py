"""A session as Markdown, with its tool calls. (The map as a PyQGIS script: ui/project_script.py.)"""

from __future__ import annotations

import json
from typing import Any

from ..agent import events as ev
from ..agent.session_history import history_items
from ..agent.stores.base import SessionRecord


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, default=str)


def session_to_markdown(record: SessionRecord) -> str:
    title = record.info.title or record.info.session_id
    lines = [f"# {title}", ""]
    answer: list[str] = []

    def close_answer() -> None:
        if answer:
            lines.extend(["**Assistant:**", "", "".join(answer).strip(), ""])
            answer.clear()

    for item in history_items(record):
        if isinstance(item, ev.UserMessage):
            close_answer()
            lines.extend(["**You:**", "", item.text, ""])
        elif isinstance(item, ev.Content):
            if item.is_complete:
                answer[:] = [item.text]
            else:
                answer.append(item.text)
        elif isinstance(item, ev.Done):
            if not answer and item.content:
                answer.append(item.content)
            close_answer()
            if item.stopped:
                lines.extend(["_Stopped by the user._", ""])
        else:
            close_answer()
            lines.extend(_activity_lines(item))
    close_answer()
    return "\n".join(lines).rstrip() + "\n"


def _activity_lines(item: ev.Event) -> list[str]:
    if isinstance(item, ev.ToolStart):
        return [f"> Called `{item.tool_name}`", "", "```json", _json(item.tool_args), "```", ""]
    if isinstance(item, ev.ToolResult):
        return [f"> `{item.tool_name}` completed in {item.duration_ms:.0f} ms", ""]
    if isinstance(item, ev.ToolError):
        return [f"> `{item.tool_name}` failed: {item.error}", ""]
    if isinstance(item, ev.AskUser):
        return [f"> Asked: {item.question} ({' / '.join(item.options)})", ""]
    if isinstance(item, ev.Error):
        return [f"> Error: {item.message}", ""]
    if isinstance(item, ev.Notice):
        return [f"> {item.text}", ""]
    return []
