"""The locator bar (Ctrl+K): typing `ask <question>` sends the question to the chat.

QGIS runs a filter's fetchResults on a worker thread: it only builds one result from the typed
text and touches nothing of the project or the widgets. triggerResult runs on the GUI thread and
hands the text to the plugin's callback (which opens the dock and sends it).

Its words are in the analyst's language: `tr` is the dock's translation (agent/dock_text.py), applied when the
filter is made or cloned, on the GUI thread, so the worker thread only fills in the question."""

from __future__ import annotations

from typing import Callable

from qgis.core import QgsLocatorFilter, QgsLocatorResult

from ..agent.dock_text import Translate, as_written

PREFIX = "ask"


class AskAgentFilter(QgsLocatorFilter):
    def __init__(self, ask: Callable[[str], None], parent=None, tr: Translate = as_written):
        super().__init__(parent)
        self._ask = ask
        self._tr = tr
        self._display_name = tr("Ask STAC GIS Agent")
        self._entry = tr("Ask the assistant: {question}")

    def clone(self) -> AskAgentFilter:
        return AskAgentFilter(self._ask, tr=self._tr)

    def name(self) -> str:
        return "stacgis_agent_ask"

    def displayName(self) -> str:  # noqa: N802 - Qt override
        return self._display_name

    def prefix(self) -> str:
        return PREFIX

    def flags(self):
        return QgsLocatorFilter.FlagFast

    def fetchResults(self, string: str, context, feedback) -> None:  # noqa: N802 - Qt override
        question = " ".join((string or "").split())
        if not question:
            return
        result = QgsLocatorResult()
        result.filter = self
        result.displayString = self._entry.format(question=question)
        result.userData = question
        result.score = 1.0
        self.resultFetched.emit(result)

    def triggerResult(self, result) -> None:  # noqa: N802 - Qt override
        question = result.userData() if callable(getattr(result, "userData", None)) else result.userData
        if question:
            self._ask(str(question))
