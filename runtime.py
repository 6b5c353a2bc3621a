"""Builds the agent's pieces from the settings and connects them to the dock (wiring only)."""

from __future__ import annotations

import logging

from .agent.health import check_ollama
from .qgis_settings import load_settings

LOG = logging.getLogger(__name__)


class AgentRuntime:
    def __init__(self, iface, dock, tasks):
        self.iface = iface
        self.dock = dock
        self.tasks = tasks
        self.settings = load_settings()

    def start(self) -> None:
        self.dock.set_status(f"Checking Ollama at {self.settings.ollama_url}…")
        self.tasks.start(self.refresh_connection(), name="connection-check")

    async def refresh_connection(self):
        state = await check_ollama(self.settings.ollama_url, self.settings.chat_model)
        if self.dock is not None:
            self.dock.set_status(state.message, ok=state.ok)
        LOG.info(state.message)
        return state

    def shutdown(self) -> None:
        self.dock = None
