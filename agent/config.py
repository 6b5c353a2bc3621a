"""All user settings as one typed structure of defaults (pure Python: no qgis, no Qt).

The plugin reads and writes it through QgsSettings (see `qgis_settings.py`);
environment variables override what is stored, so CI and power users can steer it.
Secrets (API keys, DB passwords) are not fields here: they live in QGIS's auth manager
and are referenced by an auth config id.
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field
from typing import Any, Mapping

from .paths import resources_path


@dataclass
class CatalogConfig:
    name: str
    url: str  # a STAC API root, a static catalog.json URL, or a local folder/catalog.json path
    kind: str = "api"  # "api" or "static"
    headers: dict[str, str] = field(default_factory=dict)  # sent to the API and passed to GDAL
    auth_cfg: str = ""  # QGIS auth manager config id for secrets
    s3_requester_pays: bool = False
    # how assets (and requests) are authorised; "" = "headers" when headers are set, else "none".
    # One of tools/stac/access.py ACCESS_METHODS: none, headers, qgis_auth, bearer, planetary_computer, s3
    access: str = ""
    preset: str = ""  # the preset this entry was made from (presets.py), for the editor's label only
    s3_region: str = ""
    s3_endpoint: str = ""  # host[:port] of an S3-compatible store; "" = AWS
    asset_hosts: list[str] = field(default_factory=list)  # other hosts that get the catalog's credentials
    token_url: str = ""  # Planetary Computer SAS token endpoint; "" = the public one

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CatalogConfig:
        known = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


DEMO_CATALOG = resources_path("demo_catalog", "catalog.json")
DEMO_CATALOG_NAME = "Demo (offline)"


def default_catalogs() -> list[CatalogConfig]:
    """The tiny offline demo catalog shipped with the plugin, so a first run works with no network."""
    return [CatalogConfig(DEMO_CATALOG_NAME, str(DEMO_CATALOG), kind="static")]


def _repoint_demo(catalog: CatalogConfig) -> CatalogConfig:
    # The plugin folder moves on upgrade or reinstall; a stored demo path follows it.
    if catalog.url.replace("\\", "/").endswith("resources/demo_catalog/catalog.json"):
        catalog.url = str(DEMO_CATALOG)
    return catalog


def _default_ollama_url() -> str:
    return normalise_ollama_host(os.environ.get("OLLAMA_HOST", ""))


def normalise_ollama_host(host: str) -> str:
    """OLLAMA_HOST may be "0.0.0.0", "host:port" or a full URL; return a base URL."""
    host = host.strip()
    if not host:
        return "http://localhost:11434"
    if host.startswith(("http://", "https://")):
        return host.rstrip("/")  # a full URL is used as given (it may sit behind a proxy on 443)
    if ":" not in host:
        host += ":11434"
    return "http://" + host.rstrip("/")


@dataclass
class Settings:
    ollama_url: str = field(default_factory=_default_ollama_url)
    chat_model: str = "qwen3:8b"
    embedding_model: str = "nomic-embed-text"
    backup_provider_url: str = ""  # "" = no backup; an Ollama URL or an OpenAI-compatible /v1 URL
    backup_model: str = ""
    backup_kind: str = "ollama"  # "ollama" or "openai"
    num_ctx: int = 16384
    temperature: float = 0.2
    keep_alive: str = "30m"
    request_timeout_s: float = 120.0
    max_steps: int = 15
    tool_top_k: int = 10  # tools offered per request when the tool set is too large to offer all
    tool_set: str = "auto"  # auto | all | chat | message | step | compact: which tools the model sees, and how often that changes
    exploration_budget: int = 7
    ask_user_timeout_s: float = 300.0
    constrained_tools: bool = False  # force JSON-constrained tool calling for weak models
    catalogs: list[CatalogConfig] = field(default_factory=default_catalogs)
    redis_url: str = ""  # "" = embedded SQLite sessions and in-process gate; no password: see redis_auth_cfg
    redis_auth_cfg: str = ""  # QGIS auth manager config id holding the Redis user (optional) and password
    postgres_dsn: str = ""  # "" = embedded SQLite + numpy memory; password via auth_cfg
    postgres_auth_cfg: str = ""
    max_concurrent_chats: int = 4
    session_ttl_s: int = 3600
    user: str = "default"
    mcp_http_enabled: bool = False
    mcp_http_port: int = 8765
    mcp_read_only: bool = False  # outside MCP clients get only the tools that change nothing (agent/trust.py)
    send_map_context: bool = True
    # Folders outside MCP clients may read rasters/vectors from, one per line (besides project layers,
    # catalog assets and the tools' output folder).
    mcp_allowed_folders: str = ""
    backup_auth_cfg: str = ""  # QGIS auth manager config id holding the backup provider's API key (as password)
    dask_scheduler: str = ""  # "" = collection statistics read in this process; tcp://host:8786 or a Dask Gateway URL
    voice_model: str = ""  # "" = Whisper tiny.en as installed by the dock; else a CTranslate2 Whisper model folder

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        """Builds settings from stored values, ignoring unknown keys and coercing types, so an
        old or hand-edited profile never stops the plugin from loading."""
        base = cls()
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name not in data or data[f.name] is None:
                continue
            raw = data[f.name]
            current = getattr(base, f.name)
            try:
                values[f.name] = _coerce(f.name, raw, current)
            except (TypeError, ValueError):
                continue
        return dataclasses.replace(base, **values)

    def with_env(self, environ: Mapping[str, str] | None = None) -> Settings:
        """Environment variables STACGIS_<FIELD> (and OLLAMA_HOST) override stored values."""
        env = os.environ if environ is None else environ
        overrides: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            key = "STACGIS_" + f.name.upper()
            if key in env:
                overrides[f.name] = env[key]
        if "OLLAMA_HOST" in env and "STACGIS_OLLAMA_URL" not in env:
            overrides["ollama_url"] = normalise_ollama_host(env["OLLAMA_HOST"])
        merged = {**self.to_dict(), **overrides}
        return Settings.from_dict(merged)


def _coerce(name: str, raw: Any, current: Any) -> Any:
    if name == "catalogs":
        items = json.loads(raw) if isinstance(raw, str) else raw
        return [_repoint_demo(c if isinstance(c, CatalogConfig) else CatalogConfig.from_dict(c)) for c in items]
    if isinstance(current, bool):
        if isinstance(raw, str):
            return raw.strip().lower() in ("1", "true", "yes", "on")
        return bool(raw)
    if isinstance(current, int):
        return int(raw)
    if isinstance(current, float):
        return float(raw)
    return str(raw)
