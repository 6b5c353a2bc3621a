"""A Redis client tuned to fail fast (so the embedded fallback takes over) and to reconnect by itself."""

from __future__ import annotations

import contextlib
from typing import Iterator

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from ..dock_text import translatable
from .errors import StoreUnavailable, first_line
from .redis_url import redacted

__all__ = ["connect_redis", "redacted", "unavailable_as"]


def connect_redis(url: str, timeout_s: float = 2.0) -> aioredis.Redis:
    """No connection is opened here; each command takes one from the pool, so a restarted
    server is picked up by the next command without any restart of the plugin."""
    return aioredis.Redis.from_url(
        url, socket_connect_timeout=timeout_s, socket_timeout=timeout_s,
        retry=Retry(NoBackoff(), 1),  # one retry: a pooled connection may predate a server restart
        decode_responses=False)


@contextlib.contextmanager
def unavailable_as(what: str, url: str) -> Iterator[None]:
    try:
        yield
    except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
        raise StoreUnavailable.said(translatable(
            "Redis at {where} failed while {what} ({why}); check that the server is running and the URL in the "
            "plugin settings is right"), where=redacted(url), what=what, why=first_line(exc)) from exc
