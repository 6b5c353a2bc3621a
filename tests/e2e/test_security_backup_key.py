"""The backup provider's API key (issue 14 item 11): kept in QGIS's authentication database, referenced by
the setting `backup_auth_cfg`, and sent by the loaded plugin to an OpenAI-compatible backup when Ollama
is down — so a backup that needs a key can answer."""

from __future__ import annotations

import gc

from qgis.core import QgsApplication

from stacgis_agent.host.settings_store import store_secret
from testkit.llm.ollama_emulator import OllamaEmulator, Turn
from testkit.qgis_drivers.analyst_view import chat
from testkit.qgis_drivers.plugin_driver import send, wait_turn
from testkit.servers.loopback import free_port


def test_the_plugin_sends_the_backup_key_from_the_auth_database_to_an_openai_backup(make_plugin):
    manager = QgsApplication.authManager()
    if not manager.masterPasswordIsSet():
        assert manager.setMasterPassword("stacgis-test-master", True)
    auth_id = store_secret("Backup LLM key (test)", "", "sk-backup-secret")
    with OllamaEmulator() as backup:
        backup.script(Turn(content="Answered by the backup."))
        plugin = make_plugin(ollama_url=f"http://127.0.0.1:{free_port()}",  # nothing listens: Ollama is down
                             backup_provider_url=backup.url + "/v1", backup_kind="openai",
                             backup_model="qwen3:8b", backup_auth_cfg=auth_id)
        send(plugin, "Hello?")
        wait_turn(plugin, 30)
        chats = [r for r in backup.requests if r.path == "/v1/chat/completions"]
        # The OpenAI-compatible path leaves httpcore streams for the garbage collector; finalised later, in
        # another test, they upset CPython 3.11's ast.parse ("recursion depth mismatch"). Collect them now.
        gc.collect()
    assert chat(plugin)[-1] == ("assistant", "Answered by the backup.")
    assert chats and chats[0].headers["Authorization"] == "Bearer sk-backup-secret"
