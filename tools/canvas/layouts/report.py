"""export_session_report: the chat so far as a PDF or HTML report in the outputs folder (questions, answers,
charts and the pages of the layouts exported, and the provenance of every STAC item, asset and parameter
used), the same document as the Sessions tab's "Export report"."""

from __future__ import annotations

import asyncio
from typing import Annotated, Literal

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from ...common import WRITE, ToolInputError, ok, policy
from ...declare import deps_of, tool
from ...output_names import inside_outputs, new_output_file
from ...session.chat_report import exchanges, provenance, report_bytes, save_report


@tool(annotations=WRITE, meta=policy(requires=["qgis"]))
async def export_session_report(
    ctx: Context,
    format: Annotated[Literal["pdf", "html"], Field(description="File format")] = "pdf",
    file_name: Annotated[str | None, Field(
        description="File name without folder; written into the plugin's output folder")] = None,
) -> CallToolResult:
    """Write this chat as a report (PDF or HTML) a colleague can check and repeat: questions, answers, charts, exported map pages, and the provenance of every STAC item, asset and parameter used. E.g. 'make a report of this session'."""
    deps = deps_of(ctx)
    if deps.outside_client:
        raise ToolInputError("The dock's chat is not reported to outside MCP clients.")
    record = await deps.chat_record() if deps.chat_record is not None else None
    if record is None or not record.events:
        raise ToolInputError("There is no saved chat to report on yet; this works in the dock's chat "
                             "(or use Sessions ▸ Export report).")
    outputs = deps.output_dir()
    target = inside_outputs(new_output_file(outputs, [file_name or record.info.title or "session report"],
                                            "." + format), outputs)
    data = report_bytes(record, outputs, format)  # Qt's text layout, in memory, on this (GUI) thread
    await asyncio.to_thread(save_report, target, data, format)
    items = exchanges(record, outputs)
    lines = provenance(items)
    pictures = sum(len(e.pictures) for e in items)
    return ok({"path": str(target), "format": format, "questions": len(items), "pictures": pictures,
               "provenance": lines, "bytes": target.stat().st_size},
              f"Report of {len(items)} question(s), {pictures} picture(s) and {len(lines)} provenance line(s) "
              f"written to {target}.")
