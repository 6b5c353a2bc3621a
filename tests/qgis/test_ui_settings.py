"""The settings dialog refuses invalid input with the reason and tests real servers."""

from __future__ import annotations

import json
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from qgis.core import QgsApplication
from qgis.PyQt.QtWidgets import QDialog

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.host.settings_store import store_secret
from stacgis_agent.tools.stac.catalog_check import check_catalog_access
from stacgis_agent.ui.settings_dialog import SettingsDialog
from testkit.llm.ollama_emulator import OllamaEmulator
from testkit.servers.loopback import free_port
from testkit.servers.pg_server import shared_pg
from testkit.servers.redis_server import shared_redis


@pytest.fixture
def dialog(qgis_app):
    dialog = SettingsDialog(Settings(ollama_url="http://127.0.0.1:11434", catalogs=[
        CatalogConfig("Earth Search", "https://earth-search.aws.element84.com/v1", "api")]),
        check_access=check_catalog_access)
    yield dialog
    dialog.close()


def test_invalid_input_is_refused_with_the_reason_then_saved_when_fixed(dialog):
    dialog.ollama_url.setText("localhost:11434")
    dialog.redis_url.setText("http://cache:6379")
    dialog.postgres_dsn.setText("postgresql://agent:secret@db/agent")
    dialog.catalogs.add_catalog(CatalogConfig("Earth Search", "/no/such/catalog.json", "api"))
    dialog.accept()
    assert dialog.result() != QDialog.DialogCode.Accepted
    problems = dialog.problems.text()
    assert "Ollama URL “localhost:11434” is not an http(s) URL" in problems
    assert "Redis URL must start with redis://" in problems
    assert "Do not put the PostgreSQL password in the DSN" in problems
    assert "Two catalogs are named “Earth Search”" in problems
    assert "a STAC API needs an http(s) URL" in problems

    dialog.ollama_url.setText("http://gpu-box:11434/")
    dialog.redis_url.setText("redis://cache:6379/0")
    dialog.postgres_dsn.setText("postgresql://agent@db/agent")
    dialog.catalogs.remove_selected()
    dialog.max_steps.setValue(500)  # the spin box clamps to the allowed range
    dialog.accept()
    assert dialog.result() == QDialog.DialogCode.Accepted and dialog.problems.isHidden()
    saved = dialog.settings()
    assert (saved.ollama_url, saved.redis_url, saved.max_steps) == ("http://gpu-box:11434", "redis://cache:6379/0", 100)
    assert [c.name for c in saved.catalogs] == ["Earth Search"]
    assert saved.keep_alive == Settings().keep_alive  # fields the dialog does not show are kept


async def test_test_connection_lists_installed_models_with_capabilities(dialog):
    with OllamaEmulator() as emu:
        dialog.ollama_url.setText(emu.url)
        dialog.test_ollama_button.click()
        await dialog.tasks[-1]
    assert "qwen3:8b ready" in dialog.ollama_result.text()
    chat = [dialog.chat_model.itemText(i) for i in range(dialog.chat_model.count())]
    assert chat == ["qwen3:8b — tools, thinking · 40\u202f960 ctx", "gemma3:4b — vision · 131\u202f072 ctx"]
    assert [dialog.embedding_model.itemData(i) for i in range(dialog.embedding_model.count())] == ["nomic-embed-text"]
    assert dialog.settings().chat_model == "qwen3:8b"
    dialog.chat_model.setCurrentIndex(dialog.chat_model.findData("gemma3:4b"))
    assert dialog.chat_model_info.text() == "gemma3:4b cannot call tools; pick one marked “tools”."
    assert dialog.settings().chat_model == "gemma3:4b"


async def test_opening_the_dialog_lists_the_models_without_a_click(qgis_app):
    with OllamaEmulator() as emu:
        dialog = SettingsDialog(Settings(ollama_url=emu.url))
        dialog.show()
        await dialog.tasks[0]
        assert [dialog.chat_model.itemData(i) for i in range(dialog.chat_model.count())] == ["qwen3:8b", "gemma3:4b"]
        assert [r.path for r in emu.requests if r.path == "/api/tags"]
        dialog.close()


async def test_test_connection_to_nothing_says_how_to_start_ollama(dialog):
    dialog.ollama_url.setText(f"http://127.0.0.1:{free_port()}")
    await dialog.test_connection()
    assert "ollama serve" in dialog.ollama_result.text() and "be1e1e" in dialog.ollama_result.styleSheet()


async def test_redis_test_button_against_a_real_server_and_a_dead_port(dialog):
    dialog.redis_url.setText(shared_redis().url)
    await dialog.test_redis()
    assert dialog.redis_result.text().startswith("Redis ") and "answered" in dialog.redis_result.text()
    dialog.redis_url.setText(f"redis://127.0.0.1:{free_port()}/0")
    await dialog.test_redis()
    assert "Is redis-server running there?" in dialog.redis_result.text()


async def test_postgres_test_button_reports_pgvector(dialog):
    dialog.postgres_dsn.setText(shared_pg().dsn)
    await dialog.test_postgres()
    assert "with pgvector is reachable" in dialog.postgres_result.text()


@pytest.fixture
def static_site(tmp_path):
    (tmp_path / "catalog.json").write_text(json.dumps({
        "type": "Catalog", "id": "demo", "title": "Demo catalog", "stac_version": "1.0.0",
        "description": "d", "links": [{"rel": "root", "href": "./catalog.json"}]}))
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(SimpleHTTPRequestHandler, directory=str(tmp_path)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", tmp_path
    server.shutdown()
    server.server_close()


async def test_catalog_test_reads_static_catalogs_and_flags_a_static_one_set_as_api(dialog, static_site):
    url, folder = static_site
    await dialog.test_catalog(CatalogConfig("demo", f"{url}/catalog.json", "static"))
    assert dialog.catalog_result.text().startswith("demo: “Demo catalog” answered (static).")
    await dialog.test_catalog(CatalogConfig("demo", str(folder / "catalog.json"), "static"))
    assert dialog.catalog_result.text().startswith("demo: “Demo catalog” answered (static).")
    await dialog.test_catalog(CatalogConfig("demo", f"{url}/catalog.json", "api"))
    assert "has no search link; set its kind to static" in dialog.catalog_result.text()
    await dialog.test_catalog(CatalogConfig("gone", f"{url}/missing.json", "static"))
    assert dialog.catalog_result.text().startswith("gone: could not read")


def test_postgres_password_is_picked_from_the_qgis_auth_database(qgis_app):
    manager = QgsApplication.authManager()
    if not manager.masterPasswordIsSet():
        assert manager.setMasterPassword("stacgis-test-master", True)
    auth_id = store_secret("Team memory (test)", "analyst", "s3cret")
    dialog = SettingsDialog(Settings(postgres_dsn="postgresql://analyst@db/agent", postgres_auth_cfg=auth_id))
    assert dialog.postgres_auth_cfg.configId() == auth_id
    assert dialog.settings().postgres_auth_cfg == auth_id
    # an id this QGIS cannot show (another profile, locked database) is kept, not silently dropped
    assert SettingsDialog(Settings(postgres_auth_cfg="zzz9999")).settings().postgres_auth_cfg == "zzz9999"


def test_outside_access_shows_the_token_masked_copies_regenerates_and_copies_client_config(qgis_app, tmp_path):
    import os
    import stat

    from qgis.PyQt.QtWidgets import QApplication, QLineEdit

    from stacgis_agent.tools.outside.http_endpoint import EndpointAccess, load_or_create_token

    assert SettingsDialog(Settings()).outside.token.parent() is None  # no profile, no token to show
    profile = tmp_path / "profile"
    token = load_or_create_token(profile)
    dialog = SettingsDialog(Settings(mcp_http_port=8800),
                            endpoint_access=EndpointAccess(profile, "/usr/bin/python3", tmp_path / "plugins"))
    tab = dialog.outside
    assert tab.token.text() == token and tab.token.echoMode() == QLineEdit.EchoMode.Password
    tab.copy_token.click()
    assert QApplication.clipboard().text() == token
    tab.regenerate.click()
    new = (profile / "stacgis_mcp_token").read_text()
    assert new != token and tab.token.text() == new and "old one no longer works" in tab.note.text()
    assert stat.S_IMODE(os.stat(profile / "stacgis_mcp_token").st_mode) == 0o600
    dialog.mcp_port.setValue(8811)
    tab.copy_config.click()  # the chosen client's configuration (Claude Desktop, through the bridge): no token
    servers = json.loads(QApplication.clipboard().text())["mcpServers"]
    assert servers == {"qgis-stac-agent": {
        "command": "/usr/bin/python3", "env": {"PYTHONPATH": str(tmp_path / "plugins")},
        "args": ["-m", "stacgis_agent.tools.outside.stdio_bridge", "--port", "8811",
                 "--token-file", str(profile / "stacgis_mcp_token")]}}
    assert new not in QApplication.clipboard().text()
    assert not dialog.settings().mcp_read_only
    tab.trust.setCurrentIndex(1)  # outside clients: read only
    assert dialog.settings().mcp_read_only


def test_outside_folders_and_the_backup_key_config_round_trip(qgis_app):
    dialog = SettingsDialog(Settings(mcp_allowed_folders="/data/a", backup_auth_cfg="zzz9999"))
    dialog.outside.allowed.setPlainText("/data/a\n\n  /data/b  \n")
    assert dialog.settings().mcp_allowed_folders == "/data/a\n/data/b"
    assert dialog.settings().backup_auth_cfg == "zzz9999"  # kept even when this QGIS cannot show it


def test_constrained_tool_calling_switch_round_trips(dialog):
    assert not dialog.constrained_tools.isChecked()
    dialog.constrained_tools.setChecked(True)
    assert dialog.settings().constrained_tools is True
