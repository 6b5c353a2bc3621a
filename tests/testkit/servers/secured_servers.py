"""Real Redis and PostgreSQL that demand a password, as a team runs them: for tests that check
the password is used for the connection and written nowhere in clear."""

from __future__ import annotations

import secrets

import psycopg
from psycopg import sql

from .loopback import server_missing
from .pg_server import PgServer, own_pg
from .redis_server import RedisServer


def new_password() -> str:
    """Unique per test, so finding it in a file can only mean this run wrote it."""
    return "pw-" + secrets.token_hex(12)


def password_redis(password: str) -> RedisServer:
    try:
        return RedisServer(password=password).start()
    except (RuntimeError, OSError) as exc:
        server_missing(f"cannot start redis-server: {exc}")
        raise


def password_pg(password: str) -> PgServer:
    """A PostgreSQL + pgvector whose `postgres` user needs `password` over TCP (scram-sha-256)."""
    server = own_pg()
    with psycopg.connect(server.dsn, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        conn.execute(sql.SQL("ALTER USER postgres PASSWORD {}").format(sql.Literal(password)))
    (server.data / "pg_hba.conf").write_text(
        "local all all trust\nhost all all 127.0.0.1/32 scram-sha-256\nhost all all ::1/128 scram-sha-256\n")
    server._pg("pg_ctl", ["-D", str(server.data), "reload"])
    return server
