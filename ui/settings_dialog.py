"""The settings dialog: models from the Ollama server, STAC catalogs, storage, outside access.

It edits a copy of `Settings`; `accept()` refuses invalid input and says why. Saving is the
caller's job (`qgis_settings.save_settings`), secrets stay in the QGIS auth manager.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import Any, Awaitable, Callable

from qgis.gui import QgsAuthConfigSelect
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ..agent import settings_checks as checks
from ..agent.config import Settings
from ..agent.llm.types import ModelInfo
from ..agent.settings_validation import RANGES, validate_settings
from ..agent.stores.redis_url import split_credentials
from .catalogs_editor import CatalogsEditor
from .connection_text import connection_text
from .i18n import tr, translatable
from .outside_access import OutsideAccessTab

log = logging.getLogger(__name__)


def describe_model(model: ModelInfo) -> str:
    abilities = [c for c in ("tools", "thinking", "vision", "embedding") if c in model.capabilities]
    ctx = f" · {model.context_length:,} ctx".replace(",", "\u202f") if model.context_length else ""
    return f"{model.name} — {', '.join(abilities) or tr('text only')}{ctx}"


TEAM_LIMIT_HELP = translatable(
    "With Redis, chats and the concurrent-chat limit are shared by everyone using the same server: "
    "the limit counts the chats of the whole team, and others wait in line. While Redis is "
    "unreachable the limit holds per computer only (each QGIS may run that many chats), so the "
    "shared LLM server can get more at once until Redis is back.")


def _result_label() -> QLabel:
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)  # check results carry server and catalog text: shown as written
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _show(label: QLabel, result: checks.CheckResult) -> None:
    label.setText(result.message)
    label.setStyleSheet("color: #1b7f1b;" if result.ok else "color: #be1e1e;")


class SettingsDialog(QDialog):
    def __init__(self, settings: Settings, *, read_password: Callable[[str], str] | None = None,
                 read_login: Callable[[str], tuple[str, str]] | None = None,
                 check_access: Callable[[Any], Awaitable[Any]] | None = None, endpoint_access=None,
                 add_to_browser: Callable[[Any], str] | None = None,
                 browser_unavailable: str = "", parent=None):
        super().__init__(parent)
        self._endpoint_access = endpoint_access  # tools.outside.http_endpoint.EndpointAccess: the token and client configs
        self.setWindowTitle(tr("STAC GIS Agent settings"))
        self._original = settings
        self._read_password = read_password
        self._read_login = read_login  # auth config id -> (user, password), for the Redis test
        self._check_access = check_access  # catalog -> tools.stac.catalog_check.AccessCheck (search, then an asset)
        self._add_to_browser = add_to_browser  # catalog -> the Browser connection's name (tools.stac.browser_connections)
        self._browser_unavailable = browser_unavailable if add_to_browser else (  # "" = the button can be used
            tr("Adding catalogs to the QGIS Browser is not offered here."))
        self.models: list[ModelInfo] = []
        self.tasks: list[asyncio.Task] = []
        tabs = QTabWidget()
        tabs.addTab(self._model_tab(settings), tr("Model"))
        tabs.addTab(self._catalogs_tab(settings), tr("Catalogs"))
        tabs.addTab(self._storage_tab(settings), tr("Storage"))
        tabs.addTab(self._outside_tab(settings), tr("Outside access"))
        self.problems = QLabel()
        self.problems.setWordWrap(True)
        self.problems.setStyleSheet("color: #be1e1e;")
        self.problems.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(tabs)
        layout.addWidget(self.problems)
        layout.addWidget(buttons)

    # -- tabs
    def _model_tab(self, s: Settings) -> QWidget:
        tab = QWidget()
        form = QFormLayout(tab)
        self.ollama_url = QLineEdit(s.ollama_url)
        self.test_ollama_button = QPushButton(tr("Test connection"))
        self.test_ollama_button.clicked.connect(lambda: self._start(self.test_connection()))
        row = QHBoxLayout()
        row.addWidget(self.ollama_url, 1)
        row.addWidget(self.test_ollama_button)
        form.addRow(tr("Ollama URL"), row)
        self.ollama_result = _result_label()
        form.addRow("", self.ollama_result)
        self.chat_model = QComboBox()
        self.chat_model.setEditable(True)
        self.chat_model.setCurrentText(s.chat_model)
        self.chat_model.currentIndexChanged.connect(self._describe_chat_model)
        form.addRow(tr("Chat model"), self.chat_model)
        self.chat_model_info = _result_label()
        form.addRow("", self.chat_model_info)
        self.embedding_model = QComboBox()
        self.embedding_model.setEditable(True)
        self.embedding_model.setCurrentText(s.embedding_model)
        form.addRow(tr("Embedding model"), self.embedding_model)
        self.backup_url = QLineEdit(s.backup_provider_url)
        self.backup_url.setPlaceholderText(tr("empty: no backup · http://gpu-host:11434 · http://host:8080/v1"))
        self.backup_model = QLineEdit(s.backup_model)
        self.backup_kind = QComboBox()
        self.backup_kind.addItems(["ollama", "openai"])
        self.backup_kind.setCurrentText(s.backup_kind)
        form.addRow(tr("Backup provider URL"), self.backup_url)
        form.addRow(tr("Backup model"), self.backup_model)
        form.addRow(tr("Backup protocol"), self.backup_kind)
        self.backup_auth_cfg = QgsAuthConfigSelect(self)  # the API key is the config's password
        self.backup_auth_cfg.setConfigId(s.backup_auth_cfg)
        self._backup_cfg_touched = False  # an id the auth database cannot show now is kept, as for PostgreSQL
        self.backup_auth_cfg.selectedConfigIdChanged.connect(lambda _id: setattr(self, "_backup_cfg_touched", True))
        form.addRow(tr("Backup API key (QGIS authentication)"), self.backup_auth_cfg)
        self.num_ctx = self._spin(QSpinBox(), "num_ctx", s.num_ctx, step=1024)
        self.temperature = self._spin(QDoubleSpinBox(), "temperature", s.temperature, step=0.1)
        self.max_steps = self._spin(QSpinBox(), "max_steps", s.max_steps)
        self.tool_top_k = self._spin(QSpinBox(), "tool_top_k", s.tool_top_k)
        form.addRow(tr("Context window (num_ctx)"), self.num_ctx)
        form.addRow(tr("Temperature"), self.temperature)
        form.addRow(tr("Max steps per message"), self.max_steps)
        form.addRow(tr("Tools offered when not all fit (top-K)"), self.tool_top_k)
        self.constrained_tools = QCheckBox(tr("Constrained tool calling (for models whose tool calls break)"))
        self.constrained_tools.setChecked(s.constrained_tools)
        self.constrained_tools.setToolTip(tr("Each reply is forced to be one JSON action: a valid tool call or the "
                                             "answer. Models without native tool calling use it automatically."))
        form.addRow("", self.constrained_tools)
        self.voice_model = QLineEdit(s.voice_model)
        self.voice_model.setPlaceholderText(tr("empty: Whisper tiny.en, installed from the dock's Speak button"))
        self.voice_model.setToolTip(tr("A Whisper model in CTranslate2 format that you downloaded (a folder with "
                                       "model.bin, config.json and tokenizer.json, e.g. faster-whisper-base.en): "
                                       "larger models hear better and take longer."))
        form.addRow(tr("Voice model folder"), self.voice_model)
        return tab

    def _catalogs_tab(self, s: Settings) -> QWidget:
        tab = QWidget()
        layout = QVBoxLayout(tab)
        self.catalogs = CatalogsEditor()
        self.catalogs.set_catalogs(s.catalogs)
        self.catalogs.test_requested.connect(lambda c: self._start(self.test_catalog(c)))
        self.catalogs.offer_browser(self._browser_unavailable)
        self.catalogs.browser_requested.connect(self.add_catalog_to_browser)
        self.catalog_result = _result_label()
        layout.addWidget(self.catalogs)
        layout.addWidget(self.catalog_result)
        return tab

    def _storage_tab(self, s: Settings) -> QWidget:
        tab = QWidget()
        form = QFormLayout(tab)
        form.addRow(QLabel(tr("Leave empty to keep everything in the embedded SQLite files.")))
        self._redis_rows(form, s)
        self.postgres_dsn = QLineEdit(s.postgres_dsn)
        self.postgres_dsn.setPlaceholderText("postgresql://agent@db-host:5432/agent")
        self.postgres_auth_cfg = QgsAuthConfigSelect(self, "postgres")
        self.postgres_auth_cfg.setConfigId(s.postgres_auth_cfg)
        # An id the auth database cannot show now (locked, no master password yet) is kept.
        self._auth_cfg_touched = False
        self.postgres_auth_cfg.selectedConfigIdChanged.connect(lambda _id: setattr(self, "_auth_cfg_touched", True))
        self.test_postgres_button = QPushButton(tr("Test"))
        self.test_postgres_button.clicked.connect(lambda: self._start(self.test_postgres()))
        form.addRow(tr("PostgreSQL DSN"), self._with_button(self.postgres_dsn, self.test_postgres_button))
        form.addRow(tr("Password (QGIS authentication)"), self.postgres_auth_cfg)
        self.postgres_result = _result_label()
        form.addRow("", self.postgres_result)
        self.dask_scheduler = QLineEdit(s.dask_scheduler)
        self.dask_scheduler.setPlaceholderText(tr("tcp://scheduler:8786 (empty: statistics computed on this machine)"))
        form.addRow(tr("Dask scheduler"), self.dask_scheduler)
        return tab

    def _redis_rows(self, form: QFormLayout, s: Settings) -> None:
        self.redis_url = QLineEdit(s.redis_url)
        self.redis_url.setPlaceholderText(tr("redis://host:6379/0 · rediss://host:6380/0 for TLS (no password here)"))
        self.test_redis_button = QPushButton(tr("Test"))
        self.test_redis_button.clicked.connect(lambda: self._start(self.test_redis()))
        form.addRow(tr("Redis URL"), self._with_button(self.redis_url, self.test_redis_button))
        self.redis_auth_cfg = QgsAuthConfigSelect(self)  # Basic: the ACL user (may be empty) and the password
        self.redis_auth_cfg.setConfigId(s.redis_auth_cfg)
        self._redis_cfg_touched = False  # an id the auth database cannot show now is kept, as for PostgreSQL
        self.redis_auth_cfg.selectedConfigIdChanged.connect(lambda _id: setattr(self, "_redis_cfg_touched", True))
        form.addRow(tr("Redis password (QGIS authentication)"), self.redis_auth_cfg)
        self.max_concurrent_chats = self._spin(QSpinBox(), "max_concurrent_chats", s.max_concurrent_chats)
        self.max_concurrent_chats.setToolTip(tr(TEAM_LIMIT_HELP))
        form.addRow(tr("Concurrent chats (whole team)"), self.max_concurrent_chats)
        help_text = QLabel(tr(TEAM_LIMIT_HELP))
        help_text.setWordWrap(True)
        form.addRow("", help_text)
        self.redis_result = _result_label()
        form.addRow("", self.redis_result)

    def _outside_tab(self, s: Settings) -> QWidget:
        self.outside = OutsideAccessTab(s, self._endpoint_access)
        self.mcp_enabled, self.mcp_port = self.outside.enabled, self.outside.port
        return self.outside

    @staticmethod
    def _spin(box, name: str, value, step=1):
        low, high = RANGES[name]
        box.setRange(low, high)
        box.setSingleStep(step)
        box.setValue(value)
        return box

    @staticmethod
    def _with_button(edit: QLineEdit, button: QPushButton) -> QHBoxLayout:
        row = QHBoxLayout()
        row.addWidget(edit, 1)
        row.addWidget(button)
        return row

    # -- the edited settings
    def settings(self) -> Settings:
        return dataclasses.replace(
            self._original,
            ollama_url=self.ollama_url.text().strip().rstrip("/"),
            chat_model=self._model_name(self.chat_model),
            embedding_model=self._model_name(self.embedding_model),
            backup_provider_url=self.backup_url.text().strip(), backup_model=self.backup_model.text().strip(),
            backup_kind=self.backup_kind.currentText(), num_ctx=self.num_ctx.value(),
            temperature=round(self.temperature.value(), 2), max_steps=self.max_steps.value(),
            tool_top_k=self.tool_top_k.value(), constrained_tools=self.constrained_tools.isChecked(),
            catalogs=self.catalogs.catalogs(),
            redis_url=self.redis_url.text().strip(), redis_auth_cfg=self.redis_auth_id(),
            max_concurrent_chats=self.max_concurrent_chats.value(), postgres_dsn=self.postgres_dsn.text().strip(),
            postgres_auth_cfg=self.postgres_auth_id(),
            mcp_http_enabled=self.mcp_enabled.isChecked(), mcp_http_port=self.mcp_port.value(),
            mcp_read_only=self.outside.read_only(),
            mcp_allowed_folders=self.outside.allowed_folders(), backup_auth_cfg=self._backup_auth_id(),
            dask_scheduler=self.dask_scheduler.text().strip(), voice_model=self.voice_model.text().strip())

    def _backup_auth_id(self) -> str:
        chosen = self.backup_auth_cfg.configId()
        return chosen if (chosen or self._backup_cfg_touched) else self._original.backup_auth_cfg

    def redis_auth_id(self) -> str:
        chosen = self.redis_auth_cfg.configId()
        return chosen if (chosen or self._redis_cfg_touched) else self._original.redis_auth_cfg

    def postgres_auth_id(self) -> str:
        chosen = self.postgres_auth_cfg.configId()
        return chosen if (chosen or self._auth_cfg_touched) else self._original.postgres_auth_cfg

    @staticmethod
    def _model_name(combo: QComboBox) -> str:
        data = combo.currentData()
        text = combo.currentText().strip()
        # an item's text is the description; its data is the model name, unless the user typed one
        return data if data and combo.itemText(combo.currentIndex()) == text else text

    def accept(self) -> None:
        problems = validate_settings(self.settings(), tr) + self._redis_url_problems()
        if problems:
            self.problems.setText(tr("Not saved:") + "\n" + "\n".join(f"• {p}" for p in problems))
            self.problems.show()
            return
        self.problems.hide()
        super().accept()

    def _redis_url_problems(self) -> list[str]:
        """A password in the URL would be written in clear to QGIS's settings file: refused."""
        _bare, _user, password = split_credentials(self.redis_url.text().strip())
        if not password:
            return []
        return [tr("Do not put the Redis password in the URL: remove it and store it in an auth configuration "
                   "(“Redis password” below, Basic method: user may be empty), so it stays in QGIS's "
                   "authentication database.")]

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self.models and not self.tasks:  # fill the model lists the first time it opens
            self._start(self.test_connection())

    # -- tests against the real servers
    def _start(self, coro) -> asyncio.Task:
        task = asyncio.ensure_future(coro)
        self.tasks.append(task)
        return task

    async def test_connection(self) -> None:
        url = self.ollama_url.text().strip().rstrip("/")
        self.ollama_result.setText(tr("Contacting {url}…").format(url=url))
        result = await checks.check_ollama_connection(url, self._model_name(self.chat_model), connection_text)
        _show(self.ollama_result, result)
        if result.reachable:
            try:
                self.set_models(await checks.installed_models(url))
            except Exception as exc:
                log.warning("could not list the models at %s: %s", url, exc)

    def set_models(self, models: list[ModelInfo]) -> None:
        self.models = models
        for combo, wanted in ((self.chat_model, ("completion", "tools")), (self.embedding_model, ("embedding",))):
            current = self._model_name(combo)
            combo.blockSignals(True)
            combo.clear()
            for model in models:
                if any(c in model.capabilities for c in wanted):
                    combo.addItem(describe_model(model), model.name)
            index = combo.findData(current)
            if index >= 0:
                combo.setCurrentIndex(index)
            else:
                combo.setCurrentText(current)
            combo.blockSignals(False)
        self._describe_chat_model()

    def _describe_chat_model(self, *_args) -> None:
        name = self._model_name(self.chat_model)
        model = next((m for m in self.models if m.name == name), None)
        if model is None:
            self.chat_model_info.clear()
        elif not model.supports_tools:
            self.chat_model_info.setText(tr("{model} cannot call tools; pick one marked “tools”.").format(model=name))
            self.chat_model_info.setStyleSheet("color: #be1e1e;")
        else:
            self.chat_model_info.setText(describe_model(model))
            self.chat_model_info.setStyleSheet("")

    async def test_catalog(self, catalog) -> None:
        from ..agent.catalog_presets import access_method
        self.catalog_result.setText(tr("Testing {catalog}: search, then one asset's header…")
                                    .format(catalog=catalog.name or catalog.url))
        first = None
        if access_method(catalog) in ("none", "headers"):  # the root alone says most about a wrong URL or kind
            first = await checks.check_catalog(catalog, tr)
            if not first.ok:
                return _show(self.catalog_result, first)
        if self._check_access is None:  # no access check given: the root check is what can be said
            first = first or await checks.check_catalog(catalog, tr)
            return _show(self.catalog_result, first)
        result = await self._check_access(catalog, tr=tr)
        more = result.message.removeprefix(catalog.name or catalog.url).lstrip(" :\u00a0\u202f")
        _show(self.catalog_result, checks.CheckResult(result.ok, f"{first.message} {more[:1].upper()}{more[1:]}"
                                                      if first else result.message))

    def add_catalog_to_browser(self, catalog) -> None:
        if self._add_to_browser is None or self._browser_unavailable:
            return _show(self.catalog_result, checks.CheckResult(False, self._browser_unavailable))
        try:
            name = self._add_to_browser(catalog)
        except Exception as exc:  # noqa: BLE001 — the injected function says in words why it could not (a name taken…)
            return _show(self.catalog_result, checks.CheckResult(False, str(exc)))
        _show(self.catalog_result, checks.CheckResult(True, tr(
            "'{name}' is now a STAC connection in the QGIS Browser (its URL and auth config; headers stay in the "
            "plugin). Refresh the Browser panel if it does not show yet; edit it there from now on.").format(name=name)))

    async def test_redis(self) -> None:
        auth = self.redis_auth_id()
        user, password = self._read_login(auth) if (auth and self._read_login) else ("", "")
        _show(self.redis_result, await checks.check_redis(self.redis_url.text().strip(), user, password, tr))

    async def test_postgres(self) -> None:
        auth = self.postgres_auth_id()
        password = self._read_password(auth) if (auth and self._read_password) else ""
        _show(self.postgres_result, await checks.check_postgres(self.postgres_dsn.text().strip(), password, tr))
