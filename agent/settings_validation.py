"""Why a set of settings cannot be saved, in sentences the user can act on (pure Python)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

from .catalog_presets import ACCESS_METHODS, access_method
from .config import CatalogConfig, Settings
from .visible_tools import MODES as TOOL_SET_MODES

RANGES = {
    "num_ctx": (2048, 1_048_576),
    "temperature": (0.0, 2.0),
    "max_steps": (1, 100),
    "tool_top_k": (1, 200),
    "mcp_http_port": (1024, 65535),
    "max_concurrent_chats": (1, 256),
}
LABELS = {"num_ctx": "Context window (num_ctx)", "temperature": "Temperature", "max_steps": "Max steps",
          "tool_top_k": "Tool top-K", "mcp_http_port": "MCP endpoint port",
          "max_concurrent_chats": "Concurrent chats"}


def _is_http_url(url: str) -> bool:
    parsed = urlparse(url)
    return parsed.scheme in ("http", "https") and bool(parsed.netloc)


def validate_settings(settings: Settings) -> list[str]:
    problems: list[str] = []
    if not _is_http_url(settings.ollama_url):
        problems.append(f"Ollama URL “{settings.ollama_url}” is not an http(s) URL, e.g. http://localhost:11434.")
    if not settings.chat_model.strip():
        problems.append("Pick a chat model (one that supports tools).")
    if settings.backup_provider_url:
        if not _is_http_url(settings.backup_provider_url):
            problems.append("Backup provider URL must be an http(s) URL, or empty for no backup.")
        if not settings.backup_model.strip():
            problems.append("Name the backup provider's model, or clear its URL.")
        if settings.backup_kind not in ("ollama", "openai"):
            problems.append("Backup provider kind must be “ollama” or “openai”.")
    for name, (low, high) in RANGES.items():
        value = getattr(settings, name)
        if not low <= value <= high:
            problems.append(f"{LABELS[name]} must be between {low} and {high} (it is {value}).")
    if settings.redis_url and urlparse(settings.redis_url).scheme not in ("redis", "rediss", "unix"):
        problems.append("Redis URL must start with redis://, rediss:// or unix:// (or be empty for the "
                        "embedded store).")
    dsn = settings.postgres_dsn.strip()
    if dsn and not (dsn.startswith(("postgresql://", "postgres://")) or "=" in dsn):
        problems.append("PostgreSQL DSN must be a postgresql://user@host/db URL or “host=… dbname=…” "
                        "(or be empty for the embedded store).")
    if "password=" in dsn or (urlparse(dsn).password if dsn.startswith("postgres") else None):
        problems.append("Do not put the PostgreSQL password in the DSN: store it with the auth "
                        "configuration (QGIS authentication manager).")
    if settings.tool_set not in TOOL_SET_MODES:
        problems.append(f"Tool set must be one of {', '.join(TOOL_SET_MODES)} (it is “{settings.tool_set}”).")
    if settings.dask_scheduler and urlparse(settings.dask_scheduler).scheme not in ("tcp", "tls", "http", "https"):
        problems.append("Dask scheduler must be tcp://host:8786 (or tls://), a Dask Gateway https:// URL, or empty "
                        "to compute on this machine.")
    problems.extend(validate_catalogs(settings))
    return problems


def validate_catalogs(settings: Settings) -> list[str]:
    problems: list[str] = []
    seen: set[str] = set()
    for index, catalog in enumerate(settings.catalogs, start=1):
        label = f"Catalog {index} ({catalog.name or 'no name'})"
        if not catalog.name.strip():
            problems.append(f"Catalog {index} needs a name.")
        elif catalog.name in seen:
            problems.append(f"Two catalogs are named “{catalog.name}”; names must be unique.")
        seen.add(catalog.name)
        if catalog.kind not in ("api", "static"):
            problems.append(f"{label}: kind must be “api” or “static”.")
        url = catalog.url.strip()
        if not url:
            problems.append(f"{label} needs a URL or a path.")
        elif not _is_http_url(url):
            if catalog.kind == "api":
                problems.append(f"{label}: a STAC API needs an http(s) URL.")
            elif not Path(url).exists():
                problems.append(f"{label}: “{url}” is neither an http(s) URL nor an existing file.")
        for key, value in catalog.headers.items():
            if not key.strip() or "\n" in key or "\n" in str(value):
                problems.append(f"{label}: header “{key}” is not a valid HTTP header.")
        problems += catalog_access_problems(label, catalog)
    return problems


def catalog_access_problems(label: str, catalog: CatalogConfig) -> list[str]:
    """An access method that cannot work as configured."""
    method = access_method(catalog)
    problems = []
    if catalog.access and catalog.access not in ACCESS_METHODS:
        problems.append(f"{label}: unknown access method “{catalog.access}”.")
    if method in ("qgis_auth", "bearer") and not catalog.auth_cfg:
        problems.append(f"{label}: “{ACCESS_METHODS[method]}” needs an auth config; choose one below the table.")
    if method == "headers" and not catalog.headers:
        problems.append(f"{label}: “Fixed HTTP headers” needs at least one header (Key: value).")
    endpoint = catalog.s3_endpoint.strip()
    if endpoint and ("/" in endpoint.split("://", 1)[-1].rstrip("/") or " " in endpoint):
        problems.append(f"{label}: the S3 endpoint is a host (and port), like “https://eodata.example.org”.")
    return problems
