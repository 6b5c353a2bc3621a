"""Passwords and API keys live in QGIS's authentication database, referenced by id."""

from __future__ import annotations

from qgis.core import QgsApplication

from stacgis_agent.host.settings_store import read_secret, store_secret


def test_secret_round_trips_through_the_auth_manager():
    manager = QgsApplication.authManager()
    if not manager.masterPasswordIsSet():
        assert manager.setMasterPassword("stacgis-test-master", True)
    auth_id = store_secret("PostgreSQL team memory", "analyst", "s3cr'et;--")
    assert auth_id and len(auth_id) == 7
    assert read_secret(auth_id) == ("analyst", "s3cr'et;--")
    assert store_secret("PostgreSQL team memory", "analyst", "rotated", existing_id=auth_id) == auth_id
    assert read_secret(auth_id) == ("analyst", "rotated")
    assert read_secret("nope123") == ("", "")
