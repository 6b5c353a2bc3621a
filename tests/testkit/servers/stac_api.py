"""A real STAC API for tests: stac-fastapi-pgstac on a private PostgreSQL + PostGIS cluster.

Built by `make setup-test` (Debian's default postgresql + postgis, and `.build/stac-venv`). Everything
runs on loopback ports chosen at start and is removed by `stop()`.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Iterable

import httpx

from .pg_binaries import system_binaries

log = logging.getLogger(__name__)

REPO = Path(__file__).resolve().parents[3]
STAC_VENV = REPO / ".build" / "stac-venv"


class StacApiUnavailable(RuntimeError):
    """The STAC API could not start (packages missing); `make setup-test` installs them."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _as_postgres(cmd: list[str]) -> list[str]:
    # initdb and postgres refuse to run as root; CI runs as root.
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


class StacApi:
    def __init__(self) -> None:
        self.workdir = Path(tempfile.mkdtemp(prefix="stacgis-pgstac-"))
        self.pg_port = free_port()
        self.api_port = free_port()
        self._pg: subprocess.Popen | None = None
        self._api: subprocess.Popen | None = None

    @property
    def dsn(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.pg_port}/postgres"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.api_port}"

    def start(self) -> StacApi:
        pg = system_binaries("postgis")
        if pg is None or not (STAC_VENV / "bin" / "uvicorn").exists():
            raise StacApiUnavailable("PostgreSQL with PostGIS or the STAC venv is missing: run `make setup-test`")
        pg_bin = pg.bin
        data = self.workdir / "pg"
        data.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.workdir, "postgres")
            shutil.chown(data, "postgres")
        subprocess.run(_as_postgres([str(pg_bin / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"]),
                       check=True, capture_output=True)
        self._pg = subprocess.Popen(
            _as_postgres([str(pg_bin / "postgres"), "-D", str(data), "-p", str(self.pg_port), "-k", str(self.workdir),
                          "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
                          "-c", "full_page_writes=off"]),
            stdout=subprocess.DEVNULL, stderr=open(self.workdir / "pg.log", "wb"))
        self._wait_pg()
        subprocess.run([str(STAC_VENV / "bin" / "pypgstac"), "migrate", "--dsn", self.dsn],
                       check=True, capture_output=True)
        self.sql("INSERT INTO pgstac.pgstac_settings (name, value) VALUES ('context', 'on') "
                 "ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value")
        env = {**os.environ, "PGUSER": "postgres", "PGPASSWORD": "", "PGHOST": "127.0.0.1",
               "PGPORT": str(self.pg_port), "PGDATABASE": "postgres",
               "POSTGRES_USER": "postgres", "POSTGRES_PASS": "", "POSTGRES_HOST_READER": "127.0.0.1",
               "POSTGRES_HOST_WRITER": "127.0.0.1", "POSTGRES_PORT": str(self.pg_port), "POSTGRES_DBNAME": "postgres"}
        self._api = subprocess.Popen(
            [str(STAC_VENV / "bin" / "uvicorn"), "stac_fastapi.pgstac.app:create_app", "--factory",
             "--host", "127.0.0.1", "--port", str(self.api_port), "--log-level", "warning"],
            env=env, stdout=subprocess.DEVNULL, stderr=open(self.workdir / "api.log", "wb"))
        self._wait_api()
        return self

    def _wait_pg(self, timeout: float = 30) -> None:
        import psycopg

        deadline = time.monotonic() + timeout
        while True:
            try:
                with psycopg.connect(self.dsn, connect_timeout=2):
                    return
            except psycopg.OperationalError:
                if time.monotonic() > deadline or (self._pg and self._pg.poll() is not None):
                    raise StacApiUnavailable("PostgreSQL did not start: " + self._log("pg.log")) from None
                time.sleep(0.1)

    def _wait_api(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(self.url + "/conformance", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or (self._api and self._api.poll() is not None):
                raise StacApiUnavailable("stac-fastapi-pgstac did not start: " + self._log("api.log"))
            time.sleep(0.1)

    def _log(self, name: str) -> str:
        try:
            return (self.workdir / name).read_text(errors="replace")[-2000:]
        except OSError:
            return ""

    def sql(self, query: str, params: Any = None) -> None:
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as conn:
            conn.execute("SET search_path TO pgstac, public")
            conn.execute(query, params)

    def load(self, collections: Iterable[dict], items: Iterable[dict] = ()) -> None:
        """Upserts collections then items through pgstac's own SQL functions."""
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as conn:
            for collection in collections:
                conn.execute("SELECT pgstac.upsert_collection(%s::jsonb)", (json.dumps(collection),))
            items = list(items)
            if items:
                conn.execute("SELECT pgstac.upsert_items(%s::jsonb)", (json.dumps(items),))

    def stop(self) -> None:
        for proc in (self._api, self._pg):
            if proc and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        shutil.rmtree(self.workdir, ignore_errors=True)


def collection_doc(collection_id: str, bbox: list[float], interval: list, **extra: Any) -> dict:
    return {
        "type": "Collection", "stac_version": "1.0.0", "id": collection_id,
        "description": extra.pop("description", f"Test collection {collection_id}"),
        "license": extra.pop("license", "CC-BY-4.0"),
        "extent": {"spatial": {"bbox": [bbox]}, "temporal": {"interval": [interval]}},
        "links": [], **extra,
    }
