"""Builds the agent's pieces from the settings and connects them to the dock (wiring only).

provider (agent.llm) + stores (agent.stores) + embedded MCP server (tools, with the canvas
family) → one AgentLoop per chat session, driven by the chat panel (ui). Rebuilt whole when the
user saves new settings; torn down on unload.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import uuid
from pathlib import Path

import httpx
from qgis.core import QgsApplication, QgsProject

from ..agent.config import Settings
from ..agent.health import check_ollama
from ..agent.llm.factory import provider_from_settings
from ..agent.loop import AgentLoop
from ..agent.stores.factory import build_stores
from ..agent.stores.pg_connection import dsn_with_credentials
from .canvas_context import map_context_from_iface
from .settings_store import load_settings, read_secret, save_settings

LOG = logging.getLogger(__name__)


def with_postgres_password(settings: Settings) -> Settings:
    """The DSN as stored has no password; the auth manager holds it."""
    if not (settings.postgres_dsn and settings.postgres_auth_cfg):
        return settings
    user, password = read_secret(settings.postgres_auth_cfg)
    return dataclasses.replace(settings, postgres_dsn=dsn_with_credentials(settings.postgres_dsn, user, password))


class AgentRuntime:
    def __init__(self, iface, dock, tasks):
        self.iface = iface
        self.dock = dock
        self.tasks = tasks
        self.settings = load_settings()
        # Where the plugin keeps its files (sessions, memories, outputs); tests point it elsewhere.
        self.profile_dir = Path(os.environ.get("STACGIS_DATA_DIR") or QgsApplication.qgisSettingsDirPath())
        self.provider = None
        self.stores = None
        self.http = None
        self.deps = None
        self.server = None
        self.session = None
        self.panel = None
        self.endpoint = None
        self.history = None  # tools.canvas.undo.TurnHistory, shared with the canvas tools
        self._turn_id = ""
        self._turn_of_message: dict[str, str] = {}
        self._map_tools: set[str] = set()  # tools that change the map, for the PyQGIS export

    # Building ----------------------------------------------------------------------------
    def start(self) -> None:
        from ..tools.canvas import family as canvas_family
        from ..tools.canvas.project_access import history_of
        from ..tools.deps import ToolDeps
        from ..tools.server import build_server
        from ..ui.chat_panel import ChatPanel
        from ..ui.chat_session import ChatSession

        s = self.settings
        self.stores = build_stores(with_postgres_password(s), self.profile_dir, on_notice=self._notice)
        self.provider = provider_from_settings(s, protocol_folder=self.profile_dir / "stacgis_agent")
        self.http = httpx.AsyncClient(timeout=httpx.Timeout(30.0, connect=10.0), follow_redirects=True)
        self.deps = ToolDeps.from_settings(
            s, http=self.http, memory_store=self.stores.memories, knowledge_store=self.stores.knowledge,
            embed=self.provider.embed, project=QgsProject.instance, iface=lambda: self.iface,
            work_dir=str(self.profile_dir / "stacgis_agent" / "outputs"))
        self.server = build_server(self.deps, extra_families=[canvas_family])
        self.history = history_of(self.deps)

        self.session = ChatSession(self._new_loop, context_source=lambda: map_context_from_iface(self.iface),
                                   changes_map=self._turn_changed_map, gate=self.stores.gate)
        self.session.user_message.connect(self._begin_turn)
        self.session.busy_changed.connect(self._maybe_end_turn)
        self.session.map_changed.connect(self._remember_turn)
        self.panel = ChatPanel(self.session, self.stores.sessions, user=s.user,
                               map_changing_tool=lambda name: name in self._map_tools)
        self.panel.undo_requested.connect(self._undo)
        self.panel.settings_requested.connect(self.open_settings)
        self.dock.set_chat_widget(self.panel)
        self.dock.set_status(f"Checking Ollama at {s.ollama_url}…")
        self.tasks.start(self.refresh_connection(), name="connection-check")
        self.tasks.start(self._read_map_tools(), name="map-tools")
        if s.mcp_http_enabled:
            self.tasks.start(self._start_endpoint([canvas_family]), name="mcp-endpoint")

    def _new_loop(self, session_id: str | None) -> AgentLoop:
        return AgentLoop(self.provider, self.server, self.settings, session_id=session_id,
                         memory_store=self.stores.memories, embed=self.provider.embed,
                         session_store=self.stores.sessions, user=self.settings.user)

    async def _read_map_tools(self) -> None:
        from ..ui.exports import map_changing_tools

        self._map_tools = map_changing_tools(await self.server.list_tools())

    async def _start_endpoint(self, families) -> None:
        from ..tools.http_endpoint import McpHttpEndpoint, load_or_create_token

        endpoint = McpHttpEndpoint(self.deps, load_or_create_token(self.profile_dir), self.settings.mcp_http_port,
                                   extra_families=families)
        try:
            await endpoint.start()
        except RuntimeError as exc:
            self._notice(str(exc))
            return
        self.endpoint = endpoint

    # Status ------------------------------------------------------------------------------
    async def refresh_connection(self):
        state = await check_ollama(self.settings.ollama_url, self.settings.chat_model)
        if self.dock is not None:
            self.dock.set_status(state.message, ok=state.ok)
        LOG.info(state.message)
        return state

    def _notice(self, text: str) -> None:
        LOG.warning(text)
        if self.dock is not None:
            self.dock.set_status(text, ok=False)

    # Undo of agent turns -------------------------------------------------------------------
    def _begin_turn(self, _text: str) -> None:
        self._turn_id = uuid.uuid4().hex
        self.history.begin_turn(self._turn_id)

    def _maybe_end_turn(self, busy: bool) -> None:
        if not busy:
            self.history.end_turn()

    def _turn_changed_map(self, _tool_name: str) -> bool:
        return self._turn_id in self.history.turn_ids()

    def _remember_turn(self, message_id: str) -> None:
        self._turn_of_message[message_id] = self._turn_id

    def _undo(self, message_id: str) -> None:
        turn_id = self._turn_of_message.get(message_id)
        changed = self.history.turn_ids()
        if not changed or turn_id != changed[-1]:
            self._notice("Only the most recent turn that changed the map can be undone; undo that one first.")
            return
        turn = self.history.undo_last_turn(skip_open=True)
        if turn is not None:
            self.panel.conversation.show_undo("")
            self.dock.set_status(f"Undid {len(turn.changes)} map change(s) of that turn.", ok=True)

    # Settings ----------------------------------------------------------------------------
    def open_settings(self) -> None:
        from ..ui.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.settings, read_password=lambda auth_id: read_secret(auth_id)[1],
                                parent=self.iface.mainWindow())
        if dialog.exec():
            save_settings(dialog.settings())
            self.tasks.start(self.restart(), name="restart")

    async def restart(self) -> None:
        """New settings: tear everything down and build it again (the open chat is saved)."""
        await self.aclose()
        self.settings = load_settings()
        self.start()

    # Teardown ----------------------------------------------------------------------------
    async def aclose(self) -> None:
        if self.session is not None:
            await self.session.close_agent()
        if self.endpoint is not None:
            await self.endpoint.stop()
            self.endpoint = None
        for closer in (self.provider, self.stores, self.http):
            if closer is not None:
                try:
                    await closer.aclose()
                except Exception:
                    LOG.exception("closing %r failed", closer)
        self.provider = self.stores = self.http = None

    async def _close_after(self, closing) -> None:
        if closing is not None:
            await asyncio.wait([closing], timeout=5)
        await self.aclose()

    def shutdown(self) -> None:
        """Unload: stop the running turn at once and close connections in the background."""
        closing = self.session.shutdown() if self.session is not None else None
        self.session = None
        try:
            loop = asyncio.get_event_loop_policy().get_event_loop()
            task = loop.create_task(self._close_after(closing), name="stacgis_agent:shutdown")
            task.add_done_callback(_log_failure)
        except RuntimeError:
            pass
        self.dock = None


def _log_failure(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None:
        LOG.error("Closing the agent failed: %s", task.exception())
