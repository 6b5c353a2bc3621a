"""Reads and writes `agent.config.Settings` through QgsSettings under the plugin prefix;
secrets go to QGIS's auth manager and only their config id is stored."""

from __future__ import annotations

import dataclasses
import json
import logging

from qgis.core import QgsApplication, QgsAuthMethodConfig, QgsSettings

from ..agent.config import Settings

LOG = logging.getLogger(__name__)
PREFIX = "stacgis_agent/"


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
    return dataclasses.replace(settings, postgres_dsn=dsn_with_credentials(settings.postgres_dsn, user, password))


def edit_settings(settings: Settings, parent=None, endpoint_access=None) -> Settings | None:
    """Shows the settings dialog; the saved settings when the user pressed Save, else None."""
    from ..ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(settings, read_password=lambda auth_id: read_secret(auth_id)[1],
                            endpoint_access=endpoint_access, parent=parent)
    if not dialog.exec():
        return None
    save_settings(dialog.settings())
    return load_settings()
