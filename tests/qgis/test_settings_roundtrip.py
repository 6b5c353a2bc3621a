"""Settings survive a round trip through QgsSettings; environment variables override them."""

from __future__ import annotations

from qgis.core import QgsSettings
from qgis.PyQt.QtCore import QSettings

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.host.settings_store import load_settings, save_settings


def _qsettings(tmp_path):
    return QgsSettings(str(tmp_path / "profile.ini"), QSettings.Format.IniFormat)


def test_every_field_round_trips(tmp_path):
    original = Settings(
        ollama_url="http://gpu-box:11434", chat_model="llama3.1:8b", num_ctx=8192, temperature=0.5,
        max_steps=9, constrained_tools=True, redis_url="redis://127.0.0.1:6390/0", redis_auth_cfg="rds1234",
        catalogs=[CatalogConfig("Earth Search", "https://earth-search.example/v1",
                                headers={"X-Api-Key": "k"}),
                  CatalogConfig("Demo", "/data/catalog.json", kind="static")],
    )
    save_settings(original, _qsettings(tmp_path))
    loaded = load_settings(_qsettings(tmp_path), apply_env=False)
    assert loaded == original
    assert isinstance(loaded.catalogs[0], CatalogConfig)
    assert loaded.catalogs[1].kind == "static"


def test_nothing_stored_gives_defaults(tmp_path):
    assert load_settings(_qsettings(tmp_path), apply_env=False) == Settings()


def test_environment_overrides_stored_values(tmp_path, monkeypatch):
    save_settings(Settings(chat_model="stored:1b", max_steps=5), _qsettings(tmp_path))
    monkeypatch.setenv("STACGIS_CHAT_MODEL", "env:7b")
    monkeypatch.setenv("OLLAMA_HOST", "10.1.2.3")
    loaded = load_settings(_qsettings(tmp_path))
    assert loaded.chat_model == "env:7b"
    assert loaded.ollama_url == "http://10.1.2.3:11434"
    assert loaded.max_steps == 5


def test_corrupt_stored_value_falls_back_to_default(tmp_path):
    qs = _qsettings(tmp_path)
    qs.setValue("stacgis_agent/max_steps", "many")
    qs.setValue("stacgis_agent/catalogs", "{not json")
    loaded = load_settings(qs, apply_env=False)
    assert loaded.max_steps == Settings().max_steps
    assert loaded.catalogs == Settings().catalogs
