"""STAC connections of QGIS's own Browser (QgsStacConnection, QGIS 3.40 and later) as catalogs of the plugin,
and the plugin's catalogs written there, so one catalog is configured once. On QGIS 3.22–3.38 there are none
and nothing is written: the plugin's own settings are the catalogs.

A Browser connection is offered read-only: it is edited in the Browser, and its auth config (not its secrets)
is what the plugin uses. The plugin's fixed headers may be secrets, so only the URL and the auth config go
to the Browser."""

from __future__ import annotations

import logging
from typing import Any, Iterable

from ...agent.config import CatalogConfig
from ..common import ToolInputError

log = logging.getLogger(__name__)

BROWSER_SUFFIX = " (QGIS Browser)"


def _connection_class() -> Any:
    """QgsStacConnection where PyQGIS has it (3.42+), the same settings read directly on 3.40 (where the class
    exists in QGIS but not in Python), else None."""
    try:
        from qgis.core import Qgis, QgsApplication
    except ImportError:
        return None
    if QgsApplication.instance() is None or Qgis.QGIS_VERSION_INT < 34000:  # settings need the app
        return None
    try:
        from qgis.core import QgsStacConnection
    except ImportError:
        return SettingsConnections
    return QgsStacConnection


class SettingsConnections:
    """QGIS 3.40's STAC connections as QGIS stores them (connections/stac/items/<name>/url, authcfg,
    http-header/…), with QgsStacConnection's static interface."""

    PREFIX = "connections/stac/items"

    class Data:
        def __init__(self) -> None:
            self.url, self.authCfg, self.username, self.password = "", "", "", ""
            self.httpHeaders: dict[str, str] = {}

    @classmethod
    def connectionList(cls) -> list[str]:
        from qgis.core import QgsSettings

        settings = QgsSettings()
        settings.beginGroup(cls.PREFIX)
        names = list(settings.childGroups())
        settings.endGroup()
        return names

    @classmethod
    def connection(cls, name: str) -> SettingsConnections.Data:
        from qgis.core import QgsSettings

        settings = QgsSettings()
        data = cls.Data()
        key = f"{cls.PREFIX}/{name}"
        data.url = str(settings.value(f"{key}/url", "") or "")
        data.authCfg = str(settings.value(f"{key}/authcfg", "") or "")
        data.username = str(settings.value(f"{key}/username", "") or "")
        settings.beginGroup(f"{key}/http-header")
        data.httpHeaders = {k: str(settings.value(k)) for k in settings.childKeys()}
        settings.endGroup()
        return data

    @classmethod
    def addConnection(cls, name: str, data: SettingsConnections.Data) -> None:
        from qgis.core import QgsSettings

        settings = QgsSettings()
        settings.setValue(f"{cls.PREFIX}/{name}/url", data.url)
        if data.authCfg:
            settings.setValue(f"{cls.PREFIX}/{name}/authcfg", data.authCfg)

    @classmethod
    def deleteConnection(cls, name: str) -> None:
        from qgis.core import QgsSettings

        QgsSettings().remove(f"{cls.PREFIX}/{name}")


def browser_catalogs(configured: Iterable[CatalogConfig] = ()) -> list[CatalogConfig]:
    """The Browser's STAC connections whose URL the plugin does not already list, named '<name> (QGIS Browser)'."""
    connections = _connection_class()
    if connections is None:
        return []
    known = {_same_url(c.url) for c in configured}
    found = []
    for name in connections.connectionList():
        data = connections.connection(name)
        url = str(data.url or "")
        if not url or _same_url(url) in known:
            continue
        headers = _plain_headers(data.httpHeaders)
        access = "qgis_auth" if data.authCfg else ("headers" if headers else "none")
        found.append(CatalogConfig(name=f"{name}{BROWSER_SUFFIX}", url=url, kind="static" if url.endswith(".json")
                                   else "api", headers=headers, auth_cfg=str(data.authCfg or ""), access=access))
        if data.username and not data.authCfg:
            log.info("Browser STAC connection %s has a user name but no auth config; the plugin sends no "
                     "credentials for it (set an auth config on the connection)", name)
    return found


def browser_unavailable() -> str:
    """Why the plugin's catalogs cannot be added to the Browser here, in words; "" when they can (QGIS 3.40+)."""
    if _connection_class() is not None:
        return ""
    try:
        from qgis.core import Qgis
        version = f" (this is QGIS {Qgis.QGIS_VERSION.split('-')[0]})"
    except ImportError:
        version = ""
    return (f"QGIS Browser STAC connections need QGIS 3.40 or later{version}; the catalogs stay in the plugin's "
            "settings, where they keep working.")


def add_to_browser(config: CatalogConfig) -> str:
    """Writes the plugin's catalog as a Browser STAC connection (URL and auth config only); returns its name."""
    connections = _connection_class()
    if connections is None:
        raise ToolInputError(browser_unavailable())
    if not config.url.strip():
        raise ToolInputError("Give the catalog a URL first; the Browser's STAC connections need one.")
    if config.kind == "static" and not config.url.startswith(("http://", "https://")):
        raise ToolInputError(f"'{config.name}' is a folder on disk; the Browser's STAC connections take a URL.")
    name = config.name.removesuffix(BROWSER_SUFFIX)
    if name in connections.connectionList():
        raise ToolInputError(f"The Browser already has a STAC connection named '{name}'; rename one of them.")
    data = connections.Data()
    data.url = config.url
    if config.auth_cfg:
        data.authCfg = config.auth_cfg
    connections.addConnection(name, data)
    return name


def _plain_headers(headers: Any) -> dict[str, str]:
    """The connection's HTTP headers as a dict (QgsHttpHeaders), without QGIS's own referer entry when empty."""
    try:
        values = dict(headers) if isinstance(headers, dict) else dict(headers.headers())
    except (AttributeError, TypeError):
        return {}
    return {str(k): str(v) for k, v in values.items() if v not in (None, "")}


def _same_url(url: str) -> str:
    return url.strip().rstrip("/").lower()
