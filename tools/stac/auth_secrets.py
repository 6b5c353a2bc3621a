"""A catalog's secrets read from QGIS's authentication database just before a request or read (main thread).

A QGIS auth config of any method QGIS can apply to a web request (Basic, API header, OAuth2, …) becomes the
headers QGIS itself would add; a bearer token is the password of a Basic config; S3 keys are its
user name (access key id) and password (secret key). Nothing read here is cached or written anywhere.
"""

from __future__ import annotations

import logging

from ...agent.config import CatalogConfig
from .access import CatalogSecrets, access_method

log = logging.getLogger(__name__)


def auth_database_open() -> bool:
    """Whether reading a secret now would not make QGIS ask for the master password."""
    try:
        from qgis.core import QgsApplication
    except ImportError:
        return False
    return QgsApplication.authManager().masterPasswordIsSet()


def resolve_secrets(config: CatalogConfig) -> CatalogSecrets:
    method = access_method(config)
    if method not in ("qgis_auth", "bearer", "s3") or not config.auth_cfg:
        if method in ("qgis_auth", "bearer"):
            return CatalogSecrets(problem=f"catalog '{config.name}' uses {method} but has no auth config: "
                                          "choose one in Settings → Catalogs.")
        return CatalogSecrets()
    try:
        from qgis.core import QgsApplication, QgsAuthMethodConfig
    except ImportError:  # outside QGIS (unit tests, the stdio bridge without QGIS): no auth database
        return CatalogSecrets(problem="the QGIS authentication database is not available here.")
    manager = QgsApplication.authManager()
    if method == "qgis_auth":
        return CatalogSecrets(headers=_headers_qgis_would_send(manager, config))
    auth = QgsAuthMethodConfig()
    if not manager.loadAuthenticationConfig(config.auth_cfg, auth, True):
        return CatalogSecrets(problem=f"auth config '{config.auth_cfg}' of catalog '{config.name}' is not in the "
                                      "QGIS authentication database (deleted, or the master password not given).")
    if method == "bearer":
        token = auth.config("password") or auth.config("token")
        return CatalogSecrets(headers={"Authorization": f"Bearer {token}"} if token else {})
    return CatalogSecrets(s3_key_id=auth.config("username"), s3_secret=auth.config("password"))


def _headers_qgis_would_send(manager, config: CatalogConfig) -> dict[str, str]:
    from qgis.PyQt.QtCore import QUrl
    from qgis.PyQt.QtNetwork import QNetworkRequest

    request = QNetworkRequest(QUrl(config.url if config.url.startswith("http") else "http://localhost/"))
    # (OAuth2 fetches or refreshes its token here, as QGIS does for its own layers)
    result = manager.updateNetworkRequest(request, config.auth_cfg)
    applied, request = result if isinstance(result, tuple) else (result, request)  # PyQGIS returns (ok, request)
    if not applied:
        log.warning("QGIS could not apply auth config %s to requests of catalog %s", config.auth_cfg, config.name)
        return {}
    return {bytes(name).decode("latin-1"): bytes(request.rawHeader(name)).decode("latin-1")
            for name in request.rawHeaderList()}
