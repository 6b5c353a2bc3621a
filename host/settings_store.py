"""Reads and writes `agent.config.Settings` through QgsSettings under the plugin prefix;
secrets go to QGIS's auth manager and only their config id is stored."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
from pathlib import Path

from qgis.core import QgsApplication, QgsAuthMethodConfig, QgsSettings

from ..agent.config import Settings
from ..agent.dock_text import Translate, as_written

LOG = logging.getLogger(__name__)
PREFIX = "stacgis_agent/"


def data_folder() -> Path:
    """The folder the plugin keeps its files under (sessions, memories, outputs in `stacgis_agent/`): the QGIS
    profile's, or STACGIS_DATA_DIR's (tests point it elsewhere)."""
    return Path(os.environ.get("STACGIS_DATA_DIR") or QgsApplication.qgisSettingsDirPath())


def load_settings(qsettings: QgsSettings | None = None, apply_env: bool = True) -> Settings:
    qs = qsettings or QgsSettings()
    stored = {}
    for f in dataclasses.fields(Settings):
        key = PREFIX + f.name
        if qs.contains(key):
            stored[f.name] = qs.value(key)
    settings = Settings.from_dict(stored)
    return settings.with_env() if apply_env else settings


def save_settings(settings: Settings, qsettings: QgsSettings | None = None) -> None:
    qs = qsettings or QgsSettings()
    for name, value in settings.to_dict().items():
        if isinstance(value, (list, dict)):
            value = json.dumps(value)  # catalogs: one JSON string keeps QgsSettings portable
        qs.setValue(PREFIX + name, value)
    qs.sync()


def store_secret(name: str, username: str, password: str, existing_id: str = "") -> str:
    """Saves a username/password in the QGIS auth manager (Basic method); returns its config id."""
    manager = QgsApplication.authManager()
    config = QgsAuthMethodConfig("Basic")
    if existing_id and manager.loadAuthenticationConfig(existing_id, config, True):
        config.setConfig("username", username)
        config.setConfig("password", password)
        manager.updateAuthenticationConfig(config)
        return existing_id
    config.setName(name)
    config.setConfig("username", username)
    config.setConfig("password", password)
    result = manager.storeAuthenticationConfig(config)
    # QGIS ≥ 3.32 returns (ok, stored_config); 3.22 returns ok and fills in the id in place.
    ok, stored = result if isinstance(result, tuple) else (result, config)
    if not ok:
        raise RuntimeError("QGIS's authentication database refused the credentials "
                           "(set a master password in Settings ▸ Options ▸ Authentication).")
    return stored.id()


def read_secret(auth_id: str) -> tuple[str, str]:
    """(username, password) of an auth config id, ("", "") when unknown."""
    if not auth_id:
        return "", ""
    config = QgsAuthMethodConfig()
    if not QgsApplication.authManager().loadAuthenticationConfig(auth_id, config, True):
        LOG.warning("Auth config %s not found in the QGIS authentication database", auth_id)
        return "", ""
    return config.config("username"), config.config("password")


def with_postgres_password(settings: Settings) -> Settings:
    """The DSN as stored has no password; the auth manager holds it."""
    from ..agent.stores.pg_connection import dsn_with_credentials  # psycopg: not before the requirements

    if not (settings.postgres_dsn and settings.postgres_auth_cfg):
        return settings
    user, password = read_secret(settings.postgres_auth_cfg)
    return dataclasses.replace(settings, postgres_dsn=dsn_with_credentials(settings.postgres_dsn, user=user, password=password))


def with_redis_credentials(settings: Settings) -> Settings:
    """The Redis URL as stored has no password; the auth manager holds it (and the ACL user)."""
    from ..agent.stores.redis_url import url_with_credentials

    if not (settings.redis_url and settings.redis_auth_cfg):
        return settings
    user, password = read_secret(settings.redis_auth_cfg)
    return dataclasses.replace(settings, redis_url=url_with_credentials(settings.redis_url, user=user, password=password))


def with_server_credentials(settings: Settings) -> Settings:
    """The settings the stores connect with: both servers' credentials from the auth manager.
    Kept in memory only; what is saved is always the settings without them."""
    return with_redis_credentials(with_postgres_password(settings))


REDIS_AUTH_NAME = "STAC GIS Agent: Redis"


def move_redis_password(qsettings: QgsSettings | None = None, tr: Translate = as_written) -> str:
    """An older version kept `redis://:password@host` in QGIS's settings file. Moves the
    credentials into a new auth config and stores the bare URL; returns what to tell the user
    in the dock's language (`tr`, agent/dock_text.py; "" when there was nothing to move)."""
    from ..agent.stores.redis_url import redacted, split_credentials

    qs = qsettings or QgsSettings()
    bare, user, password = split_credentials(str(qs.value(PREFIX + "redis_url", "") or ""))
    if not password:
        return ""
    existing = str(qs.value(PREFIX + "redis_auth_cfg", "") or "")
    try:
        auth_id = store_secret(REDIS_AUTH_NAME, user, password, existing_id=existing)
    except RuntimeError as exc:
        LOG.warning("The Redis password could not be moved to the authentication database: %s", exc)
        return tr("The Redis password is still written in clear in QGIS's settings file: {error} The plugin moves "
                  "it to QGIS's authentication database on the next start.").format(error=exc)
    qs.setValue(PREFIX + "redis_url", bare)
    qs.setValue(PREFIX + "redis_auth_cfg", auth_id)
    qs.sync()
    LOG.info("Redis credentials for %s moved to auth config %s", redacted(bare), auth_id)
    return tr("The Redis password was in clear in QGIS's settings file; it now lives in QGIS's authentication "
              "database (auth config “{name}”, id {id}) and the Redis URL no longer holds it.").format(
        name=REDIS_AUTH_NAME, id=auth_id)


