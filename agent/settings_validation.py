"""Why a set of settings cannot be saved, in sentences the user can act on (pure Python)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

from .catalog_presets import ACCESS_METHODS, access_method
from .config import CatalogConfig, Settings
from .dock_text import Translate, as_written, translatable
from .visible_tools import MODES as TOOL_SET_MODES

RANGES = {
    "num_ctx": (2048, 1_048_576),
    "temperature": (0.0, 2.0),
    "max_steps": (1, 100),
    "tool_top_k": (1, 200),
    "mcp_http_port": (1024, 65535),
    "max_concurrent_chats": (1, 256),
}
LABELS = {"num_ctx": translatable("Context window (num_ctx)"), "temperature": translatable("Temperature"),
          "max_steps": translatable("Max steps"), "tool_top_k": translatable("Tool top-K"),
          "mcp_http_port": translatable("MCP endpoint port"), "max_concurrent_chats": translatable("Concurrent chats")}


def _is_http_url(url: str) -> bool:
    parsed = urlparse(url)
    return parsed.scheme in ("http", "https") and bool(parsed.netloc)


def validate_settings(settings: Settings, tr: Translate = as_written) -> list[str]:
    """`tr`: the dock's translation (agent/dock_text.py)."""
    problems: list[str] = []
    if not _is_http_url(settings.ollama_url):
        problems.append(tr("Ollama URL “{url}” is not an http(s) URL, e.g. http://localhost:11434.")
                        .format(url=settings.ollama_url))
    if not settings.chat_model.strip():
        problems.append(tr("Pick a chat model (one that supports tools)."))
    if settings.backup_provider_url:
        if not _is_http_url(settings.backup_provider_url):
            problems.append(tr("Backup provider URL must be an http(s) URL, or empty for no backup."))
        if not settings.backup_model.strip():
            problems.append(tr("Name the backup provider's model, or clear its URL."))
        if settings.backup_kind not in ("ollama", "openai"):
            problems.append(tr("Backup provider kind must be “ollama” or “openai”."))
    for name, (low, high) in RANGES.items():
        value = getattr(settings, name)
        if not low <= value <= high:
            problems.append(tr("{setting} must be between {low} and {high} (it is {value}).").format(
                setting=tr(LABELS[name]), low=low, high=high, value=value))
    if settings.redis_url and urlparse(settings.redis_url).scheme not in ("redis", "rediss", "unix"):
        problems.append(tr("Redis URL must start with redis://, rediss:// or unix:// (or be empty for the "
                           "embedded store)."))
    dsn = settings.postgres_dsn.strip()
    if dsn and not (dsn.startswith(("postgresql://", "postgres://")) or "=" in dsn):
        problems.append(tr("PostgreSQL DSN must be a postgresql://user@host/db URL or “host=… dbname=…” "
                           "(or be empty for the embedded store)."))
    if "password=" in dsn or (urlparse(dsn).password if dsn.startswith("postgres") else None):
        problems.append(tr("Do not put the PostgreSQL password in the DSN: store it with the auth "
                           "configuration (QGIS authentication manager)."))
    if settings.tool_set not in TOOL_SET_MODES:
        problems.append(tr("Tool set must be one of {modes} (it is “{value}”).").format(
            modes=", ".join(TOOL_SET_MODES), value=settings.tool_set))
    if settings.dask_scheduler and urlparse(settings.dask_scheduler).scheme not in ("tcp", "tls", "http", "https"):
        problems.append(tr("Dask scheduler must be tcp://host:8786 (or tls://), a Dask Gateway https:// URL, or "
                           "empty to compute on this machine."))
    problems.extend(validate_catalogs(settings, tr))
    return problems


def validate_catalogs(settings: Settings, tr: Translate = as_written) -> list[str]:
    problems: list[str] = []
    seen: set[str] = set()
    for index, catalog in enumerate(settings.catalogs, start=1):
        label = tr("Catalog {number} ({name})").format(number=index, name=catalog.name or tr("no name"))
        if not catalog.name.strip():
            problems.append(tr("Catalog {number} needs a name.").format(number=index))
        elif catalog.name in seen:
            problems.append(tr("Two catalogs are named “{name}”; names must be unique.").format(name=catalog.name))
        seen.add(catalog.name)
        if catalog.kind not in ("api", "static"):
            problems.append(tr("{catalog}: kind must be “api” or “static”.").format(catalog=label))
        url = catalog.url.strip()
        if not url:
            problems.append(tr("{catalog} needs a URL or a path.").format(catalog=label))
        elif not _is_http_url(url):
            if catalog.kind == "api":
                problems.append(tr("{catalog}: a STAC API needs an http(s) URL.").format(catalog=label))
            elif not Path(url).exists():
                problems.append(tr("{catalog}: “{url}” is neither an http(s) URL nor an existing file.").format(
                    catalog=label, url=url))
        for key, value in catalog.headers.items():
            if not key.strip() or "\n" in key or "\n" in str(value):
                problems.append(tr("{catalog}: header “{key}” is not a valid HTTP header.").format(
                    catalog=label, key=key))
        problems += catalog_access_problems(label, catalog, tr)
    return problems


def catalog_access_problems(label: str, catalog: CatalogConfig, tr: Translate = as_written) -> list[str]:
    """An access method that cannot work as configured."""
    method = access_method(catalog)
    problems = []
    if catalog.access and catalog.access not in ACCESS_METHODS:
        problems.append(tr("{catalog}: unknown access method “{method}”.").format(catalog=label, method=catalog.access))
    if method in ("qgis_auth", "bearer") and not catalog.auth_cfg:
        problems.append(tr("{catalog}: “{method}” needs an auth config; choose one below the table.").format(
            catalog=label, method=tr(ACCESS_METHODS[method])))
    if method == "headers" and not catalog.headers:
        problems.append(tr("{catalog}: “Fixed HTTP headers” needs at least one header (Key: value).").format(
            catalog=label))
    endpoint = catalog.s3_endpoint.strip()
    if endpoint and ("/" in endpoint.split("://", 1)[-1].rstrip("/") or " " in endpoint):
        problems.append(tr("{catalog}: the S3 endpoint is a host (and port), like “https://eodata.example.org”.")
                        .format(catalog=label))
    return problems
