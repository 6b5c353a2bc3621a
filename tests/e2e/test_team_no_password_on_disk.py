"""A team session through the real plugin with password-protected Redis and PostgreSQL (both killed
and restarted midway): the chat and its memories reach the servers, and neither password is
written to any file of the QGIS profile, the plugin's data folder, or the log."""

from __future__ import annotations

import logging
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
import redis as redis_client
from qgis.core import QgsApplication, QgsSettings

from stacgis_agent.host.settings_store import PREFIX, store_secret
from testkit.llm.ollama_emulator import Turn
from testkit.qgis_drivers.analyst_view import chat, feed
from testkit.qgis_drivers.plugin_driver import process_until, send, wait_turn
from testkit.qgis_drivers.plugin_loader import unload_plugin
from testkit.servers.secured_servers import new_password, password_pg, password_redis

pytestmark = pytest.mark.server


@pytest.fixture
def qgis_log():
    """Every line the plugin (or QGIS) wrote to the QGIS message log during the test."""
    lines: list[str] = []

    def keep(message, tag, _level):
        lines.append(f"{tag}: {message}")

    log = QgsApplication.messageLog()
    log.messageReceived.connect(keep)
    yield lines
    log.messageReceived.disconnect(keep)


@pytest.fixture
def old_profile_redis_url():
    """The Redis URL as an older version saved it, password included, in the real QGIS profile."""
    qs = QgsSettings()
    yield lambda url: (qs.setValue(PREFIX + "redis_url", url), qs.sync())
    for key in ("redis_url", "redis_auth_cfg"):
        qs.remove(PREFIX + key)
    qs.sync()


def _remember(plugin, emu, fact: str, question: str) -> None:
    emu.script(Turn(tool_calls=[("add_memory", {"content": fact})]), Turn(content=f"Noted: {fact}"))
    send(plugin, question)
    wait_turn(plugin, 40)
    assert chat(plugin)[-1] == ("assistant", f"Noted: {fact}")


def _files_holding(folders: list[Path], secret: str) -> list[str]:
    forms = {secret.encode(), quote(secret, safe="").encode()}
    return [str(path) for folder in folders for path in folder.rglob("*")
            if path.is_file() and any(form in path.read_bytes() for form in forms)]


def test_a_team_session_writes_no_password_to_settings_data_or_logs(
        make_plugin, emu, tmp_path, qgis_log, old_profile_redis_url, caplog):
    caplog.set_level(logging.DEBUG)
    redis_password, pg_password = new_password(), new_password()
    redis, pg = password_redis(redis_password), password_pg(pg_password)
    try:
        manager = QgsApplication.authManager()
        if not manager.masterPasswordIsSet():
            assert manager.setMasterPassword("stacgis-test-master", True)
        pg_auth = store_secret("Team memory (e2e)", "postgres", pg_password)
        old_profile_redis_url(f"redis://:{redis_password}@127.0.0.1:{redis.port}/0")

        plugin = make_plugin(postgres_dsn=pg.dsn, postgres_auth_cfg=pg_auth)
        moved = [e for e in feed(plugin) if "now lives in QGIS's authentication database" in e]
        assert len(moved) == 1, feed(plugin)  # the user is told once
        _remember(plugin, emu, "I work in EPSG:2154.", "Remember my CRS")
        session_id = plugin.runtime.session.session_id

        redis.kill()
        pg.kill()
        _remember(plugin, emu, "I like the RdYlGn ramp.", "Remember my ramp")
        redis.restart()
        pg.restart()
        assert process_until(lambda: False, 2.5) is False  # past the stores' first retry delay
        _remember(plugin, emu, "My parcels layer is called cadastre.", "Remember my layer")

        with redis_client.Redis(port=redis.port, password=redis_password) as r:  # the chat went back to Redis
            assert process_until(lambda: r.exists(f"session:{session_id}"), 10)
        with psycopg.connect(pg.dsn, password=pg_password) as conn:
            stored = {row[0] for row in conn.execute("SELECT content FROM memories")}
        assert stored == {"I work in EPSG:2154.", "I like the RdYlGn ramp.", "My parcels layer is called cadastre."}
        unload_plugin(plugin)

        folders = [Path(QgsApplication.qgisSettingsDirPath()), tmp_path]  # the QGIS profile, the plugin's data
        for password in (redis_password, pg_password):
            assert _files_holding(folders, password) == []
            assert not [line for line in qgis_log if password in line]
            assert password not in caplog.text
    finally:
        redis.stop()
        pg.stop()
