"""The "Test" buttons of the settings dialog: short network checks with a sentence as answer."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import httpx

from .config import CatalogConfig
from .health import check_ollama
from .llm.ollama import OllamaProvider
from .llm.types import ModelInfo

TIMEOUT_S = 4.0


@dataclass(frozen=True)
class CheckResult:
    ok: bool
    message: str


def _client() -> httpx.AsyncClient:
    return httpx.AsyncClient(trust_env=False, timeout=httpx.Timeout(TIMEOUT_S))


async def installed_models(base_url: str) -> list[ModelInfo]:
    """Models from /api/tags with capabilities and context length from /api/show."""
    provider = OllamaProvider(base_url, "", timeout_s=TIMEOUT_S, connect_timeout_s=TIMEOUT_S)
    try:
        return await provider.installed_models()
    finally:
        await provider.aclose()


async def check_ollama_connection(base_url: str, model: str) -> CheckResult:
    state = await check_ollama(base_url, model, timeout_s=TIMEOUT_S)
    return CheckResult(state.ok, state.message)


async def check_redis(url: str, user: str = "", password: str = "") -> CheckResult:
    import redis.asyncio as redis

    from .stores.redis_url import redacted, url_with_credentials

    shown = redacted(url)  # the message never carries a password
    client = redis.from_url(url_with_credentials(url, user, password), socket_connect_timeout=TIMEOUT_S,
                            socket_timeout=TIMEOUT_S)
    try:
        await client.ping()
        info = await client.info("server")
        return CheckResult(True, f"Redis {info.get('redis_version', '')} answered at {shown}.")
    except redis.AuthenticationError as exc:  # also "NOAUTH": a password is needed and none was given
        return CheckResult(False, f"Redis at {shown} refused the login ({exc}); pick or create the auth "
                                  "configuration that holds its user and password.")
    except Exception as exc:
        return CheckResult(False, f"Redis did not answer at {shown}: {exc}. Is redis-server running there?")
    finally:
        await client.aclose()


async def check_postgres(dsn: str, password: str = "") -> CheckResult:
    import psycopg

    try:
        kwargs = {"password": password} if password else {}
        async with await psycopg.AsyncConnection.connect(dsn, connect_timeout=int(TIMEOUT_S), **kwargs) as conn:
            version = (await (await conn.execute("SHOW server_version")).fetchone())[0]
            row = await (await conn.execute(
                "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).fetchone()
    except Exception as exc:
        return CheckResult(False, f"PostgreSQL refused the connection: {exc}".strip())
    if row is None:
        return CheckResult(False, f"PostgreSQL {version} is reachable but the pgvector extension is not "
                                  "installed on the server (install pgvector, then CREATE EXTENSION vector).")
    return CheckResult(True, f"PostgreSQL {version} with pgvector is reachable.")


async def check_catalog(catalog: CatalogConfig) -> CheckResult:
    url = catalog.url.strip()
    try:
        if url.startswith(("http://", "https://")):
            async with _client() as http:
                response = await http.get(url, headers=catalog.headers)
                if response.status_code in (401, 403):
                    return CheckResult(False, f"{catalog.name}: access refused ({response.status_code}); "
                                              "add the API key header or auth configuration.")
                data = response.raise_for_status().json()
        else:
            data = json.loads(Path(url).read_text(encoding="utf-8"))
    except (httpx.HTTPError, OSError, ValueError) as exc:
        return CheckResult(False, f"{catalog.name}: could not read {url} ({exc}).")
    kind = data.get("type", "")
    if kind not in ("Catalog", "Collection"):
        return CheckResult(False, f"{catalog.name}: {url} is not a STAC catalog (type “{kind}”).")
    title = data.get("title") or data.get("id", "")
    searchable = any(link.get("rel") == "search" for link in data.get("links", []))
    if catalog.kind == "api" and not searchable:
        return CheckResult(False, f"{catalog.name}: “{title}” has no search link; set its kind to static.")
    return CheckResult(True, f"{catalog.name}: “{title}” answered ({'searchable API' if searchable else 'static'}).")
