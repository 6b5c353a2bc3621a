"""The "Test" buttons of the settings dialog: short network checks with a sentence as answer.

The sentence is for the dock: `tr` is the dock's translation (ui.i18n.tr), as in agent/turn_stats.py, and each
text is a literal tr("…") so scripts/i18n_strings.py collects it; a placeholder is filled after translation."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import httpx

from .config import CatalogConfig
from .dock_text import Translate, as_written
from .health import ConnectionState, check_ollama
from .llm.ollama import OllamaProvider
from .llm.types import ModelInfo

TIMEOUT_S = 4.0


@dataclass(frozen=True)
class CheckResult:
    ok: bool
    message: str
    reachable: bool = True  # the server answered (for the Ollama test: its models can be listed)


def _client() -> httpx.AsyncClient:
    return httpx.AsyncClient(trust_env=False, timeout=httpx.Timeout(TIMEOUT_S))


async def installed_models(base_url: str) -> list[ModelInfo]:
    """Models from /api/tags with capabilities and context length from /api/show."""
    provider = OllamaProvider(base_url, "", timeout_s=TIMEOUT_S, connect_timeout_s=TIMEOUT_S)
    try:
        return await provider.installed_models()
    finally:
        await provider.aclose()


async def check_ollama_connection(base_url: str, model: str,
                                  describe: Callable[[ConnectionState], str] | None = None) -> CheckResult:
    """`describe`: the dock's words for the state (ui.connection_text); the agent's English message without it.
    The result is `reachable` when Ollama answered, so its model list can be read."""
    state = await check_ollama(base_url, model, timeout_s=TIMEOUT_S)
    return CheckResult(state.ok, describe(state) if describe else state.message, reachable=state.reachable)


async def check_redis(url: str, user: str = "", password: str = "", tr: Translate = as_written) -> CheckResult:
    import redis.asyncio as redis

    from .stores.redis_url import redacted, url_with_credentials

    shown = redacted(url)  # the message never carries a password
    client = redis.from_url(url_with_credentials(url, user=user, password=password), socket_connect_timeout=TIMEOUT_S,
                            socket_timeout=TIMEOUT_S)
    try:
        await client.ping()
        info = await client.info("server")
        return CheckResult(True, tr("Redis {version} answered at {url}.").format(
            version=info.get("redis_version", ""), url=shown))
    except redis.AuthenticationError as exc:  # also "NOAUTH": a password is needed and none was given
        return CheckResult(False, tr("Redis at {url} refused the login ({error}); pick or create the auth "
                                     "configuration that holds its user and password.").format(url=shown, error=exc))
    except Exception as exc:
        return CheckResult(False, tr("Redis did not answer at {url}: {error}. Is redis-server running there?")
                           .format(url=shown, error=exc))
    finally:
        await client.aclose()


async def check_postgres(dsn: str, password: str = "", tr: Translate = as_written) -> CheckResult:
    import psycopg

    try:
        kwargs = {"password": password} if password else {}
        async with await psycopg.AsyncConnection.connect(dsn, connect_timeout=int(TIMEOUT_S), **kwargs) as conn:
            version = (await (await conn.execute("SHOW server_version")).fetchone())[0]
            row = await (await conn.execute(
                "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).fetchone()
    except Exception as exc:
        return CheckResult(False, tr("PostgreSQL refused the connection: {error}").format(error=exc).strip())
    if row is None:
        return CheckResult(False, tr("PostgreSQL {version} is reachable but the pgvector extension is not "
                                     "installed on the server (install pgvector, then CREATE EXTENSION vector).")
                           .format(version=version))
    return CheckResult(True, tr("PostgreSQL {version} with pgvector is reachable.").format(version=version))


async def check_catalog(catalog: CatalogConfig, tr: Translate = as_written) -> CheckResult:
    url = catalog.url.strip()
    name = catalog.name
    try:
        if url.startswith(("http://", "https://")):
            async with _client() as http:
                response = await http.get(url, headers=catalog.headers)
                if response.status_code in (401, 403):
                    return CheckResult(False, tr("{catalog}: access refused ({status}); add the API key header or "
                                                 "auth configuration.").format(catalog=name,
                                                                               status=response.status_code))
                data = response.raise_for_status().json()
        else:
            data = json.loads(Path(url).read_text(encoding="utf-8"))
    except (httpx.HTTPError, OSError, ValueError) as exc:
        return CheckResult(False, tr("{catalog}: could not read {url} ({error}).").format(
            catalog=name, url=url, error=exc))
    kind = data.get("type", "")
    if kind not in ("Catalog", "Collection"):
        return CheckResult(False, tr("{catalog}: {url} is not a STAC catalog (type “{kind}”).").format(
            catalog=name, url=url, kind=kind))
    title = data.get("title") or data.get("id", "")
    searchable = any(link.get("rel") == "search" for link in data.get("links", []))
    if catalog.kind == "api" and not searchable:
        return CheckResult(False, tr("{catalog}: “{title}” has no search link; set its kind to static.").format(
            catalog=name, title=title))
    return CheckResult(True, (tr("{catalog}: “{title}” answered (searchable API).") if searchable
                              else tr("{catalog}: “{title}” answered (static).")).format(catalog=name, title=title))
