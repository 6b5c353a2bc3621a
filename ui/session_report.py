"""The Sessions tab's "Export report": the report is built where the export_session_report tool builds it
too (tools.session.chat_report), so the tab and the chat give the same document."""

from __future__ import annotations

from ..tools.session.chat_report import report_html, write_report

__all__ = ["report_html", "write_report"]
