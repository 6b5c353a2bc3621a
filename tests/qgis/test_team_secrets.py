"""The Redis password lives in QGIS's authentication database like PostgreSQL's: an older profile's
`redis://:password@host` setting is moved there on start (and the user told), the URL field refuses
one, and the stores connect to a password-protected Redis with the credentials from the auth config."""

from __future__ import annotations

import pytest
import redis.asyncio as aioredis
from qgis.core import QgsApplication, QgsSettings
from qgis.PyQt.QtCore import QSettings
from qgis.PyQt.QtWidgets import QDialog

from stacgis_agent.agent.config import Settings
from stacgis_agent.agent.settings_checks import check_redis
from stacgis_agent.host.settings_store import (
    load_settings,
    move_redis_password,
    read_secret,
    save_settings,
    store_secret,
    with_server_credentials,
)
from stacgis_agent.ui.settings_dialog import SettingsDialog
from testkit.servers.secured_servers import new_password, password_redis


@pytest.fixture
def auth_db(qgis_app):
    manager = QgsApplication.authManager()
    if not manager.masterPasswordIsSet():
        assert manager.setMasterPassword("stacgis-test-master", True)
    return manager


@pytest.fixture
def secured_redis():
    password = new_password()
    server = password_redis(password)
    yield server
    server.stop()


def _profile(tmp_path) -> QgsSettings:
    return QgsSettings(str(tmp_path / "QGIS3.ini"), QSettings.Format.IniFormat)


async def test_an_old_profile_with_the_redis_password_in_the_url_is_moved_to_the_auth_database(
        auth_db, secured_redis, tmp_path):
    password = secured_redis.password
    old = _profile(tmp_path)
    save_settings(Settings(redis_url=f"redis://:{password}@127.0.0.1:{secured_redis.port}/0"), old)

    told = move_redis_password(_profile(tmp_path))
    assert "now lives in QGIS's authentication database" in told and password not in told
    ini = (tmp_path / "QGIS3.ini").read_text()
    assert password not in ini  # gone from the settings file
    settings = load_settings(_profile(tmp_path), apply_env=False)
    assert settings.redis_url == secured_redis.url and read_secret(settings.redis_auth_cfg) == ("", password)
    assert move_redis_password(_profile(tmp_path)) == ""  # once moved, nothing more to say

    connected = with_server_credentials(settings)  # what the stores get, in memory only
    client = aioredis.Redis.from_url(connected.redis_url)
    try:
        assert await client.ping()
    finally:
        await client.aclose()
    assert password not in (tmp_path / "QGIS3.ini").read_text()


async def test_the_redis_test_button_logs_in_with_the_auth_config_and_never_shows_the_password(
        auth_db, secured_redis):
    password = secured_redis.password
    without = await check_redis(secured_redis.url)
    assert not without.ok and "auth configuration" in without.message
    auth_id = store_secret("Team Redis (test)", "", password)
    dialog = SettingsDialog(Settings(redis_url=secured_redis.url, redis_auth_cfg=auth_id), read_login=read_secret)
    try:
        await dialog.test_redis()
        assert dialog.redis_result.text().startswith("Redis ") and "answered" in dialog.redis_result.text()
        assert password not in dialog.redis_result.text()
        assert dialog.settings().redis_auth_cfg == auth_id
    finally:
        dialog.close()


def test_the_url_field_refuses_a_password_and_says_where_it_goes(qgis_app):
    dialog = SettingsDialog(Settings())
    try:
        dialog.redis_url.setText("redis://:hunter2@cache:6379/0")
        dialog.accept()
        assert dialog.result() != QDialog.DialogCode.Accepted
        assert "Do not put the Redis password in the URL" in dialog.problems.text()
        dialog.redis_url.setText("redis://cache:6379/0")
        dialog.accept()
        assert dialog.result() == QDialog.DialogCode.Accepted
    finally:
        dialog.close()


def test_settings_help_says_the_limit_holds_per_computer_while_redis_is_down(qgis_app):
    dialog = SettingsDialog(Settings(max_concurrent_chats=6))
    try:
        assert dialog.max_concurrent_chats.value() == 6
        assert "per computer only" in dialog.max_concurrent_chats.toolTip()
        dialog.max_concurrent_chats.setValue(3)
        assert dialog.settings().max_concurrent_chats == 3
    finally:
        dialog.close()
