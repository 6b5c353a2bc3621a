"""Settings defaults, coercion of stored values, and environment overrides."""

from __future__ import annotations

from stacgis_agent.agent.config import CatalogConfig, Settings, normalise_ollama_host


def test_ollama_host_forms():
    assert normalise_ollama_host("") == "http://localhost:11434"
    assert normalise_ollama_host("0.0.0.0") == "http://0.0.0.0:11434"
    assert normalise_ollama_host("gpu:9000") == "http://gpu:9000"
    assert normalise_ollama_host("https://llm.example.org/") == "https://llm.example.org"


def test_default_url_follows_ollama_host(monkeypatch):
    monkeypatch.setenv("OLLAMA_HOST", "box:1234")
    assert Settings().ollama_url == "http://box:1234"
    monkeypatch.delenv("OLLAMA_HOST")
    assert Settings().ollama_url == "http://localhost:11434"


def test_stored_strings_are_coerced_and_unknown_keys_ignored():
    s = Settings.from_dict({"num_ctx": "8192", "temperature": "0.7", "constrained_tools": "true",
                            "mcp_http_enabled": "false", "obsolete_key": 1,
                            "catalogs": '[{"name": "A", "url": "http://a", "extra": 1}]'})
    assert (s.num_ctx, s.temperature, s.constrained_tools, s.mcp_http_enabled) == (8192, 0.7, True, False)
    assert s.catalogs == [CatalogConfig("A", "http://a")]


def test_env_overrides():
    s = Settings(max_steps=5).with_env({"STACGIS_MAX_STEPS": "12", "STACGIS_REDIS_URL": "redis://x"})
    assert s.max_steps == 12 and s.redis_url == "redis://x"


def test_demo_catalog_is_configured_by_default_and_follows_the_plugin_folder():
    from pathlib import Path

    from stacgis_agent.agent.config import DEMO_CATALOG

    default = Settings().catalogs
    assert [c.kind for c in default] == ["static"]
    assert Path(default[0].url) == DEMO_CATALOG and DEMO_CATALOG.exists()
    moved = Settings.from_dict({"catalogs": [{"name": "Demo (offline)", "kind": "static",
                                              "url": "/old/plugins/stacgis_agent/resources/demo_catalog/catalog.json"}]})
    assert Path(moved.catalogs[0].url) == DEMO_CATALOG


def test_postgres_password_from_the_auth_manager_is_quoted_into_either_dsn_form():
    import psycopg.conninfo as ci

    from stacgis_agent.agent.stores.pg_connection import dsn_with_credentials

    for stored in ("postgresql://agent@db:5432/gis", "host=db port=5432 dbname=gis user=agent"):
        params = ci.conninfo_to_dict(dsn_with_credentials(stored, user="ana", password="s'q l;--"))
        assert (params["user"], params["password"], params["dbname"], params["host"]) == ("ana", "s'q l;--", "gis", "db")
    assert dsn_with_credentials("host=db") == "host=db"
