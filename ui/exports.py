"""A session as Markdown, with its tool calls. (The map as a PyQGIS script: ui/project_script.py.)

Its fixed texts ("You:", "Called …", an error's sentence) are in the language of `tr`: the Sessions tab hands the
dock's (ui.i18n.tr); without one they are English. What the analyst, the model and the tools wrote is as written."""

from __future__ import annotations

import json
from typing import Any

from ..agent import events as ev
from ..agent.dock_text import Said, Translate, as_written
from ..agent.session_history import history_items
from ..agent.stores.base import SessionRecord
from .tool_error_text import tool_failure


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, default=str)


def session_to_markdown(record: SessionRecord, tr: Translate = as_written) -> str:
    title = record.info.title or record.info.session_id
    lines = [f"# {title}", ""]
    answer: list[str] = []

    def close_answer() -> None:
        if answer:
            lines.extend([f"**{tr('Assistant:')}**", "", "".join(answer).strip(), ""])
            answer.clear()

    for item in history_items(record):
        if isinstance(item, ev.UserMessage):
            close_answer()
            lines.extend([f"**{tr('You:')}**", "", item.text, ""])
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
                lines.extend([f"_{tr('Stopped by the user.')}_", ""])
        else:
            close_answer()
            lines.extend(_activity_lines(item, tr))
    close_answer()
    return "\n".join(lines).rstrip() + "\n"


def _said(said: Said, english: str, tr: Translate) -> str:
    return said.text(tr) if said.template and tr is not as_written else english


def _activity_lines(item: ev.Event, tr: Translate) -> list[str]:
    if isinstance(item, ev.ToolStart):
        return ["> " + tr("Called {tool}").format(tool=f"`{item.tool_name}`"), "", "```json", _json(item.tool_args),
                "```", ""]
    if isinstance(item, ev.ToolResult):
        return ["> " + tr("{tool} completed in {ms} ms").format(tool=f"`{item.tool_name}`",
                                                                ms=f"{item.duration_ms:.0f}"), ""]
    if isinstance(item, ev.ToolError):  # what the model was told, unless the runner or a tool's template says it
        if item.said.template or tr is as_written:
            return ["> " + tr("{tool} failed: {text}").format(tool=f"`{item.tool_name}`",
                                                              text=_said(item.said, item.error, tr)), ""]
        told, hints = tool_failure(item.error, tr)  # the analyst's part translated; the instructions as written
        lines = ["> " + tr("{tool} failed: {text}").format(tool=f"`{item.tool_name}`", text=told)]
        return lines + ([">", "> " + tr("Told the assistant: {hints}").format(hints=hints)] if hints else []) + [""]
    if isinstance(item, ev.AskUser):
        return ["> " + tr("Asked: {question} ({options})").format(question=item.question,
                                                                  options=" / ".join(item.options)), ""]
    if isinstance(item, ev.Error):
        return ["> " + tr("Error: {message}").format(message=_said(item.said, item.message, tr)), ""]
    if isinstance(item, ev.Notice):
        return [f"> {_said(item.said, item.text, tr)}", ""]
    return []
